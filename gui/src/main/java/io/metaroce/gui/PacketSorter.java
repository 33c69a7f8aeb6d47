package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.NameResolver;
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

    static void sort(GuiContext ctx, String column, boolean descending) { sort(ctx, column, null, descending); }

    /** As above; a custom column (not null) sorts by its field whatever its title. */
    static void sort(GuiContext ctx, String column, CustomColumn custom, boolean descending) {
        OpenCapture c = ctx.capture();
        AnalysisSession s = ctx.analysis();
        FrameView v = ctx.view();
        NameResolver names = ctx.namesProperty().get();
        if (c == null) return;
        Thread.ofPlatform().daemon().name("metaroce-gui-sort").start(() -> {
            int[] sorted = custom != null ? sorted(c.index(), s, v.toArray(), custom, descending)
                    : sorted(c.index(), s, names, v.toArray(), column, descending);
            Platform.runLater(() -> {
                if (ctx.capture() == c && ctx.view() == v) ctx.showSorted(FrameView.of(sorted));
            });
        });
    }

    /** The frames sorted by column (see {@link PacketTable#COLUMNS}); Source and Destination as shown with names. */
    static int[] sorted(FrameIndex ix, AnalysisSession s, NameResolver names, int[] frames, String column, boolean descending) {
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
                        case "Source" -> PacketSummary.source(d, names);
                        case "Destination" -> PacketSummary.destination(d, names);
                        case "Protocol" -> PacketSummary.protocol(d);
                        default -> PacketSummary.info(d, s == null ? null : s.verdictOf(frames[i]));
                    };
                }
                cmp = Comparator.comparing(r -> key[r]);
            }
        }
        return permuted(frames, rows, cmp, descending);
    }

    /**
     * The frames sorted by a custom column's field, as Wireshark sorts its custom columns: a numeric field
     * (numbers, times, booleans, addresses) by the value of its first occurrence, the others by their text;
     * frames without the field first (an empty cell sorts before any value).
     */
    static int[] sorted(FrameIndex ix, AnalysisSession s, int[] frames, CustomColumn column, boolean descending) {
        Integer[] rows = new Integer[frames.length];
        for (int i = 0; i < rows.length; i++) rows[i] = i;
        FrameDecoder dec = new FrameDecoder(ix, s);
        Comparator<Integer> cmp;
        switch (column.def().type()) {
            case UINT, TIME, BOOL, IPV4, ETHER -> {
                long[] key = new long[frames.length];
                boolean[] present = new boolean[frames.length];
                for (int i = 0; i < frames.length; i++) {
                    dec.decode(frames[i]);
                    var ff = dec.fields();
                    present[i] = ff.count(column.def()) > 0;
                    if (present[i]) key[i] = ff.longValue(column.def(), 0);
                }
                // Unsigned (a 64-bit address, an IPv4 address 10.x before 192.x) but for times, which can be negative.
                boolean signed = column.def().type() == io.metaroce.protocol.ValueType.TIME;
                Comparator<Integer> byPresence = Comparator.comparing(r -> present[r]);
                cmp = byPresence.thenComparing((a, b) -> signed ? Long.compare(key[a], key[b]) : Long.compareUnsigned(key[a], key[b]));
            }
            default -> {
                String[] key = new String[frames.length];
                CustomColumn.Text text = new CustomColumn.Text();
                for (int i = 0; i < frames.length; i++) {
                    dec.decode(frames[i]);
                    key[i] = text.of(column, dec.fields());
                }
                cmp = Comparator.comparing(r -> key[r]);
            }
        }
        return permuted(frames, rows, cmp, descending);
    }

    private static int[] permuted(int[] frames, Integer[] rows, Comparator<Integer> cmp, boolean descending) {
        if (descending) cmp = cmp.reversed();
        Arrays.parallelSort(rows, cmp.thenComparingInt(r -> r));
        int[] out = new int[frames.length];
        for (int i = 0; i < out.length; i++) out[i] = frames[rows[i]];
        return out;
    }
}
