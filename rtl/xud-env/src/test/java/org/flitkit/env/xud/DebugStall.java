package org.flitkit.env.xud;

import org.flitkit.host.DmaParams;
import org.flitkit.hdl.sim.Simulator;
import org.flitkit.testbench.RunConfig;
import org.junit.jupiter.api.Test;
import java.util.ArrayList;
import java.util.List;

class DebugStall {
    @Test
    void debug() {
        var p = XudLossyScenario.PARAMS;
        try (XudEnv env = new XudEnv(RunConfig.of(1, 100000), 4, p, DmaParams.defaults(), Faults.NONE, XudEnv.psns(p, 0))) {
            ExactlyOnce board = env.tb.add(new ExactlyOnce("exactly_once"));
            List<WindowLayer> layers = new ArrayList<>();
            for (HostEndpoint h : env.hosts()) {
                layers.add(new WindowLayer(h, 32, (at, from, window, data) ->
                        board.delivered(at.host().index(), from.remoteLid(), from.remoteQp(), from.qp(), window, data)));
            }
            env.tb.add(new XudLossyScenario.Traffic(layers, board, 3000));
            Simulator sim = env.tb.sim();
            for (int k = 0; k < 20; k++) {
                env.tb.run(500);
                StringBuilder sb = new StringBuilder("cycle " + env.tb.cycle() + " delivered " + board.delivered());
                for (String s : new String[] {"hca2.netIn_valid", "hca2.netIn_ready", "hca2.recv.pktIn_valid", "hca2.recv.pktIn_ready", "hca2.send.ackIn_valid", "hca2.send.ackIn_ready", "hca2.recv.ack_q.count",
                        "hca2.recv.data_q.count", "hca2.recv.cq_q.count", "hca2.send.cq_q.count", "hca2.send.timers.count", "hca2.dma_valid", "hca2.dma_ready",
                        "hca2.send.pkt_q.count", "hca2.netOut_valid", "hca2.netOut_ready", "hca2.send.timeouts", "hca2.recv.delivered", "hca2.recv.rnrNaks", "hca2.send.ack_hit", "hca2.send.inflight_valid"}) {
                    try {
                        sb.append(' ').append(s).append('=').append(sim.peekBig("xudCluster." + s).toString(16));
                    } catch (RuntimeException e) {
                        sb.append(' ').append(s).append("=?");
                    }
                }
                System.out.println(sb);
            }
        }
    }
}
