package io.metaroce.gui;

import java.util.function.IntConsumer;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.ScrollPane;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.Text;

/**
 * The bytes pane: offset, 16 bytes in hex, the same bytes as ASCII, drawn on a Canvas (a frame of 9 KB would be
 * 18,000 labels as nodes). A byte range is highlighted ({@link #highlight}); a click on a byte, in the hex or the
 * ASCII part, reports its offset ({@link #setOnByteClicked}).
 */
final class HexPane extends ScrollPane {
    static final int PER_LINE = 16;
    private static final Color HIGHLIGHT = Color.web("#3d7fd9"), FIELD_TEXT = Color.WHITE, TEXT = Color.web("#202020"),
            OFFSET = Color.web("#808080");

    private final Canvas canvas = new Canvas();
    static final double FONT_SIZE = 12;
    private Font font;
    private double cw, lh;
    private byte[] data = new byte[0];
    private int hiFrom = -1, hiLen;
    private IntConsumer onClick = b -> { };

    HexPane() {
        setId("hex-pane");
        setFontSize(FONT_SIZE);
        setContent(canvas);
        setFitToWidth(false);
        canvas.setOnMouseClicked(e -> {
            int b = byteAt(e.getX(), e.getY());
            if (b >= 0) onClick.accept(b);
        });
        redraw();
    }

    void setOnByteClicked(IntConsumer c) { onClick = c; }

    /** The monospaced font's size (View > Zoom): the character cell and the line height follow it. */
    void setFontSize(double size) {
        font = Font.font("Monospaced", size);
        Text probe = new Text("0123456789");
        probe.setFont(font);
        cw = probe.getLayoutBounds().getWidth() / 10;
        lh = Math.ceil(probe.getLayoutBounds().getHeight()) + 2;
        redraw();
    }

    double fontSize() { return font.getSize(); }

    void show(byte[] bytes) {
        data = bytes == null ? new byte[0] : bytes;
        hiFrom = -1;
        hiLen = 0;
        redraw();
        setVvalue(0);
    }

    /** Highlights bytes [from, from + length); nothing when from < 0. */
    void highlight(int from, int length) {
        hiFrom = from;
        hiLen = Math.max(0, length);
        redraw();
        if (from >= 0 && data.length > 0) {
            double y = (from / PER_LINE) * lh;
            double h = canvas.getHeight() - getViewportBounds().getHeight();
            if (h > 0) setVvalue(Math.max(0, Math.min(1, (y - lh) / h)));
        }
    }

    int highlightFrom() { return hiFrom; }

    int highlightLength() { return hiLen; }

    byte[] data() { return data; }

    /** The x of a byte's hex digits and the y of its line (for clicks in tests). */
    double hexX(int b) { return (6 + 3 * (b % PER_LINE) + (b % PER_LINE >= 8 ? 1 : 0)) * cw + cw; }

    double asciiX(int b) { return (6 + 3 * PER_LINE + 2 + (b % PER_LINE)) * cw + cw / 2; }

    double lineY(int b) { return (b / PER_LINE) * lh + lh / 2; }

    Canvas canvas() { return canvas; }

    /** The byte under a point of the canvas, or -1. */
    int byteAt(double x, double y) {
        int line = (int) (y / lh);
        int col = (int) (x / cw);
        int inLine;
        int hexStart = 6, asciiStart = 6 + 3 * PER_LINE + 2;
        if (col >= hexStart && col < hexStart + 3 * PER_LINE + 1) {
            int c = col - hexStart;
            if (c >= 3 * 8) c -= 1;      // the gap after the 8th byte
            inLine = c / 3;
        } else if (col >= asciiStart && col < asciiStart + PER_LINE) inLine = col - asciiStart;
        else return -1;
        int b = line * PER_LINE + inLine;
        return inLine >= 0 && inLine < PER_LINE && b < data.length ? b : -1;
    }

