package org.flitkit.hdl;

import java.util.ArrayList;
import java.util.List;

/** The statements of a module body: connections nested in when-blocks (lowered to muxes at elaboration). */
sealed interface Stmt {
    record Connect(Bits target, Bits value, SrcLoc loc) implements Stmt {
    }

    /** when/elsewhen chain: branch i applies when conds[i] holds and no earlier one did. */
    final class When implements Stmt {
        final List<Bool> conds = new ArrayList<>();
        final List<Block> blocks = new ArrayList<>();
        Block otherwise;
    }

    final class Block {
        final List<Stmt> stmts = new ArrayList<>();

        void add(Stmt s) {
            stmts.add(s);
        }

        Stmt last() {
            return stmts.isEmpty() ? null : stmts.get(stmts.size() - 1);
        }
    }
}
