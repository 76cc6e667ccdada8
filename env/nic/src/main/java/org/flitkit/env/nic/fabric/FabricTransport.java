package org.flitkit.env.nic.fabric;

import java.util.List;
import org.flitkit.env.nic.HostTransport;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.DescriptorMapping;
import org.flitkit.formats.th2.PacketLayout;

/**
 * {@code ./hdl mgmt --fabric NAME}: requests go through the host software API and the server's NIC into a fabric
 * of whole NRCs, along the session's route; answers come back into the MPQ. The NIC is cabled to one port of
 * chip 0, so every request enters there. docs/th2-nrc-switch.md, "Fabrics".
 */
public final class FabricTransport extends HostTransport {
    private final FabricEnv env;

    public FabricTransport(FabricEnv env) {
        super(env.tb, env.driver, List.of(env.endpoint, env.reports), env.spec::serverPort);
        this.env = env;
    }

    @Override
    public void send(int port, BitVector request) {
        if (port != env.spec.serverPort()) {
            throw new IllegalArgumentException("in fabric " + env.spec.name() + " the server's NIC is cabled to port "
                    + env.spec.serverPort() + " of chip 0; requests cannot enter at port " + port + " (use route to reach other chips)");
        }
        BitVector good = PacketLayout.withCrc(request);
        if (!good.equals(request)) {
            throw new IllegalArgumentException("corrupt-next is not available with link layers: a bit error on a cable is "
                    + "caught by the link CRC and retransmitted, so the NRC never sees it (use --via nic or direct)");
        }
        env.endpoint.sendRaw((int) request.get(PacketLayout.BODY1.TRANSACTION_ID), DescriptorMapping.descriptorFor(good, env.endpoint.vp));
    }
}
