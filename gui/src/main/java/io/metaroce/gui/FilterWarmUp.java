package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.filter.FilterException;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Warms the display-filter path of a fresh GUI JVM once a capture is analyzed, so the user's first filter does not
 * pay for class loading, the filter parser's first run and the JIT compiling the per-frame decode and evaluation
 * (a cold first filter over 1 M frames took twice the time of the same filter warm: 1.03 s against 0.53 s): the
 * default coloring rules' filters, with and without analysis fields, over the first frames of the capture, in the
 * background. What they match is thrown away; nothing on screen changes.
 */
final class FilterWarmUp {
    /** Enough frames for the JIT to compile the per-frame path (its thresholds are some ten thousand calls). */
    static final int FRAMES = 65_536;
    /** Filters the GUI runs anyway (coloring rules): field comparisons, enum names, presence, an analysis field. */
    private static final List<String> FILTERS = List.of(
            "aeth.syndrome.kind == nak || aeth.syndrome.kind == rnr_nak || nacketh",
            "bth.opcode == cnp || bth.opcode == mr_cnp || ip.ecn == 3 || ipv6.tclass & 3 == 3",
            "analysis.retransmission");

    private FilterWarmUp() { }

    /**
     * Runs the warm-up filters on the calling thread (a background one).
     *
     * @param stop polled between chunks: true when the capture was closed or replaced (the index may be gone)
     */
    static void run(FrameIndex index, AnalysisSession session, BooleanSupplier stop) {
        int n = Math.min(FRAMES, index.size());
        for (String text : FILTERS) {
            if (stop.getAsBoolean()) return;
            try {
                FrameFilter.run(index, n, session, GuiContext.compile(text), x -> { }, stop);
            } catch (FilterException e) {
                throw new IllegalStateException("a built-in warm-up filter does not compile: " + text, e);
            } catch (RuntimeException e) {
                if (!stop.getAsBoolean()) throw e;    // the capture was closed under it: nothing to warm any more
                return;
            }
        }
    }
}
