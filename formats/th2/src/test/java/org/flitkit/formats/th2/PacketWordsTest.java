package org.flitkit.formats.th2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.flitkit.hdl.Hdl.*;

import java.util.LinkedHashMap;
import java.util.Map;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.LayoutBits;
import org.flitkit.hdl.Bits;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.HdlException;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.sim.Simulator;
import org.junit.jupiter.api.Test;

/** Hardware slicing, reserved-bit check and building with the format handles, against the software values. */
class PacketWordsTest {
    static final class Dut extends Module {
        final UInt pkt = input(UInt(Th2.PACKET_BITS));
        final UInt nmpType = output(UInt(NmpType.BITS));
        final UInt count = output(UInt(PayloadLayouts.REGISTER.COUNT.width()));
        final Bool reserved = output(Bool());
        /** the packet rebuilt from all its fields, DestID replaced by 0xBEEF */
        final UInt rebuilt = output(UInt(Th2.PACKET_BITS));

        Dut() {
            nmpType.assign(LayoutBits.get(pkt, PacketLayout.BODY1.NMP_TYPE));
            count.assign(PacketWords.payload(pkt, PayloadLayouts.REGISTER.COUNT));
            reserved.assign(LayoutBits.reservedSet(pkt, PacketLayout.PACKET));
            Map<Field, Bits> fields = new LinkedHashMap<>();
            for (Field f : PacketLayout.PACKET.fields()) {
                fields.put(f, LayoutBits.get(pkt, f));
            }
            rebuilt.assign(LayoutBits.with(LayoutBits.build(PacketLayout.PACKET, fields), PacketLayout.HEAD.DEST_ID, lit(0xBEEF, 16)));
        }
    }

    @Test
    void slicesChecksAndBuildsLikeTheSoftwareModel() {
        Simulator sim = Simulator.of(Dut::new);
        Dut d = (Dut) sim.circuit().top();
        ManagementPacket example = FormatDoc.examplePacket();
        ManagementPacket write = example.toBuilder().nmpType(NmpType.REG_WRITE_REQ)
                .payload(RegisterPayload.withData(0x12, 1L, 0x34, -1L)).build();
        for (ManagementPacket p : new ManagementPacket[] {example, write}) {
            BitVector bits = p.toBits();
            sim.poke(d.pkt, bits.toBigInteger());
            sim.step();
            assertThat(sim.peek(d.nmpType)).isEqualTo(p.nmpType().code());
            assertThat(sim.peek(d.count)).isEqualTo(((RegisterPayload) p.payload()).count());
            assertThat(sim.peek(d.reserved)).isZero();
            assertThat(sim.peekBig(d.rebuilt)).isEqualTo(bits.with(PacketLayout.HEAD.DEST_ID, 0xBEEF).toBigInteger());

            // bit 195 of the head flit is reserved: flagged, and dropped by build (reserved bits are zero)
            sim.poke(d.pkt, bits.flip(195).toBigInteger());
            sim.step();
            assertThat(sim.peek(d.reserved)).isEqualTo(1);
            assertThat(sim.peekBig(d.rebuilt)).isEqualTo(bits.with(PacketLayout.HEAD.DEST_ID, 0xBEEF).toBigInteger());
        }
    }

    @Test
    void buildRejectsAHandleOfAnotherLayout() {
        // the flit-local NMPType (bits 117:112 of body1) is not the packet's body1.NMPType (bits 315:310)
        assertThatThrownBy(() -> Simulator.of(() -> new Module() {
            final UInt out = output(UInt(Th2.PACKET_BITS));
            {
                out.assign(LayoutBits.build(PacketLayout.PACKET, Map.of(FlitLayouts.BODY1.NMP_TYPE, lit(1, NmpType.BITS))));
            }
        })).isInstanceOf(HdlException.class).hasMessageStartingWith("layout packet has no field NMPType[117:112]; fields: [head.Kind[197:196], ");
    }
}
