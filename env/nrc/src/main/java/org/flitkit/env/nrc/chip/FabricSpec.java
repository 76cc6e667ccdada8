package org.flitkit.env.nrc.chip;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import org.flitkit.env.nrc.Requests;

/**
 * A small fabric of whole NRCs: cables between chip ports and the port of chip 0 where the management server's
 * NIC is cabled. {@link #path} finds the source route from the server to any chip (breadth first, as topology
 * discovery does). docs/th2-nrc-switch.md, "Fabrics".
 */
public record FabricSpec(String name, int chips, int serverPort, List<Cable> cables) {
    /** A cable between port {@code portA} of chip {@code a} and port {@code portB} of chip {@code b}. */
    public record Cable(int a, int portA, int b, int portB) {
    }

    /** Two NRCs: chip 0 port 7 to chip 1 port 3; the server at chip 0 port 5. */
    public static final FabricSpec PAIR = new FabricSpec("pair", 2, 5, List.of(new Cable(0, 7, 1, 3)));
    /** Three NRCs in a chain: 0:7 - 1:3, 1:9 - 2:2; the server at chip 0 port 5. */
    public static final FabricSpec CHAIN3 = new FabricSpec("chain3", 3, 5, List.of(new Cable(0, 7, 1, 3), new Cable(1, 9, 2, 2)));
    public static final List<FabricSpec> ALL = List.of(PAIR, CHAIN3);

    public FabricSpec {
        if (chips < 1) {
            throw new IllegalArgumentException("a fabric has at least one NRC");
        }
        boolean[][] used = new boolean[chips][24];
        used[0][serverPort] = true;
        for (Cable c : cables) {
            for (int[] end : new int[][] {{c.a(), c.portA()}, {c.b(), c.portB()}}) {
                if (end[0] < 0 || end[0] >= chips || end[1] < 0 || end[1] > 23) {
                    throw new IllegalArgumentException("cable " + c + ": no chip " + end[0] + " port " + end[1]);
                }
                if (used[end[0]][end[1]]) {
                    throw new IllegalArgumentException("cable " + c + ": chip " + end[0] + " port " + end[1] + " already has a cable");
                }
                used[end[0]][end[1]] = true;
            }
        }
        cables = List.copyOf(cables);
    }

    public static FabricSpec named(String name) {
        return ALL.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "no fabric '" + name + "'; fabrics: " + String.join(", ", ALL.stream().map(FabricSpec::name).toList())));
    }

    /** The route from the server (entering chip 0 at {@link #serverPort}) to chip {@code target} and back. */
    public Requests.Path path(int target) {
        if (target < 0 || target >= chips) {
            throw new IllegalArgumentException("no chip " + target + " in fabric " + name + " (chips 0.." + (chips - 1) + ")");
        }
        int[] prevChip = new int[chips];
        int[] outPort = new int[chips];
        int[] inPort = new int[chips];
        java.util.Arrays.fill(prevChip, -2);
        prevChip[0] = -1;
        Deque<Integer> q = new ArrayDeque<>(List.of(0));
        while (!q.isEmpty()) {
            int c = q.poll();
            for (Cable k : cables) {
                for (int[] e : new int[][] {{k.a(), k.portA(), k.b(), k.portB()}, {k.b(), k.portB(), k.a(), k.portA()}}) {
                    if (e[0] == c && prevChip[e[2]] == -2) {
                        prevChip[e[2]] = c;
                        outPort[e[2]] = e[1];
                        inPort[e[2]] = e[3];
                        q.add(e[2]);
                    }
                }
            }
        }
        if (prevChip[target] == -2) {
            throw new IllegalArgumentException("chip " + target + " is not reachable from the server in fabric " + name);
        }
        List<Integer> forward = new ArrayList<>();
        List<Integer> backward = new ArrayList<>();
        for (int c = target; c != 0; c = prevChip[c]) {
            forward.add(outPort[c]);
            backward.add(inPort[c]);
        }
        Collections.reverse(forward);
        return new Requests.Path(forward, backward);
    }
}
