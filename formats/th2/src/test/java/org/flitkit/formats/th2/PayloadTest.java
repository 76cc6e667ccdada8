package org.flitkit.formats.th2;

import org.flitkit.formats.core.BitVector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PayloadTest {

    private static final PayloadLayouts.RegisterAccess REG = PayloadLayouts.REGISTER;
    private static final PayloadLayouts.EepromAccess EEP = PayloadLayouts.EEPROM;

    @Test
    void registerPayloadRoundTrips() {
        RegisterPayload write = RegisterPayload.withData(0x7FFF, -1L, 0x0123, 0x0123_4567_89AB_CDEFL);
        assertThat(NmpPayload.decode(NmpType.REG_WRITE_REQ, write.encode())).isEqualTo(write);
        RegisterPayload read = RegisterPayload.of(0x10);
        assertThat(NmpPayload.decode(NmpType.REG_READ_REQ, read.encode())).isEqualTo(read);
        BitVector bits = write.encode();
        assertThat(bits.get(REG.COUNT)).isEqualTo(2);
        assertThat(bits.get(REG.addr(1))).isEqualTo(0x123);
        assertThat(bits.get(REG.data(1))).isEqualTo(0x0123_4567_89AB_CDEFL);
    }

    @Test
    void registerCountMustBeOneOrTwo() {
        assertThatThrownBy(() -> new RegisterPayload(List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("register count must be 1 or 2, got 0");
        assertThatThrownBy(() -> RegisterPayload.of(1, 2, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("register count must be 1 or 2, got 3");
        for (int bad : new int[] {0, 3, 7}) {
            BitVector wire = RegisterPayload.of(1).encode().with(REG.COUNT, bad);
            assertThatThrownBy(() -> NmpPayload.decode(NmpType.REG_READ_REQ, wire))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("bad register count " + bad + " (must be 1 or 2)");
        }
    }

    @Test
    void registerAddressTooWideIsRejected() {
        assertThatThrownBy(() -> RegisterPayload.of(0x8000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("register address 0x8000 does not fit 15 bits (max 0x7fff)");
        RegisterPayload nrcOnly = RegisterPayload.of(0x1000);
        nrcOnly.checkFits(NmpType.REG_READ_REQ, ChipType.NRC);
        assertThatThrownBy(() -> nrcOnly.checkFits(NmpType.REG_READ_REQ, ChipType.NIC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("register address 0x1000 too wide for NIC (12 bits, max 0xfff)");
    }

    @Test
    void dataMustMatchTheType() {
        assertThatThrownBy(() -> RegisterPayload.of(1).checkFits(NmpType.REG_WRITE_REQ, ChipType.NRC))
                .hasMessage("REG_WRITE_REQ needs register data, got 0 value(s)");
        assertThatThrownBy(() -> RegisterPayload.withData(1, 5).checkFits(NmpType.REG_READ_REQ, ChipType.NRC))
                .hasMessage("REG_READ_REQ carries no register data, got 1 value(s)");
        assertThatThrownBy(() -> new RegisterPayload(List.of(1, 2), List.of(5L)))
                .hasMessage("register data count 1 differs from address count 2");
        assertThatThrownBy(() -> RegisterPayload.of(1).checkFits(NmpType.EEP_READ_REQ, ChipType.NRC))
                .hasMessage("a register payload does not suit NMPType EEP_READ_REQ");
        BitVector stray = RegisterPayload.of(1).encode().with(REG.data(0), 9);
        assertThatThrownBy(() -> NmpPayload.decode(NmpType.REG_READ_REQ, stray))
                .hasMessage("nmp-register: Data0 must be 0 in a REG_READ_REQ");
        BitVector reserved = RegisterPayload.of(1).encode().flip(191);
        assertThatThrownBy(() -> NmpPayload.decode(NmpType.REG_READ_REQ, reserved))
                .hasMessage("nmp-register: reserved bits [191:163] must be 0");
    }

    @Test
    void eepromPayloadRoundTrips() {
        EepromPayload write = new EepromPayload(List.of(0, 1, 0xFFFF, 0x8000, 7, 9), List.of(1, 2, 3, 255, 0, 128));
        assertThat(NmpPayload.decode(NmpType.EEP_WRITE_REQ, write.encode())).isEqualTo(write);
        EepromPayload read = EepromPayload.of(0x1234, 0x5678);
        assertThat(NmpPayload.decode(NmpType.EEP_READ_REQ, read.encode())).isEqualTo(read);
        EepromPayload resp = read.answeredWith(List.of(0xAA, 0x55));
        assertThat(NmpPayload.decode(NmpType.EEP_READ_RESP, resp.encode())).isEqualTo(resp);
        assertThat(resp.encode().get(EEP.data(1))).isEqualTo(0x55);
        assertThat(resp.encode().get(EEP.addr(1))).isEqualTo(0x5678);
    }

    @Test
    void eepromCountMustBeOneToSix() {
        assertThatThrownBy(() -> EepromPayload.of(1, 2, 3, 4, 5, 6, 7))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("E2PROM count must be 1..6, got 7");
        assertThatThrownBy(() -> new EepromPayload(List.of(), List.of()))
                .hasMessage("E2PROM count must be 1..6, got 0");
        BitVector wire = EepromPayload.of(1).encode().with(EEP.COUNT, 7);
        assertThatThrownBy(() -> NmpPayload.decode(NmpType.EEP_READ_REQ, wire))
                .hasMessage("bad E2PROM count 7 (must be 1..6)");
        assertThatThrownBy(() -> EepromPayload.of(0x10000))
                .hasMessage("E2PROM address 65536 does not fit 16 bits (0..0xffff)");
        assertThatThrownBy(() -> new EepromPayload(List.of(1), List.of(256)))
                .hasMessage("E2PROM data byte 256 outside 0..255");
    }

    @Test
    void errorPayloadEchoesTheRequest() {
        BitVector request = RegisterPayload.of(0x1FF, 0x200).encode();
        ErrorPayload e = ErrorPayload.of(ErrorCode.UNMAPPED_ADDRESS, NmpType.REG_READ_REQ.code(), 1, request);
        BitVector bits = e.encode();
        assertThat(NmpPayload.decode(NmpType.REG_ERROR_RESP, bits)).isEqualTo(e);
        assertThat(bits.slice(0, 163)).isEqualTo(request.slice(0, 163));
        assertThat(e.console()).isEqualTo("reason=unmapped-address request=0x08 index=1");
        assertThat(e.knownRequestType()).contains(NmpType.REG_READ_REQ);
        ErrorPayload badType = ErrorPayload.of(ErrorCode.BAD_TYPE, 0x3E, PayloadLayouts.WHOLE_REQUEST, request);
        assertThat(badType.knownRequestType()).isEmpty();
        assertThat(badType.console()).isEqualTo("reason=bad-type request=0x3e index=all");
        assertThatThrownBy(() -> ErrorPayload.of(ErrorCode.BAD_COUNT, 8, 6, request))
                .hasMessage("ErrIndex 6 must be 0..5 or 7 (whole request)");
    }

    @Test
    void faultPayloadRoundTrips() {
        FaultPayload f = FaultPayload.of(FaultCode.LINK_DOWN, 17, 0b10, 123_456_789_000L);
        assertThat(NmpPayload.decode(NmpType.FAULT_REPORT, f.encode())).isEqualTo(f);
        assertThat(f.console()).isEqualTo("fault=link-down port=17");
        assertThat(new FaultPayload(4, FaultCode.CHIP_LEVEL_PORT, 0, 0).console()).isEqualTo("fault=over-temperature port=chip");
        assertThatThrownBy(() -> new FaultPayload(1, 24, 0, 0)).hasMessage("fault port 24 must be 0..23 or 31 (chip level)");
        assertThatThrownBy(() -> new FaultPayload(256, 0, 0, 0)).hasMessage("fault code 256 does not fit 8 bits");
    }
}
