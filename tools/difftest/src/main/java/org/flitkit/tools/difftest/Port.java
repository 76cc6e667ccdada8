package org.flitkit.tools.difftest;

/** A top-level port as the reference simulators see it: Verilog name, width, direction. */
public record Port(String name, int width, boolean input) {
    /** 32-bit words Verilator uses for a port wider than 64 bits. */
    int words() {
        return (width + 31) / 32;
    }

    /** Verilator's C++ type for the port. */
    String cppType() {
        return width <= 8 ? "CData" : width <= 16 ? "SData" : width <= 32 ? "IData" : width <= 64 ? "QData" : "VlWide<" + words() + ">";
    }
}
