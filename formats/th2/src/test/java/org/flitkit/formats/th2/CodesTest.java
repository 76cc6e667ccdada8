package org.flitkit.formats.th2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** NMPType, ErrorCode, FaultCode and ChipType code tables. */
class CodesTest {

    @Test
    void elevenDistinctSixBitNmpTypes() {
        assertThat(NmpType.values()).hasSize(11);
        assertThat(Arrays.stream(NmpType.values()).map(NmpType::code)).doesNotHaveDuplicates()
                .allSatisfy(c -> assertThat(c).isBetween(1, 63));
        for (NmpType t : NmpType.values()) {
            assertThat(NmpType.fromCode(t.code())).isSameAs(t);
        }
        assertThatThrownBy(() -> NmpType.fromCode(0)).hasMessage("unknown NMPType code 0x0");
    }

    @Test
    void fiveRegisterFiveEepromOneFault() {
        assertThat(Arrays.stream(NmpType.values()).filter(t -> t.target() == NmpType.Target.REGISTER)).hasSize(5);
        assertThat(Arrays.stream(NmpType.values()).filter(t -> t.target() == NmpType.Target.EEPROM)).hasSize(5);
        assertThat(Arrays.stream(NmpType.values()).filter(t -> t.target() == NmpType.Target.FAULT))
                .containsExactly(NmpType.FAULT_REPORT);
    }

    @Test
    void requestsMapToTheirResponses() {
        assertThat(NmpType.REG_READ_REQ.responseType()).isEqualTo(NmpType.REG_READ_RESP);
        assertThat(NmpType.REG_WRITE_REQ.responseType()).isEqualTo(NmpType.REG_WRITE_RESP);
        assertThat(NmpType.EEP_READ_REQ.responseType()).isEqualTo(NmpType.EEP_READ_RESP);
        assertThat(NmpType.EEP_WRITE_REQ.responseType()).isEqualTo(NmpType.EEP_WRITE_RESP);
        assertThat(NmpType.REG_WRITE_REQ.errorType()).isEqualTo(NmpType.REG_ERROR_RESP);
        assertThat(NmpType.EEP_READ_REQ.errorType()).isEqualTo(NmpType.EEP_ERROR_RESP);
        assertThat(Arrays.stream(NmpType.values()).filter(NmpType::isRequest)).hasSize(4);
        assertThat(Arrays.stream(NmpType.values()).filter(NmpType::isResponse)).hasSize(6);
        assertThat(NmpType.FAULT_REPORT.isRequest()).isFalse();
        assertThat(NmpType.FAULT_REPORT.isResponse()).isFalse();
        assertThatThrownBy(NmpType.REG_READ_RESP::responseType).isInstanceOf(IllegalStateException.class);
        assertThat(NmpType.errorTypeForRaw(0x15)).isEqualTo(NmpType.EEP_ERROR_RESP);
        assertThat(NmpType.errorTypeForRaw(0x3E)).isEqualTo(NmpType.REG_ERROR_RESP);
    }

    @Test
    void errorCodesAreDistinctWithConsoleReasons() {
        assertThat(Arrays.stream(ErrorCode.values()).map(ErrorCode::code)).doesNotHaveDuplicates()
                .allSatisfy(c -> assertThat(c).isBetween(1, 255));
        assertThat(Arrays.stream(ErrorCode.values()).map(ErrorCode::reason)).doesNotHaveDuplicates()
                .allSatisfy(r -> assertThat(r).matches("[a-z0-9]+(-[a-z0-9]+)*"));
        assertThat(ErrorCode.UNMAPPED_ADDRESS.console()).isEqualTo("reason=unmapped-address");
        assertThat(ErrorCode.fromCode(ErrorCode.EEPROM_NACK.code())).isEqualTo(ErrorCode.EEPROM_NACK);
        assertThatThrownBy(() -> ErrorCode.fromCode(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void faultCodesFitTheMaskRegister() {
        assertThat(Arrays.stream(FaultCode.values()).map(FaultCode::code)).doesNotHaveDuplicates()
                .allSatisfy(c -> assertThat(c).isBetween(0, FaultCode.MASKABLE - 1));
        assertThat(FaultCode.console(1)).isEqualTo("fault=link-down");
        assertThat(FaultCode.console(0x2a)).isEqualTo("fault=0x2a");
    }

    @Test
    void chipTypes() {
        assertThat(ChipType.NIC.maxRegisterAddress()).isEqualTo(0xFFF);
        assertThat(ChipType.NRC.maxRegisterAddress()).isEqualTo(0x7FFF);
        assertThatThrownBy(() -> ChipType.fromCode(2)).hasMessageContaining("unknown chip type code 2");
    }
}
