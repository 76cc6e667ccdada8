package org.flitkit.hdl.verilog;

import java.util.Set;

/** Verilog identifiers: keyword escaping and the names Verilator flags as C++ keywords. */
final class Idents {
    /**
     * IEEE 1800-2017 keywords. Verilator reads .v files as SystemVerilog by default, so a signal named
     * {@code type} or {@code ref} must be written as an escaped identifier.
     */
    private static final Set<String> SV_KEYWORDS = Set.of(("accept_on alias always always_comb always_ff always_latch and "
            + "assert assign assume automatic before begin bind bins binsof bit break buf bufif0 bufif1 byte case casex "
            + "casez cell chandle checker class clocking cmos config const constraint context continue cover covergroup "
            + "coverpoint cross deassign default defparam design disable dist do edge else end endcase endchecker "
            + "endclass endclocking endconfig endfunction endgenerate endgroup endinterface endmodule endpackage "
            + "endprimitive endprogram endproperty endspecify endsequence endtable endtask enum event eventually expect "
            + "export extends extern final first_match for force foreach forever fork forkjoin function generate genvar "
            + "global highz0 highz1 if iff ifnone ignore_bins illegal_bins implements implies import incdir include "
            + "initial inout input inside instance int integer interconnect interface intersect join join_any join_none "
            + "large let liblist library local localparam logic longint macromodule matches medium modport module nand "
            + "negedge nettype new nexttime nmos nor noshowcancelled not notif0 notif1 null or output package packed "
            + "parameter pmos posedge primitive priority program property protected pull0 pull1 pulldown pullup "
            + "pulsestyle_ondetect pulsestyle_onevent pure rand randc randcase randsequence rcmos real realtime ref reg "
            + "reject_on release repeat restrict return rnmos rpmos rtran rtranif0 rtranif1 s_always s_eventually "
            + "s_nexttime s_until s_until_with scalared sequence shortint shortreal showcancelled signed small soft "
            + "solve specify specparam static string strong strong0 strong1 struct super supply0 supply1 sync_accept_on "
            + "sync_reject_on table tagged task this throughout time timeprecision timeunit tran tranif0 tranif1 tri "
            + "tri0 tri1 triand trior trireg type typedef union unique unique0 unsigned until until_with untyped use "
            + "uwire var vectored virtual void wait wait_order wand weak weak0 weak1 while wildcard wire with within "
            + "wor xnor xor").split(" "));

    /**
     * Names Verilator 5 reports as SYMRSVDWORD ("Symbol matches C++ keyword"), found by linting each
     * candidate; the declaration of such a signal gets a targeted lint_off.
     */
    private static final Set<String> CPP_KEYWORDS = Set.of(("alignas alignof and_eq atomic_cancel atomic_commit "
            + "atomic_noexcept auto bitand bitor bool catch char char16_t char32_t compl concept constexpr decltype "
            + "delete double dynamic_cast explicit false float friend goto inline long mutable namespace noexcept not_eq "
            + "operator or_eq private public register requires short sizeof static_assert static_cast switch "
            + "synchronized template thread_local throw true try typeid typename using volatile wchar_t xor_eq pascal "
            + "class struct union virtual protected new const static do break continue return int void enum typedef "
            + "extern export signed unsigned if else for while case default this").split(" "));

    private Idents() {
    }

    /** The identifier as written in Verilog: plain, or escaped ({@code \type }) when it is a keyword. */
    static String id(String name) {
        if (name.matches("[A-Za-z_][A-Za-z0-9_$]*") && !SV_KEYWORDS.contains(name)) {
            return name;
        }
        if (!name.matches("[!-~]+")) {
            throw new IllegalArgumentException("name '" + name + "' cannot be written as a Verilog identifier");
        }
        return "\\" + name + " ";
    }

    /** True when Verilator warns SYMRSVDWORD for a symbol of this name. */
    static boolean isCppKeyword(String name) {
        return CPP_KEYWORDS.contains(name);
    }

    /** A legal, unescaped module name derived from {@code name}. */
    static String moduleName(String name) {
        String s = name.replaceAll("[^A-Za-z0-9_]", "_");
        if (s.isEmpty() || !Character.isLetter(s.charAt(0)) && s.charAt(0) != '_') {
            s = "M_" + s;
        }
        if (SV_KEYWORDS.contains(s) || CPP_KEYWORDS.contains(s)) {
            s = s + "_";
        }
        return s;
    }
}
