package org.flitkit.waves;

import java.util.ArrayList;
import java.util.List;

/**
 * One {@code $scope module} in the VCD hierarchy, typically a hardware module instance. Scopes only
 * collect declarations; the header is written in one go when simulation time starts, which lets
 * callers declare signals and sub-scopes in any order.
 */
public final class Scope {
    /** A declared variable as it appears in the header. */
    record Var(String name, String kind, int width, int id) {
    }

    private final VcdWriter writer;
    private final String name;
    private final String path;
    private final NameTable names;
    private final List<Var> vars = new ArrayList<>();
    private final List<Scope> children = new ArrayList<>();

    Scope(VcdWriter writer, String name, String parentPath) {
        this.writer = writer;
        this.name = name;
        this.path = parentPath == null ? name : parentPath + "." + name;
        this.names = new NameTable("scope '" + path + "'");
    }

    /** Declares a nested module instance; its name shares this scope's namespace with signals. */
    public Scope child(String name) {
        writer.checkDeclaring();
        Scope child = new Scope(writer, names.claim(name), path);
        children.add(child);
        return child;
    }

    /** Declares a {@code wire} of {@code width} bits and returns the handle for {@link VcdWriter#value}. */
    public int wire(String name, int width) {
        return declare("wire", name, width);
    }

    /** Declares a {@code reg} (state element) of {@code width} bits; same handle semantics as {@link #wire}. */
    public int reg(String name, int width) {
        return declare("reg", name, width);
    }

    /** The sanitised dotted path from the root, e.g. {@code top.fifo}, as viewers display it. */
    public String path() {
        return path;
    }

    private int declare(String kind, String rawName, int width) {
        writer.checkDeclaring();
        if (width < 1) {
            throw new IllegalArgumentException("width of '" + path + "." + rawName + "' must be >= 1, got " + width);
        }
        String varName = names.claim(rawName);
        int id = writer.allocate(width);
        vars.add(new Var(varName, kind, width, id));
        return id;
    }

    String name() {
        return name;
    }

    List<Var> vars() {
        return vars;
    }

    List<Scope> children() {
        return children;
    }
}
