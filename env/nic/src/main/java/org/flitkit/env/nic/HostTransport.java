package org.flitkit.env.nic;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.flitkit.env.nic.host.MgmtEndpoint;
import org.flitkit.env.nic.host.NicDriver;
import org.flitkit.env.nrc.MgmtServer;
import org.flitkit.env.nrc.MgmtTransport;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Testbench;

/**
 * What the management session's transports through the server's NIC share: the driver polled every cycle,
 * and every packet arriving in the request and report endpoints' MPQs handed to the session's listeners with the
 * NRC port the NIC is cabled to. Each answer is taken from its endpoint as it is handed on, and a request the
 * session stops waiting for is abandoned there, so the host side holds nothing for answers that never come.
 * docs/th2-nic.md, "./hdl mgmt --via nic".
 */
public abstract class HostTransport implements MgmtTransport {
    private final List<Consumer<MgmtServer.Received>> listeners = new ArrayList<>();
    private final MgmtEndpoint requests;

    /** {@code endpoints}: the requests' endpoint first, then any that only receive (fault reports). */
    protected HostTransport(Testbench<?> tb, NicDriver driver, List<MgmtEndpoint> endpoints, IntSupplier cabledPort) {
        tb.add(new Component("mgmt_poll") {
            @Override
            protected void sample() {
                driver.poll();
            }
        });
        requests = endpoints.get(0);
        for (MgmtEndpoint e : endpoints) {
            e.onPacket(a -> {
                deliver(new MgmtServer.Received(cabledPort.getAsInt(), a.bits(), a.cycle()));
                e.take(a.packet().transactionId());
            });
        }
    }

    @Override
    public void abandon(int tid) {
        requests.abandon(tid);
    }

    @Override
    public void onReceive(Consumer<MgmtServer.Received> listener) {
        listeners.add(listener);
    }

    /** Hands {@code r} to every listener. */
    protected final void deliver(MgmtServer.Received r) {
        for (Consumer<MgmtServer.Received> l : listeners) {
            l.accept(r);
        }
    }
}
