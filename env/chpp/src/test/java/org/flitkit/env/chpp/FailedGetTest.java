package org.flitkit.env.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.DescKind;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.SendCompletion;
import org.flitkit.formats.chpp.CompletionStatus;
import org.flitkit.env.host.PcieHost;
import org.flitkit.env.host.PcieParams;
import org.flitkit.rtl.chpp.ChppParams;
import org.flitkit.rtl.chpp.send.SendEngineParams;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A GET whose answer fails at the target ends at the requester (docs/chpp-nic.md, decision "failed GET answer", and "Faults"): through two
 * engines and the crossbar, the target's reads of the GET's source fail (an error completion, or a completion that
 * never comes), and the requester's receive ring gets exactly one GET_FAILED entry at the Address where the failed
 * packet would have started, its memory holds exactly the packets sent before the failure, and the target's send
 * ring names the failure under the GET's cookie.
 */
@ExtendWith(TestbenchExtension.class)
class FailedGetTest {
    static final int KEY = 0x6E7A;
    static final long REMOTE = 0x5000_0000L;
    static final long LOCAL = 0x6000_0001L;
    static final int TIMEOUT = 1000;

    static ChppEnv env(RunConfig cfg) {
        return new ChppEnv(cfg, 2, 2, ChppParams.paper().withCompletionTimeout(TIMEOUT), SendEngineParams.defaults(), PcieParams.chpp());
    }

    /** What the requester's and the target's rings said, after both engines went quiet. */
    record Seen(List<SendCompletion> requesterSent, List<ReceiveCompletion> requesterGot, List<SendCompletion> targetSent) {
    }

