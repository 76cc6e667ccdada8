package org.flitkit.env.nic.mgmt;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.env.nic.host.MgmtRequest;
import org.flitkit.rtl.nma.NmaRegisters;
import org.flitkit.rtl.nrc.NrcRegisters;

/**
 * The status scan (spec 20-th2-management.md, function 2): every port's status registers of every NRC discovery
 * found, read by register requests. The paper's scan reads 10 registers of each of 24 ports in M = 120 requests per
 * NRC, two registers per request ({@code perRequest} 2; 1 reads one per packet); a full scan adds the die temperature.
 * Single, cyclic (rounds at an
 * interval) and compare (the difference between two scans) modes are built on {@link #scan}.
 */
public final class StatusScan {
    /** The 10 port registers a scan reads, as the paper counts them. */
    public static final List<String> REGISTERS = List.of(NmaRegisters.PORT_NEIGHBOUR, NmaRegisters.PORT_LINK_STATUS,
            NmaRegisters.PORT_RETRY_COUNT, NmaRegisters.PORT_HANDSHAKE_COUNT, NmaRegisters.PORT_FRAMES_SENT, NmaRegisters.PORT_CRC_ERRORS,
            NmaRegisters.PORT_LINK_DOWNS, NmaRegisters.PORT_REPLAYS, NmaRegisters.PORT_FLITS_RECEIVED, NmaRegisters.PORT_PROTOCOL_ERRORS);

    /** The chip's own registers a full scan reads after the ports' (the paper monitors the temperature). */
    public static final List<String> CHIP_REGISTERS = List.of(NrcRegisters.TEMPERATURE);

    /** One register of one chip: its name and the value read (null: the request failed, with why). */
    public record Reading(int chipId, String register, Long value, String failure) {
    }

    /** One whole scan: every reading keyed by chip and register, what it cost. */
    public record Snapshot(long startCycle, long cycles, long requests, long failures, Map<String, Reading> readings) {
        static String key(int chipId, String register) {
            return String.format("0x%04x %s", chipId, register);
        }
    }

    /** A register whose value differs between two scans (a missing reading is null). */
    public record Change(int chipId, String register, Long before, Long after) {
        @Override
        public String toString() {
            return String.format("NRC 0x%04x %s: %s -> %s", chipId, register, hex(before), hex(after));
        }

        private static String hex(Long v) {
            return v == null ? "no answer" : "0x" + Long.toHexString(v);
        }
    }

    private final RequestPipe pipe;
    private final int perRequest;
    private final boolean chipRegisters;

    /** {@code chipRegisters}: the {@link #CHIP_REGISTERS} too (false: the paper's scan, port registers only). */
    public StatusScan(RequestPipe pipe, int perRequest, boolean chipRegisters) {
        if (perRequest < 1 || perRequest > 2) {
            throw new IllegalArgumentException("a register request reads 1 or 2 registers, got " + perRequest);
        }
        this.pipe = pipe;
        this.perRequest = perRequest;
        this.chipRegisters = chipRegisters;
    }

    /** Reads every scanned register of every NRC in {@code nrcs} once. */
    public Snapshot scan(List<Discovery.FoundNrc> nrcs, org.flitkit.fabric.Fabric fabric) {
        long start = fabric.now();
        long sent0 = pipe.sent();
        long failed0 = pipe.failures();
        Map<String, Reading> readings = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (int p = 0; p < org.flitkit.formats.th2.Th2.NRC_PORTS; p++) {
            for (String r : REGISTERS) {
                names.add(NmaRegisters.portReg(p, r));
            }
        }
        if (chipRegisters) {
            names.addAll(CHIP_REGISTERS);
        }
        for (Discovery.FoundNrc n : nrcs) {
            for (int i = 0; i < names.size(); i += perRequest) {
                List<String> batch = names.subList(i, Math.min(names.size(), i + perRequest));
                List<Integer> addrs = batch.stream().map(NrcRegisters::address).toList();
                pipe.submit(MgmtRequest.readRegisters(n.target(), addrs), d -> {
                    List<Long> v = Discovery.values(d.result());
                    for (int k = 0; k < batch.size(); k++) {
                        Reading r = v == null ? new Reading(n.chipId(), batch.get(k), null, Discovery.describe(d.result()))
                                : new Reading(n.chipId(), batch.get(k), v.get(k), null);
                        readings.put(Snapshot.key(n.chipId(), batch.get(k)), r);
                    }
                });
            }
        }
        pipe.drain();
        return new Snapshot(start, fabric.now() - start, pipe.sent() - sent0, pipe.failures() - failed0, readings);
    }

    /** What changed from {@code before} to {@code after}, in scan order. */
    public static List<Change> compare(Snapshot before, Snapshot after) {
        List<Change> out = new ArrayList<>();
        for (Map.Entry<String, Reading> e : after.readings().entrySet()) {
            Reading b = before.readings().get(e.getKey());
            Reading a = e.getValue();
            Long bv = b == null ? null : b.value();
            Long av = a.value();
            if (bv == null ? av != null : !bv.equals(av)) {
                out.add(new Change(a.chipId(), a.register(), bv, av));
            }
        }
        return out;
    }
}
