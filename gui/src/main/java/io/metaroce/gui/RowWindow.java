package io.metaroce.gui;

import javafx.collections.ObservableListBase;

/**
 * The rows the packet list's TableView holds: a window of at most {@link #MAX} consecutive rows of a
 * {@link FrameView}, items being frame numbers. JavaFX's VirtualFlow does work proportional to the scroll position
 * on every layout (the spike measured 207 ms per jump at 10 M rows, 10 ms with a 10 k window), so a long view is
 * shown through a window that moves; a short one (up to MAX rows) is shown whole. Nothing per row is stored.
 * A whole window grows in place with a live capture ({@link #grow}), so the table sees rows added at its end.
 */
final class RowWindow extends ObservableListBase<Integer> {
    /**
     * Rows a window holds. The spike measured 10 ms FX CPU per random jump with a 10 k-row window and 30 ms at 1 M
     * rows; 50 k keeps a jump near the former while a mouse-wheel user rarely reaches a window's edge.
     */
    static final int MAX = 50_000;

    private FrameView view;
    private final int base;
    private int size;

    RowWindow(FrameView view, int base) {
        this.view = view;
        this.base = Math.max(0, Math.min(base, Math.max(0, view.size() - MAX)));
        this.size = Math.min(MAX, view.size() - this.base);
    }

    /** A window over view that holds the row at its middle where it can. */
    static RowWindow around(FrameView view, int row) { return new RowWindow(view, row - MAX / 2); }

    FrameView view() { return view; }

    /** The view row of the window's first row. */
    int base() { return base; }

    boolean whole() { return size == view.size(); }

    boolean holds(int viewRow) { return viewRow >= base && viewRow < base + size; }

    /**
     * Shows a longer view that begins with this window's rows (more frames of a live capture) in place: one
     * change "rows added at the end", which keeps the table's scroll position and selection. Only for a whole
     * window that stays whole ({@link #canGrowTo}).
     */
    void grow(FrameView longer) {
        if (!canGrowTo(longer)) throw new IllegalStateException("a window of " + size + " rows cannot grow to " + longer.size());
        int from = size;
        view = longer;
        size = longer.size();
        if (size == from) return;
        beginChange();
        nextAdd(from, size);
        endChange();
    }

    boolean canGrowTo(FrameView longer) { return whole() && longer.size() >= size && longer.size() <= MAX; }

    @Override
    public Integer get(int index) { return view.frameAt(base + index); }

    @Override
    public int size() { return size; }
}
