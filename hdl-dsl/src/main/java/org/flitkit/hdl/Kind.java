package org.flitkit.hdl;

/** What a ground signal is in the netlist. */
public enum Kind {
    /** not hardware yet: a type template waiting for input()/output()/wire()/reg() */
    TYPE,
    LIT, OP, INPUT, OUTPUT, WIRE, REG,
    /** the registered output of a synchronous memory read */
    MEM_SYNC_READ;

    public boolean isPort() {
        return this == INPUT || this == OUTPUT;
    }
}
