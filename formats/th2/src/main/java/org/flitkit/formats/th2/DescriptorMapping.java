package org.flitkit.formats.th2;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the NIC's MP send unit turns a 512-bit descriptor into a request packet: which
 * descriptor field is copied into which packet field, which stay behind, which the NIC fills.
 * Spec: shared/spec/20-th2-management.md, "Management packets and descriptors" and NIC flow (1).
 */
public final class DescriptorMapping {

    /** One copy: descriptor field to packet field, same width. */
    public record Entry(String descriptorField, String packetField) {
    }

    public static final List<Entry> COPIED = List.of(
            new Entry("DestID", "head.DestID"),
            new Entry("DestVP", "head.DestVP"),
            new Entry("SrcVP", "head.SrcVP"),
            new Entry("DestType", "head.DestType"),
            new Entry("RtType", "head.RtType"),
            new Entry("Type", "head.Type"),
            new Entry("SM", "head.SM"),
            new Entry("Inst", "head.Inst"),
            new Entry("Rint", "head.Rint"),
            new Entry("FRoutingField", "head.Route"),
            new Entry("BRoutingField", "body1.ReturnRoute"),
            new Entry("TransactionID", "body1.TransactionID"),
            new Entry("NMPType", "body1.NMPType"),
            new Entry("NMPData", "body2.NMPData"));

    /** Descriptor fields the NIC consumes itself; they do not travel. */
    public static final Map<String, String> NOT_SENT = ordered(
            "Head", "checked by the NIC: 0 = not a descriptor",
            "Fen", "ordering at the source NIC only",
            "Err", "set by the source NIC; a descriptor with Err is not sent",
            "Lint", "completion interrupt at the source NIC only");

    /** Packet fields the NIC fills in itself. */
    public static final Map<String, String> NIC_FILLED = ordered(
            "head.HopPtr", "0",
            "head.VC", "3",
            "head.Len", "4",
            "head.SrcType", "0 (NIC)",
            "head.SrcID", "the sending NIC's own chip ID",
            "head.Kind", "2 (head)",
            "body1.Kind", "0 (body)",
            "body2.Kind", "0 (body)",
            "tail.Kind", "1 (tail)",
            "tail.CRC", "CRC-32C, computed last");

    static {
        validate();
    }

    private DescriptorMapping() {
    }

    /** The request packet bits (CRC included) for a descriptor, as the NIC builds them. */
    public static BitVector requestBits(BitVector descriptor, int srcChipId) {
        if (descriptor.width() != Th2.DESCRIPTOR_BITS) {
            throw new IllegalArgumentException("a descriptor is " + Th2.DESCRIPTOR_BITS + " bits, got " + descriptor.width());
        }
        BitVector p = PacketLayout.withFraming(PacketLayout.PACKET.zero());
        for (Entry e : COPIED) {
            p = p.with(PacketLayout.PACKET.field(e.packetField()),
                    descriptor.slice(DescriptorLayout.DESCRIPTOR.field(e.descriptorField())));
        }
        p = p.with(PacketLayout.PACKET.field("head.SrcType"), ChipType.NIC.code())
                .with(PacketLayout.PACKET.field("head.SrcID"), srcChipId);
        return PacketLayout.withCrc(p);
    }

    private static void validate() {
        Set<String> descriptorSeen = new HashSet<>(NOT_SENT.keySet());
        Set<String> packetSeen = new HashSet<>(NIC_FILLED.keySet());
        for (Entry e : COPIED) {
            Field d = DescriptorLayout.DESCRIPTOR.field(e.descriptorField());
            Field p = PacketLayout.PACKET.field(e.packetField());
            if (d.width() != p.width()) {
                throw new IllegalStateException("mapping " + e + ": widths differ (" + d.width() + " vs " + p.width() + ")");
            }
            if (!descriptorSeen.add(e.descriptorField()) || !packetSeen.add(e.packetField())) {
                throw new IllegalStateException("mapping " + e + ": field mapped twice");
            }
        }
        for (Field f : DescriptorLayout.DESCRIPTOR.fields()) {
            if (!descriptorSeen.contains(f.name())) {
                throw new IllegalStateException("descriptor field " + f.name() + " is neither copied nor listed as not sent");
            }
        }
        for (Field f : PacketLayout.PACKET.fields()) {
            if (!packetSeen.contains(f.name())) {
                throw new IllegalStateException("packet field " + f.name() + " is neither copied nor filled by the NIC");
            }
        }
        for (String name : NIC_FILLED.keySet()) {
            PacketLayout.PACKET.field(name);
        }
    }

    private static Map<String, String> ordered(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }
}
