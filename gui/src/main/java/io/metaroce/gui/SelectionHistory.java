package io.metaroce.gui;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;

/**
 * Go > Back and Forward (Wireshark's packet list history): every frame selected, by a click, a key or a jump (Go to
 * Packet, a linked packet, a graph), is remembered in order; Back and Forward walk that list without adding to it, and
 * a selection made after going back drops the frames that were ahead, as a browser's history does. Bounded:
 * {@link #MAX} entries, the oldest dropped first (an int each: 4 KB at most). Cleared when a capture opens or closes;
 * kept when Decode As or Reload opens the same capture again (the same frame numbers).
 */
final class SelectionHistory {
    /** At most this many frames are remembered (Wireshark keeps its whole history; a live capture could select forever). */
    static final int MAX = 1000;

    /** A ring of frame numbers: the entries first..first+size-1 (mod MAX); at is the current entry's position in it. */
    private final int[] ring = new int[MAX];
    private int first, size, at = -1;
    /** True while Back/Forward moves the selection: that change is not a new entry. */
    private boolean moving;
    private final ReadOnlyBooleanWrapper canBack = new ReadOnlyBooleanWrapper(this, "canBack", false);
    private final ReadOnlyBooleanWrapper canForward = new ReadOnlyBooleanWrapper(this, "canForward", false);

    /** Back is enabled: there is an earlier entry. */
    ReadOnlyBooleanProperty canBackProperty() { return canBack.getReadOnlyProperty(); }

    /** Forward is enabled: Back was used and nothing selected since. */
    ReadOnlyBooleanProperty canForwardProperty() { return canForward.getReadOnlyProperty(); }

    /** How many entries are held (tests: the bound). */
    int size() { return size; }

    /** The frame selected changed to frame (0: nothing selected, not remembered). */
    void selected(int frame) {
        if (moving || frame <= 0) return;
        if (at >= 0 && entry(at) == frame) return;       // the same frame again (a filter or a reload reselecting it)
        size = at + 1;                                    // a new selection after Back drops what was ahead
        if (size == MAX) {
            first = (first + 1) % MAX;
            size--;
        }
        ring[(first + size) % MAX] = frame;
        at = size;
        size++;
        update();
    }

    /**
     * Moves back (forward) to the nearest entry that select accepts (a frame the display filter hides is skipped, as
     * it cannot be selected); returns the frame selected, or 0 when there is none (the selection stays).
     */
    int move(boolean forward, java.util.function.IntPredicate select) {
        moving = true;
        try {
            for (int i = forward ? at + 1 : at - 1; i >= 0 && i < size; i += forward ? 1 : -1) {
                if (select.test(entry(i))) {
                    at = i;
                    return entry(i);
                }
            }
            return 0;
        } finally {
            moving = false;
            update();
        }
    }

    void clear() {
        first = 0;
        size = 0;
        at = -1;
        update();
    }

    /** The entries and the current position, for {@link #restore} (Decode As and Reload keep the history). */
    int[] state() {
        int[] s = new int[size + 1];
        s[0] = at;
        for (int i = 0; i < size; i++) s[i + 1] = entry(i);
        return s;
    }

    void restore(int[] state) {
        first = 0;
        size = state.length - 1;
        System.arraycopy(state, 1, ring, 0, size);
        at = state[0];
        update();
    }

    private int entry(int i) { return ring[(first + i) % MAX]; }

    private void update() {
        canBack.set(at > 0);
        canForward.set(at >= 0 && at < size - 1);
    }
}
