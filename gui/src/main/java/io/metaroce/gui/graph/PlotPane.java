package io.metaroce.gui.graph;

import java.util.function.IntConsumer;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * A plot drawn on one {@link Canvas} (the spike: JavaFX charts are unusable at a million points), with the
 * interactions every graph here shares: the wheel zooms around the mouse (with Ctrl: time only), a drag pans, a
 * drag with Shift or the right button zooms to the dragged box, a click (no drag) selects the nearest point's
 * frame ({@link #setOnSelect}), Home or a double-click on empty space shows everything again. Subclasses draw the
 * content inside the plot area and say what a click hits; this class draws the frame, the axes and the grid.
 * The canvas is redrawn only from layout and after a change, never per mouse move without one.
 */
public abstract class PlotPane extends Region {
    /** Room for the axes' labels around the plot area, and for the legend above it. */
    protected static final double LEFT = 78, RIGHT = 16, TOP = 30, BOTTOM = 42;
    protected static final Font FONT = Font.font("DejaVu Sans", 11);
    private static final Color GRID = Color.rgb(0, 0, 0, 0.08), AXIS = Color.rgb(60, 60, 60);

    private final Canvas canvas = new Canvas();
    private Viewport view = new Viewport(0, 1, 0, 1, 1, 1);
    private boolean userView;
    private IntConsumer onSelect = f -> { };
    private double pressX, pressY, lastX, lastY;
    private boolean dragging, boxing;
    private long redraws;

    protected PlotPane() {
        getChildren().add(canvas);
        setMinSize(200, 150);
        setPrefSize(900, 500);
        setFocusTraversable(true);
        canvas.addEventHandler(ScrollEvent.SCROLL, this::scrolled);
        canvas.addEventHandler(MouseEvent.MOUSE_PRESSED, this::pressed);
        canvas.addEventHandler(MouseEvent.MOUSE_DRAGGED, this::dragged);
        canvas.addEventHandler(MouseEvent.MOUSE_RELEASED, this::released);
        setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.HOME || e.getCode() == KeyCode.R) resetView();
        });
    }

    /** Called with the frame number of the point a click hit. */
    public void setOnSelect(IntConsumer c) { onSelect = c == null ? f -> { } : c; }

    /** The data shown in full, in data units (used by {@link #resetView} and until the user zooms). */
    protected abstract Viewport fullView(double width, double height);

    /** Draws the content inside the plot area; gc is translated to the area's top left and clipped to it. */
    protected abstract void drawContent(GraphicsContext gc, Viewport v);

    /** The frame a click at (px, py) in plot-area pixels means, or 0. */
    protected abstract int hit(Viewport v, double px, double py);

    /** Label of the x axis for a unit. */
    protected String xLabel(Ticks.TimeUnit unit) { return "time since the first frame (" + unit.label() + ")"; }

    protected abstract String yLabel();

    protected String formatY(double y) { return Ticks.number(y); }

    /** A title drawn above the plot at the left, or null (the legend goes to its right). */
    protected void drawLegend(GraphicsContext gc, double x, double y) { }

    // ------------------------------------------------------------------ view

    public Viewport viewport() { return view; }

    /** Shows a data range (tests, benchmarks, "zoom to selection"). */
    public void setViewport(Viewport v) {
        view = v.resized(plotWidth(), plotHeight());
        userView = true;
        redraw();
    }

    public void resetView() {
        userView = false;
        view = fullView(plotWidth(), plotHeight());
        redraw();
    }

    /** The content changed (new data, new selection): redraw now, keeping the user's zoom. */
    protected void contentChanged(boolean refit) {
        if (refit || !userView) view = fullView(plotWidth(), plotHeight());
        redraw();
    }

    public double plotWidth() { return Math.max(1, getWidth() - LEFT - RIGHT); }

    public double plotHeight() { return Math.max(1, getHeight() - TOP - BOTTOM); }

    /** Scene-independent position of a data point in this pane's coordinates (for tests that click it). */
    public double paneX(double dataX) { return LEFT + view.px(dataX); }

    public double paneY(double dataY) { return TOP + view.py(dataY); }

    /** How often the canvas was drawn (benchmarks count frames with it). */
    public long redraws() { return redraws; }

    /** The frame a click at pane coordinates would select, 0 for none (what a click does, without the click). */
    public int frameAt(double x, double y) { return hit(view, x - LEFT, y - TOP); }

    @Override
    protected void layoutChildren() {
        double w = getWidth(), h = getHeight();
        if (canvas.getWidth() != w || canvas.getHeight() != h) {
            canvas.setWidth(w);
            canvas.setHeight(h);
            view = userView ? view.resized(plotWidth(), plotHeight()) : fullView(plotWidth(), plotHeight());
            redraw();
        }
    }

    // ------------------------------------------------------------------ drawing

    public final void redraw() {
        redraws++;
        GraphicsContext gc = canvas.getGraphicsContext2D();
        double w = canvas.getWidth(), h = canvas.getHeight();
        // State left over from the last frame (alignment, clip) would leak into this one: start clean.
        gc.save();
        gc.setTransform(1, 0, 0, 1, 0, 0);
        gc.setFill(Color.WHITE);
        gc.fillRect(0, 0, w, h);
        gc.setFont(FONT);
        if (w < LEFT + RIGHT + 10 || h < TOP + BOTTOM + 10) {
            gc.restore();
            return;
        }
        Viewport v = view;
        drawAxes(gc, v);
        gc.save();
        gc.beginPath();
        gc.rect(LEFT, TOP, v.width(), v.height());
        gc.clip();
        gc.translate(LEFT, TOP);
        drawContent(gc, v);
        gc.restore();
        if (boxing) {
            gc.setStroke(Color.rgb(30, 90, 200));
            gc.setFill(Color.rgb(30, 90, 200, 0.12));
            double x = Math.min(pressX, lastX), y = Math.min(pressY, lastY);
            gc.fillRect(x, y, Math.abs(lastX - pressX), Math.abs(lastY - pressY));
            gc.strokeRect(x, y, Math.abs(lastX - pressX), Math.abs(lastY - pressY));
        }
        gc.setTextAlign(TextAlignment.LEFT);
        gc.setTextBaseline(VPos.CENTER);
        drawLegend(gc, LEFT, TOP / 2);
        gc.restore();
    }

    private void drawAxes(GraphicsContext gc, Viewport v) {
        gc.setStroke(GRID);
        gc.setLineWidth(1);
        gc.setFill(AXIS);
        Ticks.TimeUnit unit = Ticks.timeUnit(v.x1() - v.x0());
        gc.setTextAlign(TextAlignment.CENTER);
        gc.setTextBaseline(VPos.TOP);
        for (double t : Ticks.of(v.x0(), v.x1(), Math.max(2, (int) (v.width() / 110)))) {
            double x = Math.round(LEFT + v.px(t)) + 0.5;
            gc.strokeLine(x, TOP, x, TOP + v.height());
            gc.fillText(unit.format(t), x, TOP + v.height() + 4);
        }
        gc.fillText(xLabel(unit), LEFT + v.width() / 2, TOP + v.height() + 22);
        gc.setTextAlign(TextAlignment.RIGHT);
        gc.setTextBaseline(VPos.CENTER);
        for (double y : yTicks(v)) {
            double py = Math.round(TOP + v.py(y)) + 0.5;
            gc.strokeLine(LEFT, py, LEFT + v.width(), py);
            gc.fillText(formatY(y), LEFT - 6, py);
        }
        gc.save();
        gc.translate(14, TOP + v.height() / 2);
        gc.rotate(-90);
        gc.setTextAlign(TextAlignment.CENTER);
        gc.fillText(yLabel(), 0, 0);
        gc.restore();
        gc.setStroke(AXIS);
        gc.strokeRect(LEFT + 0.5, TOP + 0.5, v.width(), v.height());
    }

    /** The y values that get a grid line and a label. */
    protected java.util.List<Double> yTicks(Viewport v) {
        return Ticks.of(v.y0(), v.y1(), Math.max(2, (int) (v.height() / 45)));
    }

    // ------------------------------------------------------------------ interaction

    private void scrolled(ScrollEvent e) {
        if (e.getDeltaY() == 0) return;
        double factor = Math.pow(0.85, e.getDeltaY() / 40);
        double px = e.getX() - LEFT, py = e.getY() - TOP;
        view = e.isControlDown() || !zoomsY() ? view.zoomX(factor, px) : view.zoom(factor, px, py);
        userView = true;
        redraw();
        e.consume();
    }

    /** Whether the wheel zooms the y axis too (not for the heatmap, whose rows are paths). */
    protected boolean zoomsY() { return true; }

    private void pressed(MouseEvent e) {
        requestFocus();
        pressX = lastX = e.getX();
        pressY = lastY = e.getY();
        dragging = false;
        boxing = e.getButton() == MouseButton.SECONDARY || e.isShiftDown();
    }

    private void dragged(MouseEvent e) {
        if (Math.abs(e.getX() - pressX) + Math.abs(e.getY() - pressY) > 3) dragging = true;
        if (!dragging) return;
        if (!boxing) {
            view = view.pan(e.getX() - lastX, zoomsY() ? e.getY() - lastY : 0);
            userView = true;
        }
        lastX = e.getX();
        lastY = e.getY();
        redraw();
    }

    private void released(MouseEvent e) {
        if (dragging && boxing) {
            Viewport b = view.box(pressX - LEFT, pressY - TOP, e.getX() - LEFT, e.getY() - TOP);
            if (!zoomsY()) b = new Viewport(b.x0(), b.x1(), view.y0(), view.y1(), b.width(), b.height());
            view = b;
            userView = true;
        } else if (!dragging && e.getButton() == MouseButton.PRIMARY) {
            int f = hit(view, e.getX() - LEFT, e.getY() - TOP);
            if (f > 0) onSelect.accept(f);
            else if (e.getClickCount() == 2) resetView();
        }
        boxing = dragging = false;
        redraw();
    }
}
