package io.metaroce.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Fits text tables to the terminal: a line wider than the terminal is cut and ends in '>' (as {@code less -S}
 * shows it) instead of wrapping into the next row, which makes a table unreadable; a note at the end says so.
 * Used only when the width is known ({@link Terminal#columns()}), so a pipe or a file gets whole lines, and
 * never for {@code -T json}. Works on UTF-8 bytes, counting characters (not continuation bytes).
 */
final class FitWidth extends OutputStream {
    private final OutputStream out;
    private final int width;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private int chars, cutAt = -1;
    private boolean cut;

    FitWidth(OutputStream out, int width) {
        this.out = out;
        this.width = width;
    }

    @Override
    public void write(int b) throws IOException {
        if (b == '\n') {
            endLine();
            return;
        }
        if ((b & 0xC0) != 0x80) {
            chars++;
            if (chars == width) cutAt = line.size(); // where a '>' replaces the rest, should the line be too long
        }
        line.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) write(b[i]);
    }

    private void endLine() throws IOException {
        if (chars > width) {
            out.write(line.toByteArray(), 0, cutAt);
            out.write('>');
            cut = true;
        } else {
            line.writeTo(out);
        }
        out.write('\n');
        line.reset();
        chars = 0;
        cutAt = -1;
    }

    /** Ends the output: the last line, and a note when lines were cut. Does not close what is underneath. */
    void finish() throws IOException {
        if (line.size() > 0) endLine();
        if (cut) out.write(("(lines cut to " + width + " columns at '>'; pipe the output for whole lines)\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        cut = false;
        out.flush();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
