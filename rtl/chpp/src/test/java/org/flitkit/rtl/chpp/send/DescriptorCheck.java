package org.flitkit.rtl.chpp.send;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.formats.chpp.ChppFormatException;
import org.flitkit.formats.chpp.Descriptor;
import org.flitkit.formats.chpp.PacketHeader;
import org.flitkit.formats.chpp.Packets;
import org.flitkit.formats.chpp.Rule;
import org.flitkit.formats.chpp.CompletionStatus;

/**
 * What the descriptor stages must produce for each doorbell, from formats/chpp's software decoder, and the check
 * that the recorded streams say exactly that: each extracted descriptor field by field, each refusal with its
 * status, Kind and Cookie, each failed read with its status; every doorbell ends exactly once.
 */
final class DescriptorCheck {
    /** One doorbell's descriptor bytes in host memory; cookie unique per case (never 0). */
    record Case(int function, int qp, long addr, byte[] bytes, int length) {
    }

    /** The decoder's verdict: the descriptor, or the rule it broke. */
    static Object verdict(Case c) {
        int len = c.length();
        if (len < 16 || len > 4096 || len % 8 != 0 || c.addr() % 8 != 0) {
            return Rule.WRONG_SIZE; // refused by the read stage: nothing fetched
        }
        try {
            return Descriptor.decode(c.bytes(), c.qp());
        } catch (ChppFormatException e) {
            return e.rule();
        }
    }

    static boolean readRefused(Case c) {
        return c.length() < 16 || c.length() > 4096 || c.length() % 8 != 0 || c.addr() % 8 != 0;
    }

