package org.flitkit.hdl;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A memory of {@code depth} words: synchronous write, combinational ({@link #read}) or registered
 * ({@link #readSync}) read, optional initial contents. Out-of-range reads give 0 and out-of-range
 * writes are ignored, in the simulator and in the emitted Verilog alike.
 */
public final class Mem<T extends Bits> {
    /** One write port: enabled when the when-conditions around the write call held. */
    public record Write(Bits addr, Bits data, Bool enable, SrcLoc loc) {
    }

    final int depth;
    final T type;
    String name;
    final Module owner;
    final SrcLoc loc = SrcLoc.here();
    final List<Write> writes = new ArrayList<>();
    BigInteger[] init;

    Mem(int depth, T type, Module owner) {
        if (depth < 1) {
            throw new HdlException("memory depth " + depth + " at " + loc + " must be at least 1");
        }
        if (type.kind != Kind.TYPE) {
            throw new HdlException("memory element type at " + loc + " must be a type such as UInt(8), not hardware");
        }
        this.depth = depth;
        this.type = type;
        this.owner = owner;
    }

    public int depth() {
        return depth;
    }

    public int width() {
        return type.width;
    }

    public boolean isSigned() {
        return type.isSigned();
    }

    public String name() {
        return name;
    }

    public Module owner() {
        return owner;
    }

    public List<Write> writes() {
        return List.copyOf(writes);
    }

    /** Initial contents (unsigned bit patterns), or null. */
    public BigInteger[] initContents() {
        return init == null ? null : init.clone();
    }

    /** Address width: enough bits to reach every word. */
    public int addrWidth() {
        return Math.max(1, 64 - Long.numberOfLeadingZeros(depth - 1L));
    }

    public String path() {
        Namer.nameWhileBuilding(owner);
        return owner.path() + "." + (name == null ? "<unnamed memory from " + loc + ">" : name);
    }

    public Mem<T> named(String n) {
        name = n;
        return this;
    }

    private void checkAddr(Bits addr) {
        addr.requireHardware(SrcLoc.here());
        if (Builder.get("memory access").current() != owner) {
            throw new HdlException("memory " + path() + " accessed at " + SrcLoc.here() + " from outside its module "
                    + owner.path() + "; give the module a port for it");
        }
        if (addr.isSigned()) {
            throw new HdlException("memory address at " + SrcLoc.here() + " must be UInt, got " + addr.shape());
        }
    }

    /** Combinational read. */
    @SuppressWarnings("unchecked")
    public T read(UInt addr) {
        checkAddr(addr);
        T r = (T) Bits.node(type.cloneType(), Op.MEM_READ, 0, 0, addr);
        r.mem = this;
        return r;
    }

    /** Registered read enabled by the enclosing when-conditions: data appears the cycle after. */
    public T readSync(UInt addr) {
        Bool en = owner.conds.peek();
        return readSync(addr, en == null ? Hdl.TRUE() : en);
    }

    /** Registered read with an explicit enable (the output holds its value while disabled). */
    @SuppressWarnings("unchecked")
    public T readSync(UInt addr, Bool enable) {
        checkAddr(addr);
        T r = (T) Bits.node(type.cloneType(), Op.MEM_READ, 0, 0, addr, enable);
        r.kind = Kind.MEM_SYNC_READ;
        r.op = null;
        r.mem = this;
        owner.syncReads.add(r);
        return r;
    }

    /** Writes {@code data} at {@code addr} on the clock edge, when the enclosing when-conditions hold. */
    public void write(UInt addr, Bits data) {
        checkAddr(addr);
        SrcLoc at = SrcLoc.here();
        data.requireHardware(at);
        if (data.isSigned() != type.isSigned() || data.width > type.width) {
            Builder.get("write").error(() -> "memory write at " + at + ": " + data.shape() + " " + data.describe()
                    + " does not fit " + type.shape() + " memory " + path());
            return;
        }
        Builder b = Builder.get("write");
        if (!b.readable(data, owner) || !b.readable(addr, owner) || b.current() != owner) {
            b.error(() -> "memory " + path() + " written at " + at + " from outside its module");
            return;
        }
        Bool en = owner.conds.peek();
        writes.add(new Write(addr, data.extendTo(type.width), en == null ? Hdl.TRUE() : en, at));
    }

    /** Initial contents from index 0 (the rest zero); values are truncated-checked against the width. */
    public Mem<T> init(long... values) {
        BigInteger[] v = new BigInteger[values.length];
        for (int i = 0; i < values.length; i++) {
            v[i] = BigInteger.valueOf(values[i]);
        }
        return init(v);
    }

    public Mem<T> init(BigInteger... values) {
        if (values.length > depth) {
            throw new HdlException("memory " + path() + " at " + SrcLoc.here() + ": " + values.length
                    + " initial values for depth " + depth);
        }
        BigInteger[] v = new BigInteger[depth];
        Arrays.fill(v, BigInteger.ZERO);
        for (int i = 0; i < values.length; i++) {
            v[i] = Hdl.checkFits(values[i], type.width, type.isSigned(), "initial value " + i + " of memory");
        }
        init = v;
        return this;
    }
}
