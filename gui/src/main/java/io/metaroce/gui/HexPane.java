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
    private final Font font = Font.font("Monospaced", 12);
    private final double cw, lh;
    private byte[] data = new byte[0];
    private int hiFrom = -1, hiLen;
    private IntConsumer onClick = b -> { };

    HexPane() {
        setId("hex-pane");
        Text probe = new Text("0123456789");
        probe.setFont(font);
        cw = probe.getLayoutBounds().getWidth() / 10;
        lh = Math.ceil(probe.getLayoutBounds().getHeight()) + 2;
        setContent(canvas);
        setFitToWidth(false);
        canvas.setOnMouseClicked(e -> {
            int b = byteAt(e.getX(), e.getY());
            if (b >= 0) onClick.accept(b);
        });
        redraw();
    }

    void setOnByteClicked(IntConsumer c) { onClick = c; }

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

    private void redraw() {
        int lines = Math.max(1, (data.length + PER_LINE - 1) / PER_LINE);
        canvas.setWidth((6 + 3 * PER_LINE + 2 + PER_LINE + 2) * cw);
        canvas.setHeight(lines * lh + 4);
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, canvas.getWidth(), canvas.getHeight());
        g.setFont(font);
        g.setTextBaseline(VPos.TOP);
        for (int i = 0; i < data.length; i++) {
            int line = i / PER_LINE;
            double y = line * lh + 1;
            if (i % PER_LINE == 0) {
                g.setFill(OFFSET);
                g.fillText(String.format("%04x", i), 0, y);
            }
            boolean hi = i >= hiFrom && i < hiFrom + hiLen;
            double hx = (6 + 3 * (i % PER_LINE) + (i % PER_LINE >= 8 ? 1 : 0)) * cw;
            double ax = (6 + 3 * PER_LINE + 2 + (i % PER_LINE)) * cw;
            if (hi) {
                g.setFill(HIGHLIGHT);
                g.fillRect(hx, line * lh, 2 * cw, lh);
                g.fillRect(ax, line * lh, cw, lh);
            }
            int v = data[i] & 0xFF;
            g.setFill(hi ? FIELD_TEXT : TEXT);
            g.fillText(String.format("%02x", v), hx, y);
            g.fillText(v >= 0x20 && v < 0x7f ? String.valueOf((char) v) : ".", ax, y);
        }
    }
}