    /**
     * Sizes the canvas now (the scroll position depends on it) and draws it once, in the layout pass of this pulse:
     * selecting a frame clears the tree's selection (no highlight), then shows the bytes; the canvas would
     * otherwise hold, and the renderer replay, both drawings.
     */
    private void redraw() {
        int lines = Math.max(1, (data.length + PER_LINE - 1) / PER_LINE);
        canvas.setWidth((6 + 3 * PER_LINE + 2 + PER_LINE + 2) * cw);
        canvas.setHeight(lines * lh + 4);
        stale = true;
        requestLayout();
    }

    private boolean stale;

    @Override
    protected void layoutChildren() {
        if (stale) {
            stale = false;
            paint();
        }
        super.layoutChildren();
    }

    /**
     * Draws the bytes a run of text at a time (a line's hex, its ASCII, each cut where the highlight starts and
     * ends), not a text per byte: the software pipeline rasterises each text on its own, and a 1 KB frame is 2,000
     * texts per byte against about 130 per line. The texts come from tables, not from a formatter per byte.
     */
    private void paint() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, canvas.getWidth(), canvas.getHeight());
        g.setFont(font);
        g.setTextBaseline(VPos.TOP);
        StringBuilder hex = new StringBuilder(3 * PER_LINE + 1), ascii = new StringBuilder(PER_LINE);
        for (int line = 0; line * PER_LINE < data.length; line++) {
            int from = line * PER_LINE, to = Math.min(data.length, from + PER_LINE);
            double y = line * lh + 1;
            g.setFill(OFFSET);
            g.fillText(OFFSETS.length > line ? OFFSETS[line] : String.format("%04x", from), 0, y);
            // Segments [from, a), [a, b) highlighted, [b, to) of this line.
            int a = Math.clamp(hiFrom, from, to), b = hiFrom < 0 ? a : Math.clamp((long) hiFrom + hiLen, a, to);
            if (hiFrom < 0) a = b = to;
            if (b > a) {
                g.setFill(HIGHLIGHT);
                double hx0 = hexX0(a - from), hx1 = hexX0(b - 1 - from) + 2 * cw;
                g.fillRect(hx0, line * lh, hx1 - hx0, lh);
                g.fillRect(asciiX0(a - from), line * lh, (b - a) * cw, lh);
            }
            for (int seg = 0; seg < 3; seg++) {
                int s0 = seg == 0 ? from : seg == 1 ? a : b, s1 = seg == 0 ? a : seg == 1 ? b : to;
                if (s1 <= s0) continue;
                hex.setLength(0);
                ascii.setLength(0);
                for (int i = s0; i < s1; i++) {
                    int col = i - from;
                    if (i > s0) hex.append(col == 8 ? "  " : " ");
                    hex.append(HEX[data[i] & 0xFF]);
                    ascii.append(ASCII[data[i] & 0xFF]);
                }
                g.setFill(seg == 1 ? FIELD_TEXT : TEXT);
                g.fillText(hex.toString(), hexX0(s0 - from), y);
                g.fillText(ascii.toString(), asciiX0(s0 - from), y);
            }
        }
    }

    private double hexX0(int col) { return (6 + 3 * col + (col >= 8 ? 1 : 0)) * cw; }

    private double asciiX0(int col) { return (6 + 3 * PER_LINE + 2 + col) * cw; }

    private static final String[] HEX = new String[256];
    private static final char[] ASCII = new char[256];
    /** Line offsets of frames up to 9,216 bytes (jumbo), the rest formatted when drawn. */
    private static final String[] OFFSETS = new String[9216 / PER_LINE];

    static {
        for (int v = 0; v < 256; v++) {
            HEX[v] = String.format("%02x", v);
            ASCII[v] = v >= 0x20 && v < 0x7f ? (char) v : '.';
        }
        for (int l = 0; l < OFFSETS.length; l++) OFFSETS[l] = String.format("%04x", l * PER_LINE);
    }
}
