package org.flitkit.hdl;

/** Primitive operations of the netlist. Operand conventions are given per constant. */
public enum Op {
    ADD, SUB, MUL, DIV, REM, NEG,
    AND, OR, XOR, NOT,
    /** static shift by {@code p0} */ SHL, SHR,
    /** shift by a hardware amount (args[1]) */ DSHL, DSHR,
    EQ, NE, LT, LE, GT, GE,
    ANDR, ORR, XORR,
    /** bits p0 (hi) .. p1 (lo) of args[0] */ SLICE,
    /** args[0] is the most significant part */ CAT,
    /** args = {cond, whenTrue, whenFalse} */ MUX,
    /** args = {index, e0, e1, ...}; 0 when index is out of range */ SEL,
    /** zero- or sign-extend (by the operand's signedness) or reinterpret to the node's width */ EXT,
    /** reinterpret the bits as unsigned / signed, same width */ AS_UINT, AS_SINT,
    /** asynchronous (combinational) memory read, args = {addr}; 0 when out of range */ MEM_READ;

    public boolean isCompare() {
        return this == EQ || this == NE || this == LT || this == LE || this == GT || this == GE;
    }

    public boolean isReduce() {
        return this == ANDR || this == ORR || this == XORR;
    }
}
