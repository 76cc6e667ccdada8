package org.flitkit.env.nic;

import java.math.BigInteger;
import java.util.List;
import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.th2.DescriptorMapping;
import org.flitkit.formats.th2.PacketLayout;
import org.flitkit.formats.th2.Th2;
import org.flitkit.testbench.Component;

/**
 * {@code ./hdl mgmt --via nic}: a management session's requests go through the host software API (a
 * descriptor in VP 8's SDQ and a doorbell), the NIC, the cable and the NRC; answers come back into the MPQ.
 * {@code port N} re-plugs the NIC's cable into NRC port N (once the cable and the NIC are quiet); a corrupted
 * request becomes a bit error on the cable, so the NRC's CRC check drops it as it would on a real link.
 * Packets leaving the NRC elsewhere are still reported. docs/th2-nic.md, "./hdl mgmt --via nic".
 */
public final class NicTransport extends HostTransport {
    /** Longest wait for the NIC and cable to go quiet before a re-plug. */
    public static final long QUIET_TIMEOUT = 1_000_000;

    private final NicEnv env;
    private final Corrupter corrupter;

    public NicTransport(NicEnv env) {
        super(env.tb, env.driver, List.of(env.endpoint, env.reports), env::port);
        this.env = env;
        corrupter = env.tb.add(new Corrupter(env));
        env.ports.onReceive(this::deliver);
    }

    @Override
    public void send(int port, BitVector request) {
        if (port != env.port()) {
            env.tb.runUntil("the NIC and its cable to go quiet before re-plugging into port " + port,
                    () -> env.endpoint.outstanding() == 0 && env.tb.sim().peekBool(env.dut.cableIdle), QUIET_TIMEOUT);
            env.plug(port);
        }
        BitVector good = PacketLayout.withCrc(request);
        if (!good.equals(request)) {
            // the session corrupted the packet after its CRC: the same bit flips on the wire
            corrupter.arm(request.toBigInteger().xor(good.toBigInteger()));
        }
        env.endpoint.sendRaw((int) request.get(PacketLayout.BODY1.TRANSACTION_ID), DescriptorMapping.descriptorFor(good, env.endpoint.vp));
    }

    /** Flips the armed bits of the next request as its flits enter the cable toward the NRC. */
    static final class Corrupter extends Component {
        private final NicEnv env;
        private BigInteger pending;
        private BigInteger active;
        private int flit;
        private BigInteger poked = BigInteger.ZERO;

        Corrupter(NicEnv env) {
            super("cable_corrupter");
            this.env = env;
        }

        void arm(BigInteger flips) {
            pending = flips;
        }

        @Override
        protected void drive() {
            if (pending == null && active == null && poked.signum() == 0) {
                return;
            }
            boolean head = env.tb.sim().peekBool(env.dut.nic.linkOut.valid)
                    && BitVector.of(Th2.FLIT_BITS, env.tb.sim().peekBig(env.dut.nic.linkOut.bits)).get(PacketLayout.HEAD.KIND) == Th2.KIND_HEAD;
            if (head && flit == 0 && pending != null) {
                active = pending;
                pending = null;
            }
            BigInteger part = active == null ? BigInteger.ZERO
                    : active.shiftRight(flit * Th2.FLIT_BITS).and(BigInteger.ONE.shiftLeft(Th2.FLIT_BITS).subtract(BigInteger.ONE));
            if (!part.equals(poked)) {
                env.tb.sim().poke(env.dut.upFlip, part);
                poked = part;
            }
        }

        @Override
        protected void sample() {
            if (env.tb.sim().peekBool(env.dut.nic.linkOut.valid) && env.tb.sim().peekBool(env.dut.nic.linkOut.ready)) {
                flit++;
                if (flit == Th2.PACKET_FLITS) {
                    flit = 0;
                    active = null;
                }
            }
        }
    }
}
