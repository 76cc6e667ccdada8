/**
 * Verilog-2001 output of an elaborated {@link org.flitkit.hdl.Circuit}.
 *
 * <pre>{@code
 * Circuit c = Circuit.elaborate(Top::new);
 * VerilogEmitter.Result r = new VerilogEmitter().emitResult(c);    // file name -> text, top module name
 * List<Path> files = new VerilogEmitter().write(c, Path.of("build/verilog"));
 * VerilogTools.Result lint = VerilogTools.verilatorLint(files, r.topModule());   // tools/synth
 * assert lint.clean();                                              // exit 0, nothing printed
 * }</pre>
 *
 * <p>The emitted code computes exactly the simulator's semantics under Verilator and Icarus: values
 * are bit patterns of their node's width, signed where the DSL type is signed; division and remainder
 * by zero give 0; reads past the end of a memory or a Vec give 0, writes past the end are ignored;
 * registers and memories start at 0 (memories at their initial contents); the reset is synchronous
 * and active high. See {@link org.flitkit.hdl.verilog.VerilogEmitter} for naming and lint conventions.
 */
package org.flitkit.hdl.verilog;
