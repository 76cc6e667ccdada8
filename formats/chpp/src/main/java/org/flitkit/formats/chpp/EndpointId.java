package org.flitkit.formats.chpp;

import org.flitkit.formats.core.BitVector;
import org.flitkit.formats.core.Field;
import org.flitkit.formats.core.Format;

/**
 * SRC_ID / DST_ID of the header (paper section 3.2: processor, virtual function and queue pair): 8 bits,
 * processor 7:5 (8 processors), function 4:2 (0 = PF, 1..7 = VF1..VF7), QP 1:0 (4 per function).
 */
public record EndpointId(int processor, int function, int qp) {

    /** The 8-bit ID layout. */
    public static final Layout LAYOUT = new Layout();

    public EndpointId {
        ChppBits.range("processor", processor, Chpp.PROCESSORS - 1);
        ChppBits.range("function", function, Chpp.FUNCTIONS - 1);
        ChppBits.range("QP", qp, Chpp.QPS - 1);
    }

    public int encode() {
        return (int) LAYOUT.zero().with(LAYOUT.PROCESSOR, processor).with(LAYOUT.FUNCTION, function)
                .with(LAYOUT.QP, qp).get(new Field("id", 0, Chpp.ID_BITS));
    }

    /** Every 8-bit value is an ID. */
    public static EndpointId decode(long id) {
        ChppBits.range("ID", id, (1 << Chpp.ID_BITS) - 1);
        BitVector v = BitVector.ofLong(Chpp.ID_BITS, id);
        return new EndpointId((int) v.get(LAYOUT.PROCESSOR), (int) v.get(LAYOUT.FUNCTION), (int) v.get(LAYOUT.QP));
    }

    @Override
    public String toString() {
        return "P" + processor + (function == 0 ? ".PF" : ".VF" + function) + ".QP" + qp;
    }

    /** The fields of an ID. */
    public static final class Layout extends Format {
        public final Field QP = field("QP", 0, Chpp.QP_BITS, "queue pair of the function, 0..3");
        public final Field FUNCTION = field("Function", Chpp.QP_BITS, Chpp.FUNCTION_BITS, "PCIe function: 0 = PF, 1..7 = VF1..VF7");
        public final Field PROCESSOR = field("Processor", Chpp.QP_BITS + Chpp.FUNCTION_BITS, Chpp.PROCESSOR_BITS,
                "processor of the super-node, 0..7");

        private Layout() {
            super("endpoint-id", Chpp.ID_BITS, Place.ALONE);
        }
    }
}
