package org.flitkit.rtl.ring;

import static org.flitkit.hdl.Hdl.*;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.hdl.Bool;
import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.Vec;

/**
 * A distributed full switch ("Multi-rings and distributed full switches", section "Distributed full switches"): N
 * switches of m x m between N subscribers (the quasi-complete digraph, or a cyclic block design), switch i's input j fed by subscriber {@code from[i][j]} and
 * its output j feeding subscriber {@code to[i][j]}. Subscriber links are numbered by switch: link k of subscriber u is
 * the k-th (switch, port) pair, in switch order, that u feeds or is fed by.
 */
public final class DfsNetwork extends Module {
    /** Subscriber u's k-th outgoing link at u * m + k. */
    public final Vec<DfsFlit> send;
    public final Vec<Bool> sendReady;
    /** Subscriber v's k-th incoming link at v * m + k. */
    public final Vec<DfsFlit> recv;
    /** Blocked cycles summed over the switches. */
    public final UInt blocked;

    public DfsNetwork(int m, int[][] from, int[][] to) {
        int n = from.length;
        int nodeBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(n - 1));
        send = input(Vec(n * m, () -> new DfsFlit(nodeBits)));
        sendReady = output(Vec(n * m, () -> Bool()));
        recv = output(Vec(n * m, () -> new DfsFlit(nodeBits)));
        blocked = output(UInt(32));
        int[] sendUsed = new int[n];
        int[] recvUsed = new int[n];
        List<UInt> counts = new ArrayList<>();
        long[] route = new long[n];
        java.util.Arrays.fill(route, m);
        for (int j = 0; j < m; j++) {
            route[to[0][j]] = j;
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                if (to[i][j] != (to[0][j] + i) % n) {
                    throw new IllegalArgumentException("switch " + i + " port " + j + " feeds subscriber " + to[i][j] + ", not " + (to[0][j] + i) % n
                            + ": the network must be circulant (switch i = switch 0 shifted by i)");
                }
            }
            DfsSwitch sw = instance("switch" + i, new DfsSwitch(m, nodeBits, n, route));
            sw.id.assign(lit(i, nodeBits));
            for (int j = 0; j < m; j++) {
                int link = from[i][j] * m + sendUsed[from[i][j]]++;
                connectFlit(sw.in.get(j), send.get(link));
                sendReady.get(link).assign(sw.ready.get(j));
                int back = to[i][j] * m + recvUsed[to[i][j]]++;
                connectFlit(recv.get(back), sw.out.get(j));
            }
            counts.add(sw.blocked);
        }
        blocked.assign(reduceTree(counts, UInt::add));
    }

    private static void connectFlit(DfsFlit sink, DfsFlit source) {
        sink.valid.assign(source.valid);
        sink.last.assign(source.last);
        sink.dst.assign(source.dst);
        sink.data.assign(source.data);
    }

    @Override
    public String definitionName() {
        return "DfsNetwork";
    }
}
