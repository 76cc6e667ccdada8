package org.flitkit.env.xud;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flitkit.env.xud.HostEndpoint.RecvCompletion;
import org.flitkit.env.xud.HostEndpoint.SendCompletion;
import org.flitkit.formats.xud.XudFormat.SendStatus;

/**
 * The verbs-library window layer that turns XUD into exactly-once delivery (paper section 3): per connection
 * up to 65,536 windows, one message in flight per window. The sender takes a free window, stamps its id and
 * {@code next_msn} in the XUDETH, frees the window on a success completion ({@code next_msn++}) and resends
 * with the same window and {@code win_msn} on any other completion (timeout, NAK, RNR NAK). The receiver
 * delivers when {@code win_msn == expected_msn} ({@code expected_msn++}) and drops the rest as duplicates.
 * Connection state lives in a hash table, allocated on first use (section 4.1, fig. 6).
 */
public final class WindowLayer implements HostEndpoint.Listener {
    public static final int MAX_WINDOWS = 1 << 16;
    public static final int DEFAULT_WINDOWS = 32;
    /** The Q_Key every XUD QP of the model uses. */
    public static final long Q_KEY = 0x1111_2222L;

    /** Where delivered messages go: the application. */
    public interface Delivery {
        void deliver(WindowLayer at, Connection from, int window, byte[] data);
    }

    /**
     * One connection (local QP, remote LID, remote QP): send windows and receive windows, each table made on
     * its first use. A window's state is its sequence number and, while busy, the message in flight.
     */
    public static final class Connection {
        final int id;
        final int qp;
        final int remoteLid;
        final int remoteQp;
        int[] nextMsn;
        byte[][] inFlight;
        int[] freeWindows;
        int free;
        ArrayDeque<byte[]> backlog;
        int[] expectedMsn;

        Connection(int id, int qp, int remoteLid, int remoteQp) {
            this.id = id;
            this.qp = qp;
            this.remoteLid = remoteLid;
            this.remoteQp = remoteQp;
        }

        public int qp() {
            return qp;
        }

        public int remoteLid() {
            return remoteLid;
        }

        public int remoteQp() {
            return remoteQp;
        }

        /** Messages in flight or waiting for a window. */
        public int pending() {
            return (inFlight == null ? 0 : inFlight.length - free) + (backlog == null ? 0 : backlog.size());
        }

        void sendTables(int windows) {
            if (nextMsn == null) {
                nextMsn = new int[windows];
                inFlight = new byte[windows][];
                freeWindows = new int[windows];
                for (int w = 0; w < windows; w++) {
                    freeWindows[w] = windows - 1 - w;
                }
                free = windows;
                backlog = new ArrayDeque<>(0);
            }
        }

        void recvTable(int windows) {
            if (expectedMsn == null) {
                expectedMsn = new int[windows];
            }
        }
    }

    private final HostEndpoint host;
    private final int windows;
    private final Delivery delivery;
    private final Map<Long, Connection> table = new HashMap<>();
    private final List<Connection> byId = new ArrayList<>();
    private long posted;
    private long completed;
    private long timeouts;
    private long naks;
    private long rnrNaks;
    private long resends;
    private long delivered;
    private long duplicatesDropped;

    public WindowLayer(HostEndpoint host, int windows, Delivery delivery) {
        this(windows, host, delivery);
        host.listener(this);
    }

    private WindowLayer(int windows, HostEndpoint host, Delivery delivery) {
        if (windows < 1 || windows > MAX_WINDOWS) {
            throw new IllegalArgumentException("windows per connection must be in 1.." + MAX_WINDOWS + ", got " + windows);
        }
        this.host = host;
        this.windows = windows;
        this.delivery = delivery;
    }

    /**
     * The connection table of one QP talking to {@code connections} peers, each with its send and receive window
     * tables made (the paper's measurement, section 4.2: one request each way per connection), without hardware.
     * For measuring its memory: {@link XudMemory}.
     */
    static Map<Long, Connection> tableWith(int windows, int connections) {
        WindowLayer l = new WindowLayer(windows, null, null);
        for (int i = 0; i < connections; i++) {
            Connection c = l.connection(0, 1 + i / 65_536, i % 65_536);
            c.sendTables(windows);
            c.recvTable(windows);
        }
        return l.table;
    }

