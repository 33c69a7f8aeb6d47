package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FrameFields;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * dissect -x: after what the inner sink prints (the -P summary line or the -V tree, or nothing), the hex and ASCII
 * dump of the frame's captured bytes in tshark's layout, byte for byte: {@code 0000  02 00 ... 45 6a   ......Ej},
 * 16 bytes a line, then an empty line. As in tshark 4, a summary line is followed by an empty line before the dump
 * (the -V tree already ends with one).
 */
final class HexDump implements DissectCommand.FrameSink {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private final ByteOut out;
    private final DissectCommand.FrameSink inner;
    private final boolean blankAfterInner;
    private final byte[] line = new byte[16];

    /** @param inner what to print before each dump, or null; blankAfterInner: an empty line between them */
    HexDump(ByteOut out, DissectCommand.FrameSink inner, boolean blankAfterInner) {
        this.out = out;
        this.inner = inner;
        this.blankAfterInner = blankAfterInner;
    }

    @Override
    public void batch(FrameBatch batch) {
        if (inner != null) inner.batch(batch);
    }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        if (inner != null) {
            inner.frame(d, ff);
            if (blankAfterInner) out.ch('\n');
        }
        dump(out, d.data(), d.capturedLength(), line);
        out.ch('\n');
    }

    /**
     * The dump lines of the first {@code length} bytes of {@code data}. The offset has 4 hex digits, more when the
     * frame is longer than 64 KiB (as tshark widens it).
     */
    static void dump(ByteOut out, MemorySegment data, int length, byte[] line) {
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
