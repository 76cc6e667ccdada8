package org.flitkit.tools.sweep;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A stand-in for {@code ./hdl sweep-point STORE INDEX} in the Slurm executor's tests: point 1 fails on its first run
 * only, point 2 on every run, the others give x and x*x.
 */
public final class TestPointMain {
    private TestPointMain() {
    }

    public static void main(String[] args) throws Exception {
        if (!args[0].equals("sweep-point")) {
            throw new IllegalArgumentException(args[0]);
        }
        SweepStore store = SweepStore.open(Path.of(args[1]));
        int index = Integer.parseInt(args[2]);
        boolean ok = new PointTask((p, log) -> {
            Path marker = store.dir().resolve("ran-" + p.index());
            boolean first = !Files.exists(marker);
            try {
                Files.writeString(marker, "x");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            if (p.index() == 2 || (p.index() == 1 && first)) {
                throw new IllegalStateException("point " + p.index() + " fails" + (first ? " the first time" : " again"));
            }
            long x = p.longParam("x");
            return new PointRunner.Result(List.of("x", "sq"), new double[] {x, x * x});
        }, "1.0").run(store, index, System.out);
        System.exit(ok ? 0 : 1);
    }
}
