package org.flitkit.hdl.sim;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the bytecode length of every method in a class file (to check the JIT's 8,000-byte limit). */
final class ClassFileSizes {
    private ClassFileSizes() {
    }

    static Map<String, Integer> methodCodeSizes(byte[] classFile) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
            in.readInt();
            in.readUnsignedShort();
            in.readUnsignedShort();
            int cpCount = in.readUnsignedShort();
            String[] utf8 = new String[cpCount];
            for (int i = 1; i < cpCount; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 3, 4 -> in.readInt();
                    case 5, 6 -> {
                        in.readLong();
                        i++;
                    }
                    case 7, 8, 16, 19, 20 -> in.readUnsignedShort();
                    case 9, 10, 11, 12, 17, 18 -> in.readInt();
                    case 15 -> {
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    default -> throw new IOException("constant pool tag " + tag);
                }
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            in.readUnsignedShort();
            int ifaces = in.readUnsignedShort();
            in.skipNBytes(2L * ifaces);
            int fields = in.readUnsignedShort();
            for (int i = 0; i < fields; i++) {
                in.skipNBytes(6);
                skipAttributes(in);
            }
            Map<String, Integer> sizes = new LinkedHashMap<>();
            int methods = in.readUnsignedShort();
            for (int i = 0; i < methods; i++) {
                in.readUnsignedShort();
                String name = utf8[in.readUnsignedShort()];
                in.readUnsignedShort();
                int attrs = in.readUnsignedShort();
                for (int a = 0; a < attrs; a++) {
                    String an = utf8[in.readUnsignedShort()];
                    int len = in.readInt();
                    if (an.equals("Code")) {
                        in.readUnsignedShort();
                        in.readUnsignedShort();
                        int codeLen = in.readInt();
                        sizes.merge(name, codeLen, Math::max);
                        in.skipNBytes(len - 8L);
                    } else {
                        in.skipNBytes(len);
                    }
                }
            }
            return sizes;
        } catch (IOException e) {
            throw new IllegalStateException("unreadable class file: " + e.getMessage(), e);
        }
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int attrs = in.readUnsignedShort();
        for (int a = 0; a < attrs; a++) {
            in.readUnsignedShort();
            in.skipNBytes(in.readInt());
        }
    }
}
