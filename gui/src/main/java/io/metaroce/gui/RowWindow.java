package io.metaroce.gui;

import javafx.collections.ObservableListBase;

/**
 * The rows the packet list's TableView holds: a window of at most {@link #MAX} consecutive rows of a
 * {@link FrameView}, items being frame numbers. JavaFX's VirtualFlow does work proportional to the scroll position
 * on every layout (the spike measured 207 ms per jump at 10 M rows, 10 ms with a 10 k window), so a long view is
 * shown through a window that moves; a short one (up to MAX rows) is shown whole. Nothing per row is stored.
 */
final class RowWindow extends ObservableListBase<Integer> {
    /**
     * Rows a window holds. The spike measured 10 ms FX CPU per random jump with a 10 k-row window and 30 ms at 1 M
     * rows; 50 k keeps a jump near the former while a mouse-wheel user rarely reaches a window's edge.
     */
    static final int MAX = 50_000;

    private final FrameView view;
    private final int base;
    private final int size;

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

    @Override
    public Integer get(int index) { return view.frameAt(base + index); }

    @Override
    public int size() { return size; }
}
