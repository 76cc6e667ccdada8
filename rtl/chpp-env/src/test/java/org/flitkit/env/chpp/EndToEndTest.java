package org.flitkit.env.chpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.EndpointId;
import org.flitkit.formats.chpp.PktType;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.formats.chpp.SendCompletion;
import org.flitkit.formats.chpp.Status;
import org.flitkit.testbench.RunConfig;
import org.flitkit.testbench.TestbenchExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two engines of one controller through the crossbar, driven by the queue-pair driver (docs/chpp-nic.md). */
@ExtendWith(TestbenchExtension.class)
class EndToEndTest {
    static final int KEY = 0x5A17;

    @Test
    void putFromProcessorZeroLandsInProcessorOnesMemory(RunConfig cfg) {
        try (ChppEnv env = new ChppEnv(cfg, 2)) {
            ChppDriver.Qp a = env.driver(0).open(0, 0, KEY);
            ChppDriver.Qp b = env.driver(1).open(0, 0, KEY);
            byte[] data = new byte[1000];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) (i * 7 + 3);
            }
            env.driver(0).memory().write(0x1000_0003L, data);
            env.tb.run(200);
            a.put(b.id(), KEY, 0x1000_0003L, 0x2000_0005L, data.length, true, true);
            List<SendCompletion> sent = new ArrayList<>();
            List<ReceiveCompletion> got = new ArrayList<>();
            env.tb.runUntil("send and receive completions", () -> {
                sent.addAll(a.pollSend());
                got.addAll(b.pollReceive());
                return !sent.isEmpty() && !got.isEmpty();
            }, 5000);
            long at = env.tb.cycle();
            assertThat(sent).hasSize(1);
            assertThat(sent.get(0).status()).isEqualTo(Status.OK);
            assertThat(sent.get(0).bytes()).isEqualTo(1000);
            assertThat(got).hasSize(1);
            assertThat(got.get(0).type()).isEqualTo(PktType.PUT);
            assertThat(got.get(0).status()).isEqualTo(Status.OK);
            assertThat(env.driver(1).memory().read(0x2000_0005L, data.length)).isEqualTo(data);
            System.out.printf("1000-byte PUT: completions seen by cycle %d%n", at);
        }
    }
}
