package org.flitkit.app.demo;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Module;
import org.flitkit.hdl.UInt;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.hdl.lib.Queue;
import org.flitkit.hdl.lib.WidthDeserializer;
import org.flitkit.hdl.lib.WidthSerializer;

/**
 * A narrow serial link carrying wide flits: the serializer cuts each flit into beats, a FIFO buffers the beats
 * (standing in for the wire and its retiming stages), the deserializer reassembles the flits. A serializer link,
 * not a cable model (for that see {@code org.flitkit.fabric.Cable}, docs/cable.md).
 */
public final class SerialLink extends Module {
    public final Decoupled<UInt> in;
    public final Decoupled<UInt> out;
    public final WidthSerializer ser;
    public final Queue<UInt> fifo;
    public final WidthDeserializer deser;

    public SerialLink(int flitWidth, int beatWidth, int fifoDepth) {
        in = input(Decoupled.of(UInt(flitWidth)));
        out = output(Decoupled.of(UInt(flitWidth)));
        ser = instance(new WidthSerializer(flitWidth, beatWidth));
        fifo = instance(new Queue<>(() -> UInt(beatWidth), fifoDepth));
        deser = instance(new WidthDeserializer(flitWidth, beatWidth));

        ser.in.connect(in);
        fifo.enq.connect(ser.out);
        deser.in.connect(fifo.deq);
        out.connect(deser.out);
    }
}
