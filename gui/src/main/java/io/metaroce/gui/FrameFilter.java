package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterField;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleConsumer;
import java.util.stream.IntStream;

/**
 * Runs a display filter over every frame of an index, on all cores: the frames are cut into chunks, each chunk
 * decoded by its own {@link FrameDecoder}; the result is the matching frame numbers in capture order (4 bytes per
 * match), which the packet list swaps in at once.
 */
final class FrameFilter {
    private static final int CHUNK = 16_384;

    private FrameFilter() { }

    /**
     * @param session finished analysis for the analysis.* fields, or null
     * @param progress told the fraction done (from worker threads)
     * @param cancel polled every few thousand frames
     * @return the matching frame numbers, ascending; null when cancelled
     */
    static int[] run(FrameIndex index, AnalysisSession session, DisplayFilter filter, DoubleConsumer progress,
                     BooleanSupplier cancel) {
        return run(index, index.size(), session, filter, progress, cancel);
    }

    /** As {@link #run(FrameIndex, AnalysisSession, DisplayFilter, DoubleConsumer, BooleanSupplier)}, over the first n frames. */
    static int[] run(FrameIndex index, int n, AnalysisSession session, DisplayFilter filter, DoubleConsumer progress,
                     BooleanSupplier cancel) {
        return run(index, n, session, GuiFields.Marks.NONE, filter, progress, cancel);
    }

    /** As {@link #run(FrameIndex, AnalysisSession, DisplayFilter, DoubleConsumer, BooleanSupplier)}, with the user's marks. */
    static int[] run(FrameIndex index, int n, AnalysisSession session, GuiFields.Marks marks, DisplayFilter filter,
                     DoubleConsumer progress, BooleanSupplier cancel) {
        int chunks = (n + CHUNK - 1) / CHUNK;
        int[][] parts = new int[chunks][];
        AtomicLong done = new AtomicLong();
        // The analysis fields cost a lookup per frame: attach them only when the filter reads them.
        boolean analysisFields = false;
        for (FilterField f : filter.referencedFields()) analysisFields |= f.name().startsWith("analysis");
        AnalysisSession attach = analysisFields ? session : null;
        // Ignored frames (Edit > Ignore Packet) are not dissected in Wireshark: only a filter naming frame.ignored
        // can match them (frame.ignored == 1 shows them).
        boolean namesIgnored = false;
        for (FilterField f : filter.referencedFields()) namesIgnored |= f.name().equals("frame.ignored");
        java.util.BitSet ignored = marks.ignored().isEmpty() ? null : marks.ignored();
        boolean skipIgnored = !namesIgnored;
        IntStream.range(0, chunks).parallel().forEach(c -> {
            if (cancel.getAsBoolean()) return;
            FrameDecoder dec = new FrameDecoder(index, attach);
            GuiFields.Accessor acc = new GuiFields.Accessor(session, marks).withIndex(index);
            int from = c * CHUNK + 1, to = Math.min(n, from + CHUNK - 1);
            int[] hits = new int[to - from + 1];
            int k = 0;
            for (int f = from; f <= to; f++) {
                if (ignored != null && skipIgnored && ignored.get(f)) continue;
                dec.decode(f);
                if (filter.matches(acc.of(dec.fields()))) hits[k++] = f;
            }
            parts[c] = Arrays.copyOf(hits, k);
            progress.accept((double) done.addAndGet(to - from + 1) / n);
        });
        if (cancel.getAsBoolean()) return null;
        int total = 0;
        for (int[] p : parts) total += p.length;
        int[] out = new int[total];
        int at = 0;
        for (int[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
