package org.flitkit.tools.difftest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Delta-debugging over a {@link Program}: keeps one output, then repeatedly deletes statements (and
 * when-branches) as long as the design still fails. Deletions that break the program (a later
 * statement needs the deleted value) simply fail the predicate and are undone.
 */
final class Shrinker {
    private Shrinker() {
    }

    static Program shrink(Program p, Predicate<Program> fails) {
        Program cur = p;
        List<Program.Stmt> outputs = new ArrayList<>();
        for (Program.Stmt s : cur.stmts) {
            if (s instanceof Program.Output) {
                outputs.add(s);
            }
        }
        for (Program.Stmt keep : outputs) {
            List<Program.Stmt> l = new ArrayList<>();
            for (Program.Stmt s : cur.stmts) {
                if (!(s instanceof Program.Output) || s == keep) {
                    l.add(s);
                }
            }
            Program cand = new Program(l);
            if (fails.test(cand)) {
                cur = cand;
                break;
            }
        }
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int i = cur.stmts.size() - 1; i >= 0; i--) {
                if (cur.stmts.get(i) instanceof Program.Output) {
                    continue;
                }
                for (List<Program.Stmt> variant : variants(cur.stmts, i)) {
                    Program cand = new Program(variant);
                    if (fails.test(cand)) {
                        cur = cand;
                        progress = true;
                        break;
                    }
                }
                if (i > cur.stmts.size()) {
                    i = cur.stmts.size();
                }
            }
        }
        return cur;
    }

    /** Smaller versions of statement i: removed, or a when reduced to one branch's body. */
    private static List<List<Program.Stmt>> variants(List<Program.Stmt> l, int i) {
        List<List<Program.Stmt>> out = new ArrayList<>();
        List<Program.Stmt> removed = new ArrayList<>(l);
        removed.remove(i);
        out.add(removed);
        if (l.get(i) instanceof Program.When w) {
            List<Program.Stmt> flat = new ArrayList<>(l.subList(0, i));
            flat.addAll(w.bodies().get(0));
            flat.addAll(l.subList(i + 1, l.size()));
            out.add(flat);
        }
        return out;
    }
}
