package io.metaroce.gui;

import java.util.Arrays;

/**
 * The frames the packet list shows, in display order: all frames 1..n (no array at all), or an {@code int[]} of
 * frame numbers built off the UI thread by a filter or a sort. Immutable, so a view can be swapped in one step and
 * read from any thread. 4 bytes per shown frame at most (plus 4 per frame for {@link #rowOf} of a sorted view,
 * built on first use).
 */
public final class FrameView {
    private final int[] frames;
    private final int size;
    private final boolean ascending;
    private volatile int[] inverse;

    private FrameView(int[] frames, int size, boolean ascending) {
        this.frames = frames;
        this.size = size;
        this.ascending = ascending;
    }

    /** Every frame of a capture of n frames, in order. */
    public static FrameView all(int n) { return new FrameView(null, n, true); }

    /** These frames, in this order (the array is not copied: do not change it afterwards). */
    public static FrameView of(int[] frames) {
        boolean asc = true;
        for (int i = 1; i < frames.length && asc; i++) asc = frames[i - 1] < frames[i];
        return new FrameView(frames, frames.length, asc);
    }

    public static final FrameView EMPTY = of(new int[0]);

    public int size() { return size; }

    /** True when every frame is shown in capture order. */
    public boolean isAll() { return frames == null; }

    /** True when the frames are in capture order (a filter's result), false for a sort. */
    public boolean ascending() { return ascending; }

    /** The frame number on row (0-based). */
    public int frameAt(int row) {
        if (row < 0 || row >= size) throw new IndexOutOfBoundsException("row " + row + " of " + size);
        return frames == null ? row + 1 : frames[row];
    }

    /** The row (0-based) that shows frame, or -1 when the view does not hold it. */
    public int rowOf(int frame) {
        if (frames == null) return frame >= 1 && frame <= size ? frame - 1 : -1;
        if (ascending) {
            int i = Arrays.binarySearch(frames, 0, size, frame);
            return i >= 0 ? i : -1;
        }
        int[] inv = inverse;
        if (inv == null) {
            int max = 0;
            for (int f : frames) max = Math.max(max, f);
            inv = new int[max + 1];
            Arrays.fill(inv, -1);
            for (int r = 0; r < size; r++) inv[frames[r]] = r;
            inverse = inv;
        }
        return frame >= 0 && frame < inv.length ? inv[frame] : -1;
    }

    /** Bytes the view holds: its frame numbers and, once built, the row of each frame of a sorted view. */
    public long memoryBytes() {
        int[] inv = inverse;
        return (frames == null ? 0 : frames.length * 4L) + (inv == null ? 0 : inv.length * 4L);
    }

    /** The frame numbers in display order (a copy). */
    public int[] toArray() {
        if (frames != null) return frames.clone();
        int[] a = new int[size];
        for (int i = 0; i < size; i++) a[i] = i + 1;
        return a;
    }
}
