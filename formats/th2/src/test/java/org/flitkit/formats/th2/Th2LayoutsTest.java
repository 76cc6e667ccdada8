package org.flitkit.formats.th2;

import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.BitVector;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The concrete layouts: sizes, placement and the spec's field list. */
class Th2LayoutsTest {

    @Test
    void layoutsHaveTheirSpecSizes() {
        assertThat(FlitLayouts.ROUTE.width()).isEqualTo(105);
        assertThat(FlitLayouts.ROUTE.fields()).hasSize(21);
        assertThat(FlitLayouts.FLITS).allSatisfy(f -> assertThat(f.width()).isEqualTo(198));
        assertThat(PacketLayout.PACKET.width()).isEqualTo(792).isEqualTo(4 * 198);
        assertThat(DescriptorLayout.DESCRIPTOR.width()).isEqualTo(512);
        assertThat(PayloadLayouts.ALL).allSatisfy(p -> assertThat(p.width()).isEqualTo(192));
    }

    @Test
    void descriptorHasEveryFieldOfTheSpec() {
        List<String> spec = List.of("DestID", "DestVP", "SrcVP", "DestType", "RtType", "Fen", "Err", "Type", "SM",
                "Inst", "Lint", "Rint", "Head", "TransactionID", "FRoutingField", "BRoutingField", "NMPType", "NMPData");
        assertThat(DescriptorLayout.DESCRIPTOR.fields()).extracting(Field::name).containsExactlyInAnyOrderElementsOf(spec);
        assertThat(DescriptorLayout.DESCRIPTOR.TRANSACTION_ID.width()).isEqualTo(16);
        assertThat(DescriptorLayout.DESCRIPTOR.NMP_TYPE.width()).isEqualTo(6);
        assertThat(DescriptorLayout.DESCRIPTOR.F_ROUTING_FIELD.width()).isEqualTo(105);
    }

    @Test
    void noPacketFieldStraddlesAFlit() {
        for (Field f : PacketLayout.PACKET.fields()) {
            assertThat(f.lsb() / 198).as(f.name()).isEqualTo(f.msb() / 198);
        }
    }

    @Test
    void headFlitCarriesVcLengthAndHopPointerAndTailTheCrc() {
        assertThat(PacketLayout.HEAD.VC.lsb()).isLessThan(198);
        assertThat(PacketLayout.HEAD.LEN.lsb()).isLessThan(198);
        assertThat(PacketLayout.HOP_PTR.lsb()).isLessThan(198);
        assertThat(PacketLayout.CRC.lsb()).isGreaterThanOrEqualTo(3 * 198);
        assertThat(PacketLayout.CRC.width()).isEqualTo(32);
    }

    @Test
    void relayStationMovesAFlitInTenBeats() {
        BitVector flit = BitVector.zero(198).flip(0).flip(197);
        List<BitVector> beats = PacketLayout.toRsBeats(flit);
        assertThat(beats).hasSize(10).allSatisfy(b -> assertThat(b.width()).isEqualTo(20));
        assertThat(beats.get(0).bit(0)).isTrue();
        assertThat(beats.get(9).bit(17)).isTrue();
        assertThat(BitVector.concat(beats).slice(0, 198)).isEqualTo(flit);
    }
}
