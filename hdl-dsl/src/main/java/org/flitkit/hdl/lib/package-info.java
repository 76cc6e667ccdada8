/**
 * The standard library of the FlitKit HDL, in the spirit of chisel3.util. Streams:
 * {@link org.flitkit.hdl.lib.Decoupled} (ready/valid, with SpinalHDL-style stream operators such as
 * {@code m2sPipe}, {@code fork} and {@code join}), {@link org.flitkit.hdl.lib.Valid} (valid only),
 * {@link org.flitkit.hdl.lib.Queue} (FIFO with pipe/flow, options by name), {@link org.flitkit.hdl.lib.SkidBuffer} (a stage
 * registering both valid and ready), {@link org.flitkit.hdl.lib.Arbiter} and
 * {@link org.flitkit.hdl.lib.RRArbiter} (with a packet {@link org.flitkit.hdl.lib.Lock}), {@link org.flitkit.hdl.lib.WeightedRRArbiter},
 * {@link org.flitkit.hdl.lib.WidthSerializer} and {@link org.flitkit.hdl.lib.WidthDeserializer}. State:
 * {@link org.flitkit.hdl.lib.Counter} (wrapping, saturating, up/down), {@link org.flitkit.hdl.lib.Lfsr},
 * {@link org.flitkit.hdl.lib.Fsm} (state names in GTKWave).
 * Combinational functions: {@link org.flitkit.hdl.lib.OneHot} (UIntToOH, OHToUInt, PriorityEncoder),
 * {@link org.flitkit.hdl.lib.Bitwise} (PopCount, Reverse, log2Ceil). {@link org.flitkit.hdl.lib.Types}
 * packs any Data to bits and back. Chisel's Mux1H, MuxLookup, PriorityMux and ShiftRegister are in
 * {@link org.flitkit.hdl.Hdl}, with mux and RegNext.
 *
 * <p>Blocks with stream ports are {@link org.flitkit.hdl.Module}s (instantiate with {@code instance(...)});
 * the rest build hardware in the module under construction, like Chisel's util objects.
 */
package org.flitkit.hdl.lib;
