package org.flitkit.rtl.mnc;

import static org.flitkit.hdl.Hdl.*;
import static org.flitkit.rtl.mnc.MncParams.*;

import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;

/**
 * The bundles of an MNC node: the host's send request, the packet header on the links (data, SReq, SAck),
 * the SDMA job a chunk becomes, the PCI bus request of a NIC and the host event. Multi-rail paper, sections
 * 2.1.2 (the four engines), 2.3.2 (SReq/SAck) and 2.4 (chunks); field meanings in docs/mnc.md, "Interfaces".
 */
public final class MncPorts {
    /** Packet kinds on the links. */
    public static final int KIND_DATA = 0;
    public static final int KIND_SREQ = 1;
    public static final int KIND_SACK = 2;

    private MncPorts() {
    }

    /** A send posted by the host library: {@code len} bytes at {@code srcAddr} to {@code dstAddr} of {@code dstNode}. */
    public static final class SendRequest extends Bundle {
        public final UInt dstNode = UInt(NODE_BITS);
        public final UInt flow = UInt(FLOW_BITS);
        public final UInt seq = UInt(SEQ_BITS);
        public final UInt srcAddr = UInt(ADDR_BITS);
        public final UInt dstAddr = UInt(ADDR_BITS);
        /** bytes, at least 1 */
        public final UInt len = UInt(LEN_BITS);
    }

    /** A packet header as the links carry it; {@code addr}/{@code len}/{@code last} for data, {@code status} in a SAck. */
    public static final class Header extends Bundle {
        public final UInt kind = UInt(2);
        public final UInt srcNode = UInt(NODE_BITS);
        public final UInt srcRail = UInt(RAIL_BITS);
        public final UInt dstNode = UInt(NODE_BITS);
        public final UInt dstRail = UInt(RAIL_BITS);
        public final UInt flow = UInt(FLOW_BITS);
        public final UInt seq = UInt(SEQ_BITS);
        /** chunks of the message (1..4) */
        public final UInt nchunks = UInt(CHUNK_BITS);
        /** last packet of its chunk */
        public final Bool last = Bool();
        /** host address at the destination where this packet's payload goes */
        public final UInt addr = UInt(ADDR_BITS);
        /** payload bytes (0 for SReq/SAck) */
        public final UInt len = UInt(PLEN_BITS);
        /** SAck: the sender's link states, bit r set = rail r BUSY */
        public final UInt status = UInt(4);
    }

    /** A header with the NIC SRAM buffer holding its payload. */
    public static final class Packet extends Bundle {
        public final Header hdr = new Header();
        public final UInt slot = UInt(SLOT_BITS);
    }

    /** One chunk for a NIC's SDMA engine: host bytes at {@code srcAddr} to {@code dstAddr} on rail {@code dstRail} of {@code dstNode}. */
    public static final class SdmaJob extends Bundle {
        public final UInt dstNode = UInt(NODE_BITS);
        public final UInt dstRail = UInt(RAIL_BITS);
        public final UInt flow = UInt(FLOW_BITS);
        public final UInt seq = UInt(SEQ_BITS);
        public final UInt nchunks = UInt(CHUNK_BITS);
        public final UInt srcAddr = UInt(ADDR_BITS);
        public final UInt dstAddr = UInt(ADDR_BITS);
        public final UInt len = UInt(LEN_BITS);
    }

    /** A PCI DMA of a NIC: read ({@code write} 0) host bytes into send buffer {@code slot}, or write receive buffer {@code slot} to the host. */
    public static final class BusRequest extends Bundle {
        public final Bool write = Bool();
        public final UInt slot = UInt(SLOT_BITS);
        public final UInt addr = UInt(ADDR_BITS);
        public final UInt len = UInt(PLEN_BITS);
    }

    /** A host event: a chunk sent ({@code send} 1, {@code node} the destination) or received ({@code node} the source). */
    public static final class Event extends Bundle {
        public final Bool send = Bool();
        public final UInt node = UInt(NODE_BITS);
        public final UInt flow = UInt(FLOW_BITS);
        public final UInt seq = UInt(SEQ_BITS);
        public final UInt nchunks = UInt(CHUNK_BITS);
    }
}
