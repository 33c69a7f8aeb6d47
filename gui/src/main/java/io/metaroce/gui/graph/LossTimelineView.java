package io.metaroce.gui.graph;

import io.metaroce.gui.stats.DiagnosisRun;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * analyze's loss timeline drawn: one strip chart per count (frames, retransmissions and their timeouts, NAKs, RNR
 * NAKs, missing PSNs, CE marks, CNPs) on one shared time axis, each bar its column's count against the row's
 * largest, as analyze's sparklines, in as many columns as the width affords (at least 2 px each). A click on a
 * column hands its first frame to the listener (the packet list selects it); the selected frame's time is marked.
 * A Canvas redrawn on resize or new data only (gui-perf.md: Canvas, not javafx.scene.chart).
 */
public final class LossTimelineView extends Region {
    static final double LEFT = 170, RIGHT = 150, TOP = 6, AXIS = 30;
    /** Where the plot starts: what is drawn under it (the loss pattern) lines up with it. */
    public static final double LEFT_MARGIN = LEFT;
    private static final Color[] COLORS = {Color.web("#1f77b4"), Color.web("#d62728"), Color.web("#ff7f0e"),
            Color.web("#9467bd"), Color.web("#8c564b"), Color.web("#7f7f7f"), Color.web("#e377c2"), Color.web("#2ca02c")};
    private final Canvas canvas = new Canvas();
    private DiagnosisRun run;
    /** Rows drawn: the counts with any (frames and retransmissions always), as analyze's text. */
    private final List<Integer> rows = new ArrayList<>();
    private long selectedNs = Long.MIN_VALUE;
    private IntConsumer onFrame = f -> { };

    public LossTimelineView() {
        getChildren().add(canvas);
        setMinSize(300, 150);
        setPrefSize(1000, 420);
        canvas.setOnMouseClicked(e -> {
            int n = columns(), c = columnAt(e.getX());
            if (run == null || c < 0) return;
            int f = run.firstFrameIn(c, n);
            if (f > 0) onFrame.accept(f);
        });
    }

    /** Shows a run's timeline (null: nothing). */
    public void setRun(DiagnosisRun r) {
        run = r;
        rows.clear();
        if (r != null) {
            for (int k = 0; k < DiagnosisRun.SERIES.length; k++) if (k <= 1 || r.total(k) > 0) rows.add(k);
        }
        redraw();
    }

    public DiagnosisRun run() { return run; }

    /** The rows drawn, as indexes into {@link DiagnosisRun#SERIES}. */
    public List<Integer> rows() { return List.copyOf(rows); }

    /** Where a click on a column goes: its first frame. */
    public void setOnFrame(IntConsumer c) { onFrame = c; }

    /** Marks a capture time (the selected frame's), or none with Long.MIN_VALUE. */
    public void setSelectedTime(long ns) {
        selectedNs = ns;
        redraw();
    }

    /** Columns drawn: the finer bins merged by powers of two until each column is 2 px wide at least. */
    public int columns() {
        double w = plotWidth();
        int n = DiagnosisRun.FINE_BINS;
        while (n > 1 && w / n < 2) n /= 2;
        return n;
    }

    /** The column under x (in this view's coordinates), -1 outside the plot. */
    public int columnAt(double x) {
        double w = plotWidth();
        if (w <= 0 || x < LEFT || x >= LEFT + w) return -1;
        int n = columns();
        return (int) Math.min(n - 1, (x - LEFT) / w * n);
    }

    /** The x of column c's centre (tests click there). */
    public double columnCenter(int c) { return LEFT + (c + 0.5) * plotWidth() / columns(); }

    private double plotWidth() { return Math.max(0, getWidth() - LEFT - RIGHT); }

    @Override
    protected void layoutChildren() {
        if (canvas.getWidth() != getWidth() || canvas.getHeight() != getHeight()) {
            canvas.setWidth(getWidth());
            canvas.setHeight(getHeight());
            redraw();
        }
    }

    private void redraw() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth(), h = canvas.getHeight();
        g.save();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, w, h);
        g.setFont(Font.font(12));
        g.setTextBaseline(VPos.CENTER);
        if (run == null || rows.isEmpty() || plotWidth() <= 0) {
            g.restore();
            return;
        }
        int n = columns();
        double pw = plotWidth(), rowH = Math.max(16, (h - TOP - AXIS) / rows.size()), colW = pw / n;
        for (int r = 0; r < rows.size(); r++) {
            int k = rows.get(r);
            long[] c = run.columns(k, n);
            long max = 0, total = 0;
            for (long v : c) {
                max = Math.max(max, v);
                total += v;
            }
            double y0 = TOP + r * rowH, base = y0 + rowH - 3;
            g.setFill(r % 2 == 0 ? Color.web("#f7f7f7") : Color.WHITE);
            g.fillRect(LEFT, y0, pw, rowH);
            g.setFill(Color.BLACK);
            g.setTextAlign(TextAlignment.RIGHT);
            g.fillText((k == 2 ? "  " : "") + DiagnosisRun.LABELS[k], LEFT - 8, y0 + rowH / 2);
            g.setTextAlign(TextAlignment.LEFT);
            g.fillText(total + " (peak " + max + ")", LEFT + pw + 8, y0 + rowH / 2);
            g.setFill(COLORS[k]);
            for (int i = 0; i < n; i++) {
                if (c[i] == 0) continue;
                // Any count shows (1 px at least), as analyze's lowest block does.
                double bh = Math.max(1, (rowH - 6) * c[i] / max);
                g.fillRect(LEFT + i * colW, base - bh, Math.max(1, colW - (colW >= 3 ? 1 : 0)), bh);
            }
            g.setStroke(Color.web("#cccccc"));
            g.strokeLine(LEFT, base + 0.5, LEFT + pw, base + 0.5);
        }
        double axisY = TOP + rows.size() * rowH;
        g.setStroke(Color.GRAY);
        g.strokeLine(LEFT, axisY + 0.5, LEFT + pw, axisY + 0.5);
        double span = (double) run.binNs() * DiagnosisRun.FINE_BINS;
        Ticks.TimeUnit u = Ticks.timeUnit(span);
        g.setFill(Color.BLACK);
        g.setTextAlign(TextAlignment.CENTER);
        for (double v : Ticks.of(0, span, Math.max(2, (int) (pw / 110)))) {
            double x = LEFT + v / span * pw;
            g.strokeLine(x, axisY, x, axisY + 4);
            g.fillText(u.format(v), x, axisY + 12);
        }
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText(u.label() + " since the first frame", LEFT + pw + 8, axisY + 12);
        if (selectedNs != Long.MIN_VALUE) {
            double x = LEFT + (selectedNs - run.firstNs()) / span * pw;
            if (x >= LEFT && x <= LEFT + pw) {
                g.setStroke(Color.web("#ff8c00"));
                g.setLineWidth(1.5);
                g.strokeLine(x, TOP, x, axisY);
            }
        }
        g.restore();
    }
}
