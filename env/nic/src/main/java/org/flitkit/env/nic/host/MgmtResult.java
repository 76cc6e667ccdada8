package org.flitkit.env.nic.host;

import org.flitkit.formats.th2.DescError;
import org.flitkit.formats.th2.ErrorCode;
import org.flitkit.formats.th2.ManagementPacket;

/**
 * What {@link MgmtEndpoint#receive} returns for one TransactionID (the analogue of GLEX's
 * {@code glex_receive_mgmt_ack} results): the response, the target's error response, the NIC's refusal of
 * the descriptor, the answer dropped at a full MPQ, or a timeout. Latencies are cycles from the doorbell
 * write to the response being visible in the MPQ.
 */
public sealed interface MgmtResult {
    int tid();

    /** A normal response. */
    record Ok(int tid, ManagementPacket response, long latency) implements MgmtResult {
    }

    /** An error response from the target (why the request failed, and which access). */
    record Error(int tid, ManagementPacket response, ErrorCode code, int index, long latency) implements MgmtResult {
    }

    /** The NIC found the descriptor malformed (Err) and sent nothing. */
    record Refused(int tid, DescError reason) implements MgmtResult {
    }

    /** The answer arrived but the VP's MPQ was full: dropped by the NIC (MPQ_OVERFLOW event). */
    record Dropped(int tid) implements MgmtResult {
    }

    /** Nothing within the timeout. */
    record Timeout(int tid, long waited) implements MgmtResult {
    }
}