    /** Little-endian 16-byte beat to bytes. */
    static byte[] le(BigInteger v, int n) {
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = v.shiftRight(8 * i).byteValue();
        }
        return out;
    }

    static byte[] be(BigInteger v) {
        byte[] out = new byte[16];
        for (int i = 0; i < 16; i++) {
            out[i] = v.shiftRight(8 * (15 - i)).byteValue();
        }
        return out;
    }

    /**
     * Checks the bench's streams against {@code cases} (cookie = index + 1), given the read outcome the host chose
     * for each case ({@code readStatus}: null = data returned, else PCIE_ERROR or COMPLETION_TIMEOUT).
     * Returns the number of cases extracted.
     */
    static int check(DescriptorHarness b, List<Case> cases, Map<Integer, CompletionStatus> readStatus) {
        Map<Integer, Object> got = new HashMap<>();
        int si = 0;
        int di = 0;
        int ni = 0;
        // NAP, PUT, chain: control then its segments and data, in order
        for (DescriptorHarness.Control c : b.controls) {
            List<Descriptor.Segment> src = new ArrayList<>();
            List<Descriptor.Segment> dst = new ArrayList<>();
            for (int i = 0; i < c.srcCount(); i++, si++) {
                DescriptorHarness.Seg s = b.srcs.get(si);
                assertThat(s.last()).as("src last of cookie %d seg %d", c.cookie(), i).isEqualTo(i == c.srcCount() - 1);
                src.add(new Descriptor.Segment(s.address(), s.length()));
            }
            for (int i = 0; i < c.dstCount(); i++, di++) {
                DescriptorHarness.Seg s = b.dsts.get(di);
                assertThat(s.last()).as("dst last of cookie %d seg %d", c.cookie(), i).isEqualTo(i == c.dstCount() - 1);
                dst.add(new Descriptor.Segment(s.address(), s.length()));
            }
            byte[] data = new byte[0];
            if (c.kind() == 1) {
                int beats = (int) ((c.length() + 15) / 16);
                data = new byte[(int) c.length()];
                for (int i = 0; i < beats; i++, ni++) {
                    DescriptorHarness.Beat nb = b.napBeats.get(ni);
                    assertThat(nb.last()).isEqualTo(i == beats - 1);
                    byte[] part = le(nb.data(), 16);
                    System.arraycopy(part, 0, data, 16 * i, Math.min(16, data.length - 16 * i));
                    for (int k = Math.min(16, data.length - 16 * i); k < 16; k++) {
                        assertThat(part[k]).as("NAP data padding byte").isZero();
                    }
                }
            }
            assertThat(got.put(c.cookie(), new Object[] {c, src, dst, data})).as("cookie %d extracted twice", c.cookie()).isNull();
        }
        assertThat(si).as("source segments all claimed").isEqualTo(b.srcs.size());
        assertThat(di).as("destination segments all claimed").isEqualTo(b.dsts.size());
        assertThat(ni).as("NAP data beats all claimed").isEqualTo(b.napBeats.size());
        // GET packets: 3 beats each
        assertThat(b.getBeats.size() % 3).isZero();
        for (int i = 0; i < b.getBeats.size(); i += 3) {
            assertThat(b.getBeats.get(i).last()).isFalse();
            assertThat(b.getBeats.get(i + 1).last()).isFalse();
            assertThat(b.getBeats.get(i + 2).last()).isTrue();
            byte[] header = be(b.getBeats.get(i).data());
            byte[] payload = new byte[32];
            System.arraycopy(be(b.getBeats.get(i + 1).data()), 0, payload, 0, 16);
            System.arraycopy(be(b.getBeats.get(i + 2).data()), 0, payload, 16, 16);
            Descriptor.Get g = (Descriptor.Get) Descriptor.decode(payload);
            assertThat(got.put(g.common().cookie(), new Object[] {header, payload})).isNull();
        }
        // events
        Map<String, Integer> readErrors = new HashMap<>();
        int getEvents = 0;
        for (DescriptorHarness.Event e : b.events) {
            if (e.cookie() == 0) {
                readErrors.merge(e.function() + "/" + e.qp() + "/" + e.status() + "/" + e.kind(), 1, Integer::sum);
            } else if (e.status() == CompletionStatus.OK.code()) {
                getEvents++;
                Case c = cases.get(e.cookie() - 1);
                Descriptor.Get g = (Descriptor.Get) verdict(c);
                assertThat(g.common().sce()).isTrue();
                assertThat(e).isEqualTo(new DescriptorHarness.Event(e.cycle(), 0, c.function(), c.qp(), 4, g.common().cookie(), g.length()));
            } else {
                assertThat(got.put(e.cookie(), e)).as("cookie %d ended twice", e.cookie()).isNull();
            }
        }
        Map<String, Integer> expectedReadErrors = new HashMap<>();
        int extracted = 0;
        int expectedGetEvents = 0;
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            int cookie = i + 1;
            CompletionStatus rs = readStatus.get(i);
            if (readRefused(c) || rs != null) {
                CompletionStatus st = rs != null ? rs : CompletionStatus.BAD_DESCRIPTOR;
                expectedReadErrors.merge(c.function() + "/" + c.qp() + "/" + st.code() + "/0", 1, Integer::sum);
                assertThat(got).as("case %d failed its read but ended otherwise", i).doesNotContainKey(cookie);
                continue;
            }
            Object v = verdict(c);
            Object g = got.get(cookie);
            assertThat(g).as("case %d (%s) ended", i, v).isNotNull();
            if (v instanceof Rule rule) {
                int kind = rule == Rule.UNKNOWN_DESC_KIND ? 0 : c.bytes()[0] & 0xF;
                int ck = (c.bytes()[6] & 0xFF) | (c.bytes()[7] & 0xFF) << 8;
                assertThat(g).as("case %d refused by %s", i, rule).isInstanceOf(DescriptorHarness.Event.class);
                DescriptorHarness.Event e = (DescriptorHarness.Event) g;
                assertThat(e).as("case %d refused by %s", i, rule).isEqualTo(new DescriptorHarness.Event(e.cycle(),
                        CompletionStatus.forRefusedDescriptor(rule).code(), c.function(), c.qp(), kind, ck, 0));
                continue;
            }
            extracted++;
            Descriptor d = (Descriptor) v;
            if (d instanceof Descriptor.Get gd) {
                Object[] pk = (Object[]) g;
                PacketHeader h = Packets.getHeader(gd, b.sendParams.processor(), c.function(),
                        b.sendParams.requesterBusDevice() | c.function(), b.sendParams.getTc());
                assertThat((byte[]) pk[0]).as("GET header of case %d", i).isEqualTo(h.toBytes());
                assertThat((byte[]) pk[1]).as("GET payload of case %d", i).isEqualTo(gd.encode());
                if (gd.common().sce()) {
                    expectedGetEvents++;
                }
                continue;
            }
            assertThat(g).as("case %d (%s)", i, d).isInstanceOf(Object[].class);
            Object[] x = (Object[]) g;
            DescriptorHarness.Control ctl = (DescriptorHarness.Control) x[0];
            Descriptor.Common cm = d.common();
            assertThat(ctl).as("control of case %d", i).isEqualTo(new DescriptorHarness.Control(ctl.cycle(), d.kind().code(),
                    c.function(), cm.qp(), cm.sce(), cm.rce(), cm.dst().encode(), cm.qpMagic(), cm.cookie(), d.transferBytes(),
                    ctl.srcCount(), ctl.dstCount()));
            List<Descriptor.Segment> es = new ArrayList<>();
            List<Descriptor.Segment> ed = new ArrayList<>();
            byte[] data = new byte[0];
            if (d instanceof Descriptor.NapImmediate n) {
                data = n.data();
            } else if (d instanceof Descriptor.NapIndirect n) {
                if (n.length() > 0) {
                    es.add(new Descriptor.Segment(n.srcAddress(), n.length()));
                }
            } else if (d instanceof Descriptor.Put p) {
                es.add(new Descriptor.Segment(p.srcAddress(), p.length()));
                ed.add(new Descriptor.Segment(p.dstAddress(), p.length()));
            } else if (d instanceof Descriptor.Chain ch) {
                es.addAll(ch.sources());
                ed.addAll(ch.destinations());
            }
            assertThat(x[1]).as("source segments of case %d", i).isEqualTo(es);
            assertThat(x[2]).as("destination segments of case %d", i).isEqualTo(ed);
            assertThat((byte[]) x[3]).as("NAP data of case %d", i).isEqualTo(data);
        }
        assertThat(readErrors).as("failed reads per function/qp/status/kind").isEqualTo(expectedReadErrors);
        // doorbell order: every outcome leaves extract in the order the doorbells were rung
        List<long[]> seen = new ArrayList<>();
        for (DescriptorHarness.Control c : b.controls) {
            seen.add(new long[] {c.cycle(), c.cookie()});
        }
        for (int i = 0; i < b.getBeats.size(); i += 3) {
            byte[] payload = new byte[16];
            System.arraycopy(be(b.getBeats.get(i + 1).data()), 0, payload, 0, 16);
            seen.add(new long[] {b.getBeats.get(i).cycle(), (payload[6] & 0xFF) | (payload[7] & 0xFF) << 8});
        }
        for (DescriptorHarness.Event e : b.events) {
            if (e.cookie() == 0) {
                seen.add(new long[] {e.cycle(), -1000 - (e.function() * 4L + e.qp())});
            } else if (e.status() != CompletionStatus.OK.code()) {
                seen.add(new long[] {e.cycle(), e.cookie()});
            }
        }
        seen.sort((x, y) -> Long.compare(x[0], y[0]));
        // per function and QP (the front arbitrates between functions, so only a function's own order is kept)
        Map<Long, List<Long>> order = new HashMap<>();
        for (long[] x : seen) {
            long key = x[1] < 0 ? -1000 - x[1] : cases.get((int) x[1] - 1).function() * 4L + cases.get((int) x[1] - 1).qp();
            order.computeIfAbsent(key, k -> new ArrayList<>()).add(x[1]);
        }
        Map<Long, List<Long>> expectedOrder = new HashMap<>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            long key = c.function() * 4L + c.qp();
            expectedOrder.computeIfAbsent(key, k -> new ArrayList<>()).add(readRefused(c) || readStatus.get(i) != null ? -1000 - key : i + 1);
        }
        assertThat(order).as("outcomes of each function's QP in doorbell order").isEqualTo(expectedOrder);
        assertThat(getEvents).as("GET send completions").isEqualTo(expectedGetEvents);
        assertThat(got.size() + readErrors.values().stream().mapToInt(Integer::intValue).sum()).as("every doorbell ends once")
                .isEqualTo(cases.size());
        return extracted;
    }
}
