package org.flitkit.formats.th2;

import org.flitkit.formats.core.BitVector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ManagementDescriptorTest {

    static ManagementDescriptor.Builder sample() {
        return ManagementDescriptor.builder()
                .fen(true).lint(true).rint(true)
                .destType(ChipType.NRC).destId(0x1234).transactionId(0xBEEF).destVp(39).srcVp(8)
                .forwardRoute(RoutingField.of(3, 17, 22)).backwardRoute(RoutingField.of(0, 5, 11))
                .request(NmpType.REG_WRITE_REQ, RegisterPayload.withData(0x7ABC, 0xDEAD_BEEF_0BAD_F00DL, 0x0001, 42L));
    }

    @Test
    void roundTripsThroughBits() {
        ManagementDescriptor d = sample().build();
        BitVector bits = d.encode();
        assertThat(bits.width()).isEqualTo(512);
        assertThat(ManagementDescriptor.decode(bits)).isEqualTo(d);
        assertThat(ManagementDescriptor.decode(BitVector.fromLimbs(512, bits.limbs()))).isEqualTo(d);
    }

    @Test
    void everyRequestTypeRoundTrips() {
        NmpPayload[] payloads = {RegisterPayload.of(1, 2), RegisterPayload.withData(3, 4),
            EepromPayload.of(1, 2, 3, 4, 5, 6), new EepromPayload(java.util.List.of(9), java.util.List.of(200))};
        NmpType[] types = {NmpType.REG_READ_REQ, NmpType.REG_WRITE_REQ, NmpType.EEP_READ_REQ, NmpType.EEP_WRITE_REQ};
        for (int i = 0; i < types.length; i++) {
            ManagementDescriptor d = sample().destType(ChipType.NIC).destId(Th2.CHIP_ID_ANY)
                    .request(types[i], payloads[i]).build();
            assertThat(ManagementDescriptor.decode(d.encode())).isEqualTo(d);
        }
    }

    @Test
    void fieldsLandWhereTheTableSays() {
        BitVector bits = sample().build().encode();
        DescriptorLayout.Descriptor l = DescriptorLayout.DESCRIPTOR;
        assertThat(bits.get(l.HEAD)).isEqualTo(1);
        assertThat(bits.get(l.DEST_ID)).isEqualTo(0x1234);
        assertThat(bits.get(l.TRANSACTION_ID)).isEqualTo(0xBEEF);
        assertThat(bits.get(l.NMP_TYPE)).isEqualTo(NmpType.REG_WRITE_REQ.code());
        assertThat(bits.limbs()[0] & 0xFFFF_FFFF_0000L).isEqualTo(0xBEEF_1234_0000L);
        assertThat(RoutingField.decode(bits.slice(l.B_ROUTING_FIELD))).isEqualTo(RoutingField.of(0, 5, 11));
        assertThat(bits.limbs()[5]).isEqualTo(0xDEAD_BEEF_0BAD_F00DL);
    }

    @Test
    void badInputsAreRejected() {
        assertThatThrownBy(() -> sample().destVp(40).build()).hasMessage("DestVP 40 outside 0..39");
        assertThatThrownBy(() -> sample().transactionId(0x10000).build()).hasMessage("TransactionID 65536 outside 0..65535");
        assertThatThrownBy(() -> sample().destId(-1).build()).hasMessage("DestID -1 outside 0..65535");
        assertThatThrownBy(() -> sample().request(NmpType.REG_READ_RESP, RegisterPayload.withData(1, 2)).build())
                .hasMessage("descriptor NMPType must be a request, got REG_READ_RESP");
        assertThatThrownBy(() -> sample().destType(ChipType.NIC).request(NmpType.REG_READ_REQ, RegisterPayload.of(0x1000)).build())
                .hasMessage("register address 0x1000 too wide for NIC (12 bits, max 0xfff)");
        assertThatThrownBy(() -> sample().request(NmpType.REG_READ_REQ, null).build()).hasMessage("NMPData must not be null");
    }

    @Test
    void malformedBitsAreRejected() {
        BitVector bits = sample().build().encode();
        assertThatThrownBy(() -> ManagementDescriptor.decode(bits.flip(7)))
                .hasMessage("descriptor: reserved bits [7] must be 0");
        BitVector badType = bits.with(DescriptorLayout.DESCRIPTOR.NMP_TYPE, 0x3F);
        assertThatThrownBy(() -> ManagementDescriptor.decode(badType)).hasMessage("unknown NMPType code 0x3f");
        assertThatThrownBy(() -> ManagementDescriptor.decode(BitVector.zero(511))).hasMessage("a descriptor is 512 bits, got 511");
    }
}
