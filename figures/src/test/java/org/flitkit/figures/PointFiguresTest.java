package org.flitkit.figures;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Point figures run each needed point once and hand the points on in the order the figures named them. */
class PointFiguresTest {
    /**
     * Two figures, the first over points 0, 7, 14, 1, 8, ... (7k mod 20: not the hash order of any set), the second
     * over 3, 25, 7: the raw table lists every point once, in the order first named.
     */
    static final class Squares extends PointFigures<Integer, Integer> {
        final List<Integer> runs = new ArrayList<>();
        List<Integer> tableOrder;

        Squares() {
            Set<Integer> first = new LinkedHashSet<>();
            for (int k = 0; k < 20; k++) {
                first.add(7 * k % 20);
            }
            define(figure("squares-sum"), first, p -> Measurement.of("squares-sum", first.stream().mapToInt(p::get).sum()));
            Set<Integer> second = new LinkedHashSet<>(List.of(3, 25, 7));
            define(figure("squares-some"), second, p -> Measurement.of("squares-some", p.get(25)));
        }

        static Figure figure(String id) {
            return Figure.builder(id, id).from(new Citation("A Paper on Interconnects", "Section 4.1")).paper(PaperValue.of(1), "x").build();
        }

        @Override
        public String name() {
            return "squares";
        }

        @Override
        protected synchronized Integer run(Integer point) {
            runs.add(point);
            return point * point;
        }

        @Override
        protected List<Table> tables(Set<String> ids, Map<Integer, Integer> points) {
            tableOrder = List.copyOf(points.keySet());
            return List.of();
        }
    }

    @Test
    void pointsRunOnceAndKeepTheFiguresOrder() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Squares s = new Squares();
            FigureSource.Results r = s.measure(Set.of("squares-sum", "squares-some"), pool);
            List<Integer> expected = new ArrayList<>();
            for (int k = 0; k < 20; k++) {
                expected.add(7 * k % 20);
            }
            expected.add(25);
            assertThat(s.tableOrder).containsExactlyElementsOf(expected);
            assertThat(s.runs).hasSize(21).doesNotHaveDuplicates();
            assertThat(r.measurements()).extracting(Measurement::value).containsExactly(2470.0, 625.0);
        } finally {
            pool.shutdownNow();
        }
    }
}
