package io.metaroce.analysis;

/**
 * The engine's per-PSN window of one flow's request stream, as a consumer riding the same pass sees it
 * ({@link QpFlow#requests()}): which unwrapped PSNs ({@link Psn#unwrap}) it holds, from what origin, and the
 * slot of each. The engine alone decides when the window starts, grows, slides and is released (one state
 * machine, one set of thresholds: {@link StreamLimits}); a consumer that needs per-PSN facts of its own attaches
 * {@link PsnColumns} to it and reads and writes them by {@link #slot}, for PSNs the window {@link #contains}.
 * Read-only apart from {@link #attach}; valid on the analysis thread during the pass, between frames.
 */
public interface RequestWindow {
    /** The unwrapped PSN the engine started this stream at (its first PSN, or the CM start PSN before it). */
    long origin();

    /**
     * Counts the streams the engine started on this window: a consumer that sees it change (QPN reused, a PSN
     * jump of {@link StreamLimits#NEW_STREAM_JUMP} or more) starts over, as the engine did.
     */
    int generation();

    /** The oldest unwrapped PSN the window holds. */
    long base();

    /** The newest unwrapped PSN the window holds (base - 1 when empty). */
    long top();

    /** Whether the window holds unwrapped PSN u (base <= u <= top). */
    boolean contains(long u);

    /** The slot of unwrapped PSN u in the window's columns and in attached {@link PsnColumns}; valid while contained. */
    int slot(long u);

    /** The columns a consumer attached, or null. */
    PsnColumns columns();

    /**
     * Attaches per-PSN columns of a consumer (one per window): the engine sizes them with the window, clears a
     * slot whenever it takes it for a new PSN, and moves them when the window grows.
     */
    void attach(PsnColumns columns);
}
