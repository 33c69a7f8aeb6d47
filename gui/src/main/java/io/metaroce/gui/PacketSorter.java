package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameIndex;
import java.util.Arrays;
import java.util.Comparator;
import javafx.application.Platform;

/**
 * Sorts the shown frames by a packet-list column off the UI thread: numeric columns by their numbers (from the
 * index for No., Time and Length, decoded for QP and PSN), text columns by their text; equal keys keep capture
 * order. The result is a new {@link FrameView} (a permutation of the frame numbers), swapped in at once.
 */
final class PacketSorter {
    private PacketSorter() { }

    static void sort(GuiContext ctx, String column, boolean descending) {
        OpenCapture c = ctx.capture();
        AnalysisSession s = ctx.analysis();
        FrameView v = ctx.view();
        if (c == null) return;
        Thread.ofPlatform().daemon().name("metaroce-gui-sort").start(() -> {
            int[] sorted = sorted(c.index(), s, v.toArray(), column, descending);
            Platform.runLater(() -> {
                if (ctx.capture() == c && ctx.view() == v) ctx.showSorted(FrameView.of(sorted));
            });
        });
    }

    /** The frames sorted by column (see {@link PacketTable#COLUMNS}). */
    static int[] sorted(FrameIndex ix, AnalysisSession s, int[] frames, String column, boolean descending) {
        Integer[] rows = new Integer[frames.length];
        for (int i = 0; i < rows.length; i++) rows[i] = i;
        Comparator<Integer> cmp;
        switch (column) {
            case "No." -> cmp = Comparator.comparingInt(r -> frames[r]);
            case "Time" -> cmp = Comparator.comparingLong(r -> ix.timeNanos(frames[r]));
            case "Length" -> cmp = Comparator.comparingLong(r -> ix.originalLength(frames[r]));
            case "QP", "PSN" -> {
                long[] key = new long[frames.length];
                FrameDecoder dec = new FrameDecoder(ix, s);
                for (int i = 0; i < frames.length; i++) {
                    Dissection d = dec.decode(frames[i]);
                    key[i] = !d.isRoce() ? -1 : column.equals("QP") ? d.destQp() : d.psn();
                }
                cmp = Comparator.comparingLong(r -> key[r]);
            }
            default -> {
                String[] key = new String[frames.length];
                FrameDecoder dec = new FrameDecoder(ix, s);
                for (int i = 0; i < frames.length; i++) {
                    Dissection d = dec.decode(frames[i]);
                    key[i] = switch (column) {
                        case "Source" -> PacketSummary.source(d);
                        case "Destination" -> PacketSummary.destination(d);
                        case "Protocol" -> PacketSummary.protocol(d);
                        default -> PacketSummary.info(d, s == null ? null : s.verdictOf(frames[i]));
                    };
                }
                cmp = Comparator.comparing(r -> key[r]);
            }
        }
        if (descending) cmp = cmp.reversed();
        Arrays.parallelSort(rows, cmp.thenComparingInt(r -> r));
        int[] out = new int[frames.length];
        for (int i = 0; i < out.length; i++) out[i] = frames[rows[i]];
        return out;
    }
}