    /** Sends {@code data} exactly once from local {@code qp} to QP {@code remoteQp} at {@code remoteLid}. */
    public void send(int qp, int remoteLid, int remoteQp, byte[] data) {
        Connection c = connection(qp, remoteLid, remoteQp);
        c.sendTables(windows);
        if (c.free > 0) {
            start(c, c.freeWindows[--c.free], data);
        } else {
            c.backlog.addLast(data);
        }
    }

    private void start(Connection c, int w, byte[] data) {
        c.inFlight[w] = data;
        post(c, w);
    }

    private void post(Connection c, int w) {
        posted++;
        host.postSend(c.qp, c.remoteLid, c.remoteQp, Q_KEY, w, Integer.toUnsignedLong(c.nextMsn[w]), c.inFlight[w], wrId(c, w));
    }

    private static long wrId(Connection c, int w) {
        return (long) c.id << 16 | w;
    }

    @Override
    public void onSend(HostEndpoint h, SendCompletion sc) {
        Connection c = byId.get((int) (sc.wrId() >>> 16));
        int w = (int) (sc.wrId() & 0xFFFF);
        if (c.inFlight[w] == null) {
            throw new IllegalStateException("send completion " + sc + " for window " + w + " of connection " + c.id + ", which is idle");
        }
        switch (sc.status()) {
            case SUCCESS -> {
                completed++;
                c.nextMsn[w]++;
                byte[] next = c.backlog.pollFirst();
                if (next != null) {
                    start(c, w, next);
                } else {
                    c.inFlight[w] = null;
                    c.freeWindows[c.free++] = w;
                }
            }
            case TIMEOUT, NAK, RNR_NAK -> {
                if (sc.status() == SendStatus.TIMEOUT) {
                    timeouts++;
                } else if (sc.status() == SendStatus.NAK) {
                    naks++;
                } else {
                    rnrNaks++;
                }
                resends++;
                post(c, w); // same window, same win_msn
            }
            default -> throw new IllegalStateException("local error completion " + sc + ": the window layer built a bad request");
        }
    }

    @Override
    public void onRecv(HostEndpoint h, RecvCompletion rc) {
        Connection c = connection(rc.qp(), rc.slid(), rc.srcQp());
        c.recvTable(windows);
        if (rc.winId() >= windows) {
            throw new IllegalStateException("message for window " + rc.winId() + " of a " + windows + "-window connection: " + rc);
        }
        if ((int) rc.winMsn() == c.expectedMsn[rc.winId()]) {
            c.expectedMsn[rc.winId()]++;
            delivered++;
            delivery.deliver(this, c, rc.winId(), rc.data());
        } else {
            duplicatesDropped++;
        }
    }

    private Connection connection(int qp, int remoteLid, int remoteQp) {
        long key = (long) qp << 40 | (long) remoteLid << 24 | remoteQp;
        Connection c = table.get(key);
        if (c == null) {
            if (byId.size() == MAX_WINDOWS && host != null) {
                throw new IllegalStateException("more than " + MAX_WINDOWS + " connections at one host: the wr_id cannot name them");
            }
            c = new Connection(byId.size(), qp, remoteLid, remoteQp);
            table.put(key, c);
            byId.add(c);
        }
        return c;
    }

    public HostEndpoint host() {
        return host;
    }

    public int windows() {
        return windows;
    }

    /** Connections allocated so far (on first send or first receive). */
    public int connections() {
        return byId.size();
    }

    public Connection connection(int id) {
        return byId.get(id);
    }

    /** Messages in flight or waiting for a window, over all connections. */
    public long pending() {
        long n = 0;
        for (Connection c : byId) {
            n += c.pending();
        }
        return n;
    }

    public long posted() {
        return posted;
    }

    public long completed() {
        return completed;
    }

    public long timeouts() {
        return timeouts;
    }

    public long naks() {
        return naks;
    }

    public long rnrNaks() {
        return rnrNaks;
    }

    public long resends() {
        return resends;
    }

    public long delivered() {
        return delivered;
    }

    public long duplicatesDropped() {
        return duplicatesDropped;
    }
}
