package io.metaroce.dissector;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A frame's bytes as tshark -x prints them, byte for byte: {@code 0000  02 00 ... 45 6a   ......Ej}, 16 bytes a
 * line. Shared by {@code dissect -x} and the GUI's Copy > Bytes as Hex Dump, so that what a user pastes from the
 * GUI is what the CLI prints for the same frame.
 */
public final class HexDumpLines {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private HexDumpLines() { }

    /**
     * The dump lines of the first {@code length} bytes of {@code data}; line is a 16-byte scratch buffer. The offset
     * has 4 hex digits, more when the frame is longer than 64 KiB (as tshark widens it).
     */
    public static void dump(ByteOut out, MemorySegment data, int length, byte[] line) {
        int digits = length <= 0x10000 ? 4 : length <= 0x1000000 ? 6 : 8;
        for (int at = 0; at < length; at += 16) {
            int n = Math.min(16, length - at);
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, at, line, 0, n);
            for (int s = (digits - 1) * 4; s >= 0; s -= 4) out.ch((char) HEX[(at >>> s) & 0xF]);
            out.ch(' ');
            for (int i = 0; i < 16; i++) {
                if (i < n) out.ch(' ').ch((char) HEX[(line[i] >> 4) & 0xF]).ch((char) HEX[line[i] & 0xF]);
                else out.ascii("   ");
            }
            out.ascii("   ");
            for (int i = 0; i < n; i++) {
                int b = line[i] & 0xFF;
                out.ch(b >= 0x20 && b < 0x7F ? (char) b : '.');
            }
            out.ch('\n');
        }
    }
}
