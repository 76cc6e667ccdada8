package org.flitkit.env.xud;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.flitkit.testbench.Component;

/**
 * The exactly-once scoreboard: every message carries its id in its first 8 bytes; each must be delivered
 * once (more is a duplicate, none at the end is a loss), with its exact data, and within a window in the
 * order the window sent them (ids, which grow with send order, increase per window).
 */
public final class ExactlyOnce extends Component {
    private final Map<Long, byte[]> sent = new HashMap<>();
    private final Map<Long, Integer> deliveries = new HashMap<>();
    private final Map<String, Long> lastPerWindow = new HashMap<>();
    private long delivered;
    private long duplicated;
    private long orderViolations;

    public ExactlyOnce(String name) {
        super(name);
    }

    /** A message of {@code length} (8..MTU) bytes with id {@code id} and filler from this scoreboard's random stream. */
    public byte[] message(long id, int length) {
        byte[] d = new byte[length];
        for (int i = 8; i < length; i++) {
            d[i] = (byte) rng().nextInt(256);
        }
        ByteBuffer.wrap(d).putLong(id);
        if (sent.put(id, d) != null) {
            throw new IllegalArgumentException("message id " + id + " used twice");
        }
        return d;
    }

    /** A delivery, by receiving host and the window (sender LID, sender QP, local QP, window) it came through. */
    public void delivered(int host, int srcLid, int srcQp, int qp, int window, byte[] data) {
        long id = ByteBuffer.wrap(data).getLong();
        byte[] expected = sent.get(id);
        if (expected == null || !Arrays.equals(expected, data)) {
            throw fail("host " + host + " received a message that was never sent or differs from what was sent: id " + id);
        }
        int n = deliveries.merge(id, 1, Integer::sum);
        if (n == 1) {
            delivered++;
        } else {
            duplicated++;
        }
        String key = host + "/" + srcLid + "/" + srcQp + "/" + qp + "/" + window;
        Long last = lastPerWindow.put(key, id);
        if (last != null && last >= id) {
            orderViolations++;
        }
    }

    /** Whether message {@code id} was delivered (at least once). */
    public boolean deliveredOnce(long id) {
        return deliveries.containsKey(id);
    }

    public long sent() {
        return sent.size();
    }

    public long delivered() {
        return delivered;
    }

    public long duplicated() {
        return duplicated;
    }

    public long lost() {
        return sent.size() - delivered;
    }

    public long orderViolations() {
        return orderViolations;
    }
}
