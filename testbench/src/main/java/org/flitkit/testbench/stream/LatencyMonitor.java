package org.flitkit.testbench.stream;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.testbench.Component;

/**
 * Request-to-answer latency of a design that answers
 * in order. Every answer taken on the answer port is paired with the oldest request taken on the request
 * port and recorded with the cycles from that request's handshake to the first cycle the answer was
 * offered (valid high), so backpressure on the answer is not counted. Watches only; drives nothing.
 */
public final class LatencyMonitor extends Component {
    /** An answer and the cycles from its request's handshake to the answer's first valid cycle. */
    public record Answer(BigInteger beat, long cycles) {
    }

    private final StreamPort request;
    private final StreamPort answer;
    private final ArrayDeque<Long> accepted = new ArrayDeque<>();
    private final List<Answer> answers = new ArrayList<>();
    private long offeredSince = -1;

    public LatencyMonitor(String name, StreamPort request, StreamPort answer) {
        super(name);
        this.request = request;
        this.answer = answer;
    }

    /** The answers so far, in the order they were taken. */
    public List<Answer> answers() {
        return answers;
    }

    /**
     * Sends each request through {@code source} alone, waiting up to {@code timeout} cycles for its answer
     * before the next, so that no latency includes waiting behind another request; returns their answers.
     */
    public List<Answer> oneAtATime(StreamSource source, List<BigInteger> requests, long timeout) {
        int first = answers.size();
        for (int i = 0; i < requests.size(); i++) {
            source.send(requests.get(i));
            int n = first + i + 1;
            tb().runUntil("the answer to request " + i + " on " + answer.name(), () -> answers.size() == n, timeout);
        }
        return List.copyOf(answers.subList(first, answers.size()));
    }

    @Override
    protected void reset() {
        accepted.clear();
        offeredSince = -1;
    }

    @Override
    protected void sample() {
        if (sim().peek(request.valid()) != 0 && sim().peek(request.ready()) != 0) {
            accepted.add(cycle());
        }
        if (sim().peek(answer.valid()) == 0) {
            offeredSince = -1;
            return;
        }
        if (offeredSince < 0) {
            offeredSince = cycle();
        }
        if (sim().peek(answer.ready()) != 0) {
            Long at = accepted.poll();
            if (at == null) {
                throw fail(answer.name() + ": an answer was taken while no request on " + request.name() + " was outstanding");
            }
            answers.add(new Answer(answer.peekBits(sim()), offeredSince - at));
            offeredSince = -1;
        }
    }
}
