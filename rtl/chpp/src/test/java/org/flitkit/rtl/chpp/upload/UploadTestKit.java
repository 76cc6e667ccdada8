package org.flitkit.rtl.chpp.upload;

import org.flitkit.rtl.chpp.BeatSource;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.chpp.HeaderLayout;
import org.flitkit.formats.chpp.ReceiveCompletion;
import org.flitkit.hdl.lib.Decoupled;
import org.flitkit.env.host.PcieHost;
import org.flitkit.rtl.pcie.DmaRequest;
import org.flitkit.testbench.Component;
import org.flitkit.testbench.Rng;

/**
 * Verification pieces of the upload tests: packet building in wire order (driven by a {@link BeatSource}), a
 * hold-rule check on a DMA request port, and the reference split of a payload into posted writes.
 */
public final class UploadTestKit {
    static final HeaderLayout.Header H = HeaderLayout.HEADER;

    private UploadTestKit() {
    }

    /** One packet as beats: the header, then the payload 16 bytes per beat in wire order (byte 0 in bits 127:120). */
    public static List<BigInteger> packet(BigInteger header, byte[] payload, Rng padding) {
        List<BigInteger> beats = new ArrayList<>();
        beats.add(header);
        for (int off = 0; off < payload.length; off += 16) {
            byte[] b = new byte[16];
            int n = Math.min(16, payload.length - off);
            System.arraycopy(payload, off, b, 0, n);
            if (padding != null) {
                // the bytes past the payload are not the block's to write: garbage there must not reach memory
                for (int i = n; i < 16; i++) {
                    b[i] = (byte) padding.nextInt(256);
                }
            }
            beats.add(new BigInteger(1, b));
        }
        return beats;
    }

    public static byte[] bytes(Rng r, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        return b;
    }

    /** A receive completion entry (one 128-bit beat, PCIe byte order) decoded by formats/chpp. */
    static ReceiveCompletion entry(BigInteger beat) {
        return ReceiveCompletion.decode(PcieHost.littleEndian(beat, 16));
    }

    /** A posted write as the rules say a payload must be cut: at Max_Payload_Size address boundaries. */
    public record Piece(long addr, int len) {
    }

    public static List<Piece> split(long addr, int len, int mps) {
        List<Piece> out = new ArrayList<>();
        int off = 0;
        while (off < len) {
            long a = addr + off;
            int n = (int) Math.min(len - off, mps - Math.floorMod(a, mps));
            out.add(new Piece(a, n));
            off += n;
        }
        return out;
    }

    /** Checks the Decoupled hold rule on a DMA request port every cycle. */
    static final class HoldCheck extends Component {
        final Decoupled<DmaRequest> port;
        private List<BigInteger> held;

        HoldCheck(String name, Decoupled<DmaRequest> port) {
            super(name);
            this.port = port;
        }

        @Override
        protected void sample() {
            boolean valid = sim().peekBool(port.valid);
            DmaRequest r = port.bits;
            List<BigInteger> now = valid ? List.of(BigInteger.valueOf(sim().peek(r.write)), BigInteger.valueOf(sim().peek(r.addr)),
                    BigInteger.valueOf(sim().peek(r.len)), sim().peekBig(r.data), BigInteger.valueOf(sim().peek(r.last))) : null;
            if (held != null && !held.equals(now)) {
                throw fail("an offered DMA request beat changed or vanished before it was taken (Decoupled hold rule): " + held + " -> " + now);
            }
            held = valid && !sim().peekBool(port.ready) ? now : null;
        }
    }
}
