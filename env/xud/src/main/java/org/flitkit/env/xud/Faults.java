package org.flitkit.env.xud;

/**
 * Fault rates of the {@link XudNetwork}, each a probability per packet, drawn independently: {@code loss}
 * drops a data packet, {@code ackLoss} an acknowledgement; {@code dup}, {@code reorder} and {@code corrupt}
 * (one flipped bit under the ICRC) apply to both kinds.
 */
public record Faults(double loss, double ackLoss, double dup, double reorder, double corrupt) {
    public static final Faults NONE = new Faults(0, 0, 0, 0, 0);

    public Faults {
        check("loss", loss);
        check("ack-loss", ackLoss);
        check("dup", dup);
        check("reorder", reorder);
        check("corrupt", corrupt);
    }

    private static void check(String name, double p) {
        if (!(p >= 0 && p < 1)) {
            throw new IllegalArgumentException("--" + name + " is a probability in [0, 1), got " + p);
        }
    }
}
