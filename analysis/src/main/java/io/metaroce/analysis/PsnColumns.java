package io.metaroce.analysis;

/**
 * Per-PSN columns a consumer keeps in the engine's {@link RequestWindow} (the validator's facts about the first
 * copy of each PSN), so that there is one window per stream and its lifetime is the engine's. A slot is the
 * unwrapped PSN masked by the window's slot count (a power of two). The engine calls these methods on the
 * analysis thread; implementations keep primitive arrays and allocate only in {@link #allocate} and {@link #grow}.
 */
public abstract class PsnColumns {
    /** Allocates empty columns of this many slots (on attach). */
    protected abstract void allocate(int slots);

    /**
     * The window grew from oldSlots to newSlots: allocate new columns and move the PSNs from..to (inclusive) from
     * slot {@code u & (oldSlots - 1)} to slot {@code u & (newSlots - 1)}.
     */
    protected abstract void grow(int oldSlots, int newSlots, long from, long to);

    /** The slot is taken for a new PSN (or left behind by the window): forget what it held. */
    protected abstract void clear(int slot);
}