    static Seen await(ChppEnv env, ChppDriver.Qp a, ChppDriver.Qp b, int nGot) {
        Seen s = new Seen(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        env.tb.runUntil(nGot + " receive completions at the requester", () -> {
            s.requesterSent.addAll(a.pollSend());
            s.requesterGot.addAll(a.pollReceive());
            s.targetSent.addAll(b.pollSend());
            return s.requesterGot.size() >= nGot;
        }, 50_000);
        // nothing more comes, and the tags that timed out have left quarantine
        env.tb.run(3L * TIMEOUT);
        s.requesterSent.addAll(a.pollSend());
        s.requesterGot.addAll(a.pollReceive());
        s.targetSent.addAll(b.pollSend());
        return s;
    }

    static byte[] pattern(int n) {
        byte[] d = new byte[n];
        for (int i = 0; i < n; i++) {
            d[i] = (byte) (i * 31 + 7);
        }
        return d;
    }

    /** The requester's memory from {@code LOCAL - 16} on: the first {@code arrived} bytes of {@code remote}, zeros around. */
    static void assertLocal(ChppEnv env, byte[] remote, int arrived) {
        byte[] got = env.driver(0).memory().read(LOCAL - 16, remote.length + 32);
        byte[] want = new byte[got.length];
        System.arraycopy(remote, 0, want, 16, arrived);
        assertThat(got).as("requester memory: %d bytes arrived, nothing else", arrived).isEqualTo(want);
    }

    @Test
    void aGetWhoseFirstReadFailsEndsWithGetFailedAtItsDestination(RunConfig cfg) {
        try (ChppEnv env = env(cfg)) {
            ChppDriver.Qp a = env.driver(0).open(2, 1, KEY);
            ChppDriver.Qp b = env.driver(1).open(5, 3, KEY);
            byte[] remote = pattern(3000);
            env.driver(1).memory().write(REMOTE, remote);
            // every read of the GET's source at the target ends with Unsupported Request
            env.hosts.get(1).readFaults(PcieHost.ReadFaults.inRange(REMOTE, REMOTE + remote.length, PcieHost.ReadOutcome.UR));
            env.tb.run(200);
            // RCE 0: the requester asked for no completion, and gets GET_FAILED all the same
            int cookie = a.get(b.id(), KEY, REMOTE, LOCAL, remote.length, true, false);
            Seen s = await(env, a, b, 1);
            assertThat(s.requesterSent).containsExactly(new SendCompletion(DescKind.GET, 1, CompletionStatus.OK, cookie, remote.length, true));
            assertThat(s.requesterGot).containsExactly(new ReceiveCompletion(PktType.PUT, true, CompletionStatus.GET_FAILED, b.id(), a.id(), 0,
                    LOCAL, true));
            // the target's software hears of its failed read under the GET's cookie (its answer is a PUT, SCE 0)
            assertThat(s.targetSent).containsExactly(new SendCompletion(DescKind.PUT, 3, CompletionStatus.PCIE_ERROR, cookie, 0, true));
            assertLocal(env, remote, 0);
            // no byte written at the requester outside its rings
            assertThat(env.hosts.get(0).writes()).allMatch(w -> w.addr() >= ChppDriver.RINGS);
            assertThat(env.tb.sim().peek(env.tb.dut().engines.get(1).send.packer.failedAnswers)).isEqualTo(1);
            assertThat(env.tb.sim().peek(env.tb.dut().engines.get(0).receive.put.failedAnswers)).isEqualTo(1);
            // the driver ends the GET: its end names the GET and the bytes that arrived
            ChppDriver.GetEnd e = a.getEnded(s.requesterGot.get(0));
            assertThat(e).isEqualTo(new ChppDriver.GetEnd(new ChppDriver.PendingGet(cookie, LOCAL, remote.length), CompletionStatus.GET_FAILED, 0));
            assertThat(a.pendingGets()).isEmpty();

            // the source readable again: the next GET on the same QPs is answered in full
            env.hosts.get(1).readFaults((addr, len, rng) -> PcieHost.ReadOutcome.OK);
            int next = a.get(b.id(), KEY, REMOTE, LOCAL, remote.length, false, true);
            Seen t = await(env, a, b, 1);
            assertThat(t.requesterGot).containsExactly(new ReceiveCompletion(PktType.PUT, true, CompletionStatus.OK, b.id(), a.id(),
                    3000 - 23 * 128, LOCAL + 23 * 128, true));
            assertThat(t.targetSent).isEmpty();
            assertThat(a.getEnded(t.requesterGot.get(0)).ok()).isTrue();
            assertThat(next).isEqualTo(cookie + 1);
            assertLocal(env, remote, remote.length);
        }
    }

    @Test
    void aGetWhoseReadFailsMidTransferKeepsThePacketsSentBeforeIt(RunConfig cfg) {
        try (ChppEnv env = env(cfg)) {
            ChppDriver.Qp a = env.driver(0).open(0, 0, KEY);
            ChppDriver.Qp b = env.driver(1).open(7, 2, KEY);
            byte[] remote = pattern(3000);
            env.driver(1).memory().write(REMOTE, remote);
            // the source is read in 512-byte requests (Max_Read_Request_Size) from a 4 KB-aligned start: the read
            // holding byte 1000 (bytes 512..1023) never completes, so the 4 packets of 128 bytes before it are whole
            env.hosts.get(1).readFaults(PcieHost.ReadFaults.inRange(REMOTE + 1000, REMOTE + 1001, PcieHost.ReadOutcome.LOST));
            env.tb.run(200);
            int cookie = a.get(b.id(), KEY, REMOTE, LOCAL, remote.length, false, true);
            Seen s = await(env, a, b, 1);
            List<PcieHost.Read> lost = env.hosts.get(1).reads().stream().filter(r -> r.outcome() == PcieHost.ReadOutcome.LOST).toList();
            assertThat(lost).hasSize(1);
            assertThat(lost.get(0).addr()).isEqualTo(REMOTE + 512);
            assertThat(lost.get(0).len()).isEqualTo(512);
            assertThat(s.requesterSent).isEmpty();
            assertThat(s.requesterGot).containsExactly(new ReceiveCompletion(PktType.PUT, true, CompletionStatus.GET_FAILED, b.id(), a.id(), 0,
                    LOCAL + 512, true));
            assertThat(s.targetSent).containsExactly(new SendCompletion(DescKind.PUT, 2, CompletionStatus.COMPLETION_TIMEOUT, cookie, 512, true));
            assertLocal(env, remote, 512);
            ChppDriver.GetEnd e = a.getEnded(s.requesterGot.get(0));
            assertThat(e.status()).isEqualTo(CompletionStatus.GET_FAILED);
            assertThat(e.bytesArrived()).isEqualTo(512);
            // 4 whole packets and the failure packet left the target
            assertThat(env.tb.sim().peek(env.tb.dut().engines.get(1).send.packer.packets)).isEqualTo(5);
            assertThat(env.tb.sim().peek(env.tb.dut().engines.get(1).send.packer.failedAnswers)).isEqualTo(1);
            var tags = env.tb.dut().engines.get(1).pcie.tags;
            assertThat(env.tb.sim().peek(tags.freeCount)).isEqualTo(tags.params.tags());
        }
    }
}
