package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.HexDumpLines;

/**
 * dissect -x: after what the inner sink prints (the -P summary line or the -V tree, or nothing), the hex and ASCII
 * dump of the frame's captured bytes in tshark's layout, byte for byte: {@code 0000  02 00 ... 45 6a   ......Ej},
 * 16 bytes a line, then an empty line. As in tshark 4, a summary line is followed by an empty line before the dump
 * (the -V tree already ends with one). The lines are {@link HexDumpLines}'s (the GUI copies the same).
 */
final class HexDump implements DissectCommand.FrameSink {
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
        HexDumpLines.dump(out, d.data(), d.capturedLength(), line);
        out.ch('\n');
    }
}
