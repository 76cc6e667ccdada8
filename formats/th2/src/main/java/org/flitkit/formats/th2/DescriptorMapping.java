package org.flitkit.formats.th2;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;

/**
 * How the NIC's MP send unit turns a 512-bit descriptor into a request packet: which
 * descriptor field is copied into which packet field, which stay behind, which the NIC fills.
 * Spec: the TH-2 management spec, "Management packets and descriptors" and NIC flow (1).
 */
public final class DescriptorMapping {

    private static final DescriptorLayout.Descriptor D = DescriptorLayout.DESCRIPTOR;
    private static final FlitLayouts.Head HEAD = PacketLayout.HEAD;
    private static final FlitLayouts.Body1 BODY1 = PacketLayout.BODY1;

    /** One copy: descriptor field to packet field, same width. */
    public record Entry(Field descriptorField, Field packetField) {
    }

    public static final List<Entry> COPIED = List.of(
            new Entry(D.DEST_ID, HEAD.DEST_ID),
            new Entry(D.DEST_VP, HEAD.DEST_VP),
            new Entry(D.SRC_VP, HEAD.SRC_VP),
            new Entry(D.DEST_TYPE, HEAD.DEST_TYPE),
            new Entry(D.RT_TYPE, HEAD.RT_TYPE),
            new Entry(D.TYPE, HEAD.TYPE),
            new Entry(D.SM, HEAD.SM),
            new Entry(D.INST, HEAD.INST),
            new Entry(D.RINT, HEAD.RINT),
            new Entry(D.F_ROUTING_FIELD, HEAD.ROUTE),
            new Entry(D.B_ROUTING_FIELD, BODY1.RETURN_ROUTE),
            new Entry(D.TRANSACTION_ID, BODY1.TRANSACTION_ID),
            new Entry(D.NMP_TYPE, BODY1.NMP_TYPE),
            new Entry(D.NMP_DATA, PacketLayout.BODY2.NMP_DATA));

    /** Descriptor fields the NIC consumes itself; they do not travel. */
    public static final Map<Field, String> NOT_SENT = ordered(
            Map.entry(D.HEAD, "checked by the NIC: 0 = not a descriptor"),
            Map.entry(D.FEN, "ordering at the source NIC only"),
            Map.entry(D.ERR, "set by the source NIC; a descriptor with Err is not sent"),
            Map.entry(D.LINT, "completion interrupt at the source NIC only"));

    /** Packet fields the NIC fills in itself. */
    public static final Map<Field, String> NIC_FILLED = ordered(
            Map.entry(HEAD.HOP_PTR, "0"),
            Map.entry(HEAD.VC, "3"),
            Map.entry(HEAD.LEN, "4"),
            Map.entry(HEAD.SRC_TYPE, "0 (NIC)"),
            Map.entry(HEAD.SRC_ID, "the sending NIC's own chip ID"),
            Map.entry(HEAD.KIND, "2 (head)"),
            Map.entry(BODY1.KIND, "0 (body)"),
            Map.entry(PacketLayout.BODY2.KIND, "0 (body)"),
            Map.entry(PacketLayout.TAIL.KIND, "1 (tail)"),
            Map.entry(PacketLayout.TAIL.CRC, "CRC-32C, computed last"));

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
            p = p.with(e.packetField(), descriptor.slice(e.descriptorField()));
        }
        p = p.with(HEAD.SRC_TYPE, ChipType.NIC.code()).with(HEAD.SRC_ID, srcChipId);
        return PacketLayout.withCrc(p);
    }

    /**
     * The descriptor that makes the NIC build {@code packet} (the inverse of {@link #requestBits}): every copied
     * field taken back from the packet, Head set, Fen/Err/Lint clear, SrcVP and DestVP set to {@code vp}.
     */
    public static BitVector descriptorFor(BitVector packet, int vp) {
        if (packet.width() != Th2.PACKET_BITS) {
            throw new IllegalArgumentException("a packet is " + Th2.PACKET_BITS + " bits, got " + packet.width());
        }
        Checks.vp("VP", vp);
        BitVector desc = D.zero().with(D.HEAD, 1);
        for (Entry e : COPIED) {
            desc = desc.with(e.descriptorField(), packet.slice(e.packetField()));
        }
        return desc.with(D.SRC_VP, vp).with(D.DEST_VP, vp);
    }

    /** Every descriptor field is copied or not sent, every packet field copied or NIC-filled, each once. */
    private static void validate() {
        Set<Field> descriptorSeen = new HashSet<>(NOT_SENT.keySet());
        Set<Field> packetSeen = new HashSet<>(NIC_FILLED.keySet());
        for (Entry e : COPIED) {
            if (e.descriptorField().width() != e.packetField().width()) {
                throw new IllegalStateException("mapping " + e + ": widths differ (" + e.descriptorField().width()
                        + " vs " + e.packetField().width() + ")");
            }
            if (!descriptorSeen.add(e.descriptorField()) || !packetSeen.add(e.packetField())) {
                throw new IllegalStateException("mapping " + e + ": field mapped twice");
            }
        }
        if (!descriptorSeen.equals(Set.copyOf(D.fields()))) {
            throw new IllegalStateException("descriptor fields neither copied nor listed as not sent: "
                    + missing(D.fields(), descriptorSeen));
        }
        if (!packetSeen.equals(Set.copyOf(PacketLayout.PACKET.fields()))) {
            throw new IllegalStateException("packet fields neither copied nor filled by the NIC: "
                    + missing(PacketLayout.PACKET.fields(), packetSeen));
        }
    }

    private static List<Field> missing(List<Field> all, Set<Field> seen) {
        return all.stream().filter(f -> !seen.contains(f)).toList();
    }

    @SafeVarargs
    private static Map<Field, String> ordered(Map.Entry<Field, String>... entries) {
        Map<Field, String> m = new LinkedHashMap<>();
        for (Map.Entry<Field, String> e : entries) {
            m.put(e.getKey(), e.getValue());
        }
        return Collections.unmodifiableMap(m);
    }
}
