package org.flitkit.rtl.nma;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.flitkit.formats.th2.Crc32c;

/**
 * The boot image read by {@link BootLoader}, in software for host tools and testbenches (docs/th2-eeprom.md,
 * "Boot image"): little-endian magic "TH2C", count, (address 16, value 64) records, CRC-32C.
 */
public final class BootImage {
    /** One register write: {@code address} (at most the chip's register address width) and its 64-bit value. */
    public record Record(int address, long value) {
        public Record {
            if (address < 0 || address > 0xFFFF) {
                throw new IllegalArgumentException("register address 0x" + Integer.toHexString(address) + " exceeds 16 bits");
            }
        }
    }

    private BootImage() {
    }

    /** The image bytes, to be placed at the boot loader's image base. */
    public static byte[] build(List<Record> records) {
        if (records.size() > BootLoader.MAX_RECORDS) {
            throw new IllegalArgumentException(records.size() + " records do not fit the E2PROM (max " + BootLoader.MAX_RECORDS + ")");
        }
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.writeBytes(BootLoader.MAGIC);
        le(o, records.size(), 2);
        for (Record r : records) {
            le(o, r.address(), 2);
            le(o, r.value(), 8);
        }
        byte[] body = o.toByteArray();
        le(o, Crc32c.compute(body), 4);
        return o.toByteArray();
    }

    /** The records of a well-formed image; IllegalArgumentException for a bad magic, length or CRC. */
    public static List<Record> parse(byte[] image) {
        if (image.length < BootLoader.HEADER_BYTES + BootLoader.CRC_BYTES) {
            throw new IllegalArgumentException("image shorter than header + CRC");
        }
        for (int i = 0; i < BootLoader.MAGIC.length; i++) {
            if (image[i] != BootLoader.MAGIC[i]) {
                throw new IllegalArgumentException("bad magic");
            }
        }
        int n = (int) get(image, 4, 2);
        int end = BootLoader.HEADER_BYTES + n * BootLoader.RECORD_BYTES;
        if (end + BootLoader.CRC_BYTES > image.length) {
            throw new IllegalArgumentException("count " + n + " runs past the image");
        }
        byte[] body = java.util.Arrays.copyOf(image, end);
        if ((int) get(image, end, 4) != Crc32c.compute(body)) {
            throw new IllegalArgumentException("CRC mismatch");
        }
        List<Record> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int at = BootLoader.HEADER_BYTES + i * BootLoader.RECORD_BYTES;
            out.add(new Record((int) get(image, at, 2), get(image, at + 2, 8)));
        }
        return out;
    }

    /** {@code image} placed at {@code base} in an otherwise erased (0xFF) E2PROM of {@link I2cEeprom#SIZE} bytes. */
    public static byte[] at(int base, byte[] image) {
        byte[] mem = new byte[I2cEeprom.SIZE];
        java.util.Arrays.fill(mem, (byte) 0xFF);
        System.arraycopy(image, 0, mem, base, image.length);
        return mem;
    }

    private static void le(ByteArrayOutputStream o, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            o.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }

    private static long get(byte[] b, int at, int bytes) {
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v |= (long) (b[at + i] & 0xFF) << (8 * i);
        }
        return v;
    }
}
