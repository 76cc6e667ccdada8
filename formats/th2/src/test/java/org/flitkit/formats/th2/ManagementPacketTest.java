package org.flitkit.formats.th2;

import org.flitkit.formats.core.BitVector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManagementPacketTest {

    private static final int SERVER_NIC = 0x0042;

    static ManagementPacket request() {
        return ManagementPacket.fromDescriptor(ManagementDescriptorTest.sample().build(), SERVER_NIC);
    }

    static List<ManagementPacket> oneOfEachType() {
        ManagementPacket req = request();
        ManagementPacket eep = req.toBuilder().nmpType(NmpType.EEP_READ_REQ).payload(EepromPayload.of(1, 2, 3)).build();
        return List.of(
                req,
                req.toBuilder().nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(0x7FFF)).build(),
                req.response(0x1234, RegisterPayload.of(0x7ABC, 1)),
                req.toBuilder().nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(5, 6)).build()
                        .response(0x1234, RegisterPayload.withData(5, -1L, 6, 7L)),
                req.errorResponse(0x1234, ErrorCode.READ_ONLY, 0),
                eep,
                eep.response(0x1234, EepromPayload.of(1, 2, 3).answeredWith(List.of(9, 8, 7))),
                eep.toBuilder().nmpType(NmpType.EEP_WRITE_REQ).payload(new EepromPayload(List.of(4), List.of(0xFF))).build(),
                eep.toBuilder().nmpType(NmpType.EEP_WRITE_REQ).payload(new EepromPayload(List.of(4), List.of(0xFF))).build()
                        .response(0x1234, EepromPayload.of(4)),
                eep.errorResponse(0x1234, ErrorCode.EEPROM_NACK, 2),
                ManagementPacket.builder().srcType(ChipType.NRC).srcId(0x0777).destType(ChipType.NIC).destId(SERVER_NIC)
                        .route(RoutingField.of(1, 2)).destVp(3).transactionId(17)
                        .nmpType(NmpType.FAULT_REPORT).payload(FaultPayload.of(FaultCode.LINK_DOWN, 5, 1L << 1, 99L)).build());
    }

    @Test
    void descriptorFieldsLandInThePacket() {
        ManagementDescriptor d = ManagementDescriptorTest.sample().build();
        ManagementPacket p = ManagementPacket.fromDescriptor(d, SERVER_NIC);
        assertThat(p.route()).isEqualTo(d.forwardRoute());
        assertThat(p.returnRoute()).isEqualTo(d.backwardRoute());
        assertThat(p.destId()).isEqualTo(0x1234);
        assertThat(p.destType()).isEqualTo(ChipType.NRC);
        assertThat(p.srcType()).isEqualTo(ChipType.NIC);
        assertThat(p.srcId()).isEqualTo(SERVER_NIC);
        assertThat(p.destVp()).isEqualTo(39);
        assertThat(p.srcVp()).isEqualTo(8);
        assertThat(p.rint()).isTrue();
        assertThat(p.transactionId()).isEqualTo(0xBEEF);
        assertThat(p.nmpType()).isEqualTo(NmpType.REG_WRITE_REQ);
        assertThat(p.payload()).isEqualTo(d.payload());
        assertThat(p.hopPtr()).isZero();
        BitVector bits = p.toBits();
        assertThat(bits.get(PacketLayout.HEAD.VC)).isEqualTo(3);
        assertThat(bits.get(PacketLayout.HEAD.LEN)).isEqualTo(4);
        assertThat(bits.slice(PacketLayout.BODY2.NMP_DATA)).isEqualTo(d.encode().slice(DescriptorLayout.DESCRIPTOR.NMP_DATA));
        assertThat(DescriptorMapping.requestBits(d.encode(), SERVER_NIC)).isEqualTo(bits);
    }

    @Test
    void everyTypeRoundTripsThroughFourFlits() {
        for (ManagementPacket p : oneOfEachType()) {
            List<BitVector> flits = p.toFlits();
            assertThat(flits).hasSize(4).allSatisfy(f -> assertThat(f.width()).isEqualTo(198));
            assertThat(ManagementPacket.parse(flits)).as(p.nmpType().toString()).isEqualTo(p);
            assertThat(ManagementPacket.parse(p.toBits())).isEqualTo(p);
        }
        assertThat(oneOfEachType()).extracting(ManagementPacket::nmpType).containsExactlyInAnyOrder(NmpType.values());
    }

    @Test
    void flitKindsMarkHeadAndTail() {
        List<BitVector> flits = request().toFlits();
        for (int i = 0; i < 4; i++) {
            assertThat(flits.get(i).get(FlitLayouts.FLITS.get(i).KIND)).isEqualTo((long) FlitLayouts.KINDS.get(i));
        }
        assertThat(flits.get(0).get(FlitLayouts.HEAD.VC)).isEqualTo(3);
    }

    @Test
    void responseSwapsRoutesAndEchoesTheTransaction() {
        ManagementPacket req = request();
        ManagementPacket resp = req.response(0x1234, ((RegisterPayload) req.payload()).withoutData());
        assertThat(resp.nmpType()).isEqualTo(NmpType.REG_WRITE_RESP);
        assertThat(resp.transactionId()).isEqualTo(req.transactionId());
        assertThat(resp.route()).isEqualTo(req.returnRoute());
        assertThat(resp.returnRoute()).isEqualTo(req.route());
        assertThat(resp.hopPtr()).isZero();
        assertThat(resp.destId()).isEqualTo(SERVER_NIC);
        assertThat(resp.destType()).isEqualTo(ChipType.NIC);
        assertThat(resp.srcId()).isEqualTo(0x1234);
        assertThat(resp.srcType()).isEqualTo(ChipType.NRC);
        assertThat(resp.destVp()).isEqualTo(req.destVp());
        assertThatThrownBy(() -> resp.response(1, RegisterPayload.of(1))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void errorResponseFromRawRequestBits() {
        BitVector bad = request().toBits().with(PacketLayout.BODY2.NMP_DATA,
                RegisterPayload.of(1).encode().with(PayloadLayouts.REGISTER.COUNT, 3));
        BitVector withCrc = PacketLayout.withCrc(bad);
        assertThatThrownBy(() -> ManagementPacket.parse(withCrc)).hasMessage("bad register count 3 (must be 1 or 2)");
        ManagementPacket err = ManagementPacket.errorResponseTo(withCrc, ChipType.NRC, 0x1234, ErrorCode.BAD_COUNT,
                PayloadLayouts.WHOLE_REQUEST);
        assertThat(err.nmpType()).isEqualTo(NmpType.REG_ERROR_RESP);
        assertThat(err.transactionId()).isEqualTo(0xBEEF);
        ErrorPayload ep = (ErrorPayload) err.payload();
        assertThat(ep.error()).isEqualTo(ErrorCode.BAD_COUNT);
        assertThat(ep.requestType()).isEqualTo(NmpType.REG_WRITE_REQ.code());
        assertThat(ep.echo()).isEqualTo(withCrc.slice(PacketLayout.BODY2.NMP_DATA).slice(0, 163));
        assertThat(ManagementPacket.parse(err.toBits())).isEqualTo(err);
    }

    @Test
    void crcDetectsEverySingleBitFlipInCoveredFields() {
        for (ManagementPacket p : oneOfEachType()) {
            BitVector good = p.toBits();
            int detected = 0;
            for (int bit = 0; bit < 792; bit++) {
                if (inExcluded(bit)) {
                    continue;
                }
                BitVector flipped = good.flip(bit);
                assertThat(PacketLayout.crcMatches(flipped)).as("bit %d", bit).isFalse();
                detected++;
            }
            assertThat(detected).isEqualTo(792 - 5 - 32);
        }
        final BitVector flipped = request().toBits().flip(300);
        assertThatThrownBy(() -> ManagementPacket.parse(flipped)).hasMessageStartingWith("CRC mismatch: packet carries 0x");
    }

    @Test
    void hopPointerIsOutsideTheCrcSoRoutersNeedNotRecomputeIt() {
        ManagementPacket p = request();
        ManagementPacket moved = p.advance();
        assertThat(moved.hopPtr()).isEqualTo(1);
        assertThat(moved.toBits().get(PacketLayout.CRC)).isEqualTo(p.toBits().get(PacketLayout.CRC));
        BitVector patched = p.toBits().with(PacketLayout.HOP_PTR, 1);
        assertThat(ManagementPacket.parse(patched)).isEqualTo(moved);
    }

    @Test
    void walkingTheRouteVisitsEachHop() {
        ManagementPacket p = request();
        List<Integer> ports = new ArrayList<>();
        while (!p.arrived()) {
            ports.add(p.currentHop());
            p = p.advance();
        }
        assertThat(ports).containsExactly(3, 17, 22);
        ManagementPacket done = p;
        assertThatThrownBy(done::currentHop).hasMessageContaining("packet has arrived");
        assertThat(done.acceptedBy(0x1234)).isTrue();
        assertThat(done.acceptedBy(0x1235)).isFalse();
        assertThat(done.toBuilder().destId(Th2.CHIP_ID_ANY).build().acceptedBy(0x1235)).isTrue();
    }

    @Test
    void headerChecksRejectForeignPackets() {
        BitVector good = request().toBits();
        assertThatThrownBy(() -> ManagementPacket.parse(PacketLayout.withCrc(good.with(PacketLayout.HEAD.VC, 2))))
                .hasMessage("not a management packet: management packets use VC3; head.VC = 2, expected 3");
        assertThatThrownBy(() -> ManagementPacket.parse(PacketLayout.withCrc(good.with(PacketLayout.HEAD.LEN, 5))))
                .hasMessage("management packets are 4 flits; head.Len = 5, expected 4");
        assertThatThrownBy(() -> ManagementPacket.parse(PacketLayout.withCrc(good.with(PacketLayout.TAIL.KIND, 0))))
                .hasMessage("flit 3 (tail) kind tail.Kind = 0, expected 1");
        assertThatThrownBy(() -> ManagementPacket.parse(PacketLayout.withCrc(good.flip(195))))
                .hasMessage("packet: reserved bits [195:175] must be 0");
        assertThatThrownBy(() -> ManagementPacket.parse(good.with(PacketLayout.HOP_PTR, 4)))
                .hasMessage("HopPtr 4 outside 0..3");
        assertThatThrownBy(() -> ManagementPacket.parse(good.slice(0, 791))).hasMessage("a management packet is 792 bits, got 791");
        assertThatThrownBy(() -> ManagementPacket.parse(List.of(good.slice(0, 198))))
                .hasMessage("a management packet is 4 flits, got 1");
    }

    @Test
    void builderRejectsBadFields() {
        ManagementPacket.Builder b = request().toBuilder();
        assertThatThrownBy(() -> b.srcVp(40).build()).hasMessage("SrcVP 40 outside 0..39");
        assertThatThrownBy(() -> request().toBuilder().srcId(0x10000).build()).hasMessage("SrcID 65536 outside 0..65535");
        assertThatThrownBy(() -> request().toBuilder().destType(ChipType.NIC).build())
                .hasMessage("register address 0x7abc too wide for NIC (12 bits, max 0xfff)");
        assertThatThrownBy(() -> ManagementPacket.fromDescriptor(ManagementDescriptorTest.sample().head(false).build(), 1))
                .hasMessage("descriptor Head is 0: not a descriptor");
    }

    /** Freezes the wire format: any change to a layout, a code or the CRC shows up here. */
    @Test
    void knownAnswerPacket() {
        ManagementPacket p = FormatDoc.examplePacket();
        assertThat(p).isEqualTo(ManagementPacket.builder()
                .route(RoutingField.of(1, 2)).returnRoute(RoutingField.of(3, 4))
                .destType(ChipType.NRC).destId(0x0102).srcType(ChipType.NIC).srcId(0x0304)
                .destVp(5).srcVp(6).transactionId(0x0708)
                .nmpType(NmpType.REG_READ_REQ).payload(RegisterPayload.of(0x0123)).build());
        assertThat(p.toBits().toHex()).isEqualTo(GOLDEN);
    }

    /** Cross-checked against an independent Python build of the tables and CRC-32C. */
    static final String GOLDEN = "400000000000000000000000000000000000000002f0782fc80000000010000012300000000000000000000000000000000"
            + "000000000000001c200020000000000000000000000000418a0000021850304010211234000000000000000000000000822";

    private static boolean inExcluded(int bit) {
        return PacketLayout.CRC_EXCLUDED.stream().anyMatch(f -> bit >= f.lsb() && bit <= f.msb());
    }
}
