package org.flitkit.env.ring;

import java.util.HashMap;
import java.util.Map;

/** Birth cycle of every packet in flight, and the sum of delivery times (birth to removal) of those delivered. */
final class DeliveryTimes {
    private final Map<Long, Long> born = new HashMap<>();
    private long count;
    private long sum;

    void born(int src, int tag, long cycle) {
        born.put((long) src << 32 | tag, cycle);
    }

    void delivered(int src, int tag, long cycle, boolean counted) {
        Long b = born.remove((long) src << 32 | tag);
        if (b != null && counted) {
            count++;
            sum += cycle - b;
        }
    }

    double mean() {
        return count == 0 ? 0 : (double) sum / count;
    }
}
