package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.NameResolver;
import io.metaroce.dissector.FrameJson;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.dissector.HexDumpLines;
import io.metaroce.dissector.TreeText;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleConsumer;

/**
 * File > Export Packet Dissections: the chosen frames as text, written with the CLI's own renderers so that a file
 * exported here reads as {@code metaroce dissect} prints the same frames (as Wireshark's export reads as tshark):
 * plain text with the details all expanded is {@code dissect -V} (the dissector's {@link TreeText}), with the bytes
 * too {@code -V -x}; JSON is {@code dissect -T json} ({@link FrameJson}); CSV is the packet list's visible columns
 * as Edit > Copy > ...as CSV quotes them. Runs on any thread (its own decoder); no JavaFX here.
 */
final class DissectionExport {
    /** The export formats of the File menu. */
    enum Format { TEXT, CSV, JSON }

    /** Wireshark's "Packet Format" details choice. */
    enum Details { NONE, COLLAPSED, AS_DISPLAYED, EXPANDED }

    /**
     * What to write per frame (plain text): the summary line, the details, the bytes; displayed: the protocols
     * (header ids, "frame", "analysis") whose lines are expanded in the field tree, for {@link Details#AS_DISPLAYED}.
     */
    record TextFormat(boolean summary, Details details, Set<String> displayed, boolean bytes) {
        /** What {@code dissect -V} prints. */
        static final TextFormat CLI_V = new TextFormat(false, Details.EXPANDED, Set.of(), false);
    }

    /** The frames a progress report is made after (a million frames: a hundred reports). */
    private static final int PROGRESS_EVERY = 10_000;

    private DissectionExport() { }

    /**
     * Writes the frames in format to out (closed by the caller) and returns how many were written, or -1 when
     * cancelled (what was written so far stays). A write error comes as an UncheckedIOException.
     */
    static long write(OpenCapture c, AnalysisSession session, int[] frames, Format format, TextFormat text,
                      SummaryCells cells, OutputStream os, DoubleConsumer progress, BooleanSupplier cancelled) {
        FrameIndex ix = c.index();
        FrameDecoder decoder = new FrameDecoder(ix, session);
        ByteOut out = new ByteOut(os);
        FrameJson json = format == Format.JSON ? new FrameJson(out, true) : null;
        TreeText tree = format != Format.TEXT || text.details() == Details.NONE ? null
                : new TreeText(out, switch (text.details()) {
                    case COLLAPSED -> Set.of();
                    case AS_DISPLAYED -> text.displayed();
                    default -> null;
                });
        boolean summary = format == Format.CSV || format == Format.TEXT && text.summary();
        // Summary lines alone: one header for all (a table); with details or bytes, a header above each frame's line.
        boolean headerEach = format == Format.TEXT && (tree != null || text.bytes());
        String[] row = new String[cells == null ? 0 : cells.columns().size()];
        StringBuilder line = new StringBuilder(256);
        if (summary && !headerEach) {
            EditActions.line(line, cells.columns(), format == Format.CSV);
            out.str(line.toString());
        }
        if (format == Format.JSON) out.ch('[');
        byte[] scratch = new byte[16];
        long last = Long.MIN_VALUE;
        for (int k = 0; k < frames.length; k++) {
            if (k % PROGRESS_EVERY == 0 && k > 0) {
                if (cancelled.getAsBoolean()) {
                    out.flush();
                    return -1;
                }
                progress.accept((double) k / frames.length);
            }
            int f = frames[k];
            Dissection d = decoder.decode(f);
            d.previousDisplayedNanos(last);     // as dissect's single worker: the previous frame written
            last = d.timeNanos();
            if (json != null) {
                out.ascii(k == 0 ? "\n  " : ",\n  ");
                json.frame(d, decoder.fields());
                continue;
            }
            if (summary) {
                line.setLength(0);
                if (headerEach) EditActions.line(line, cells.columns(), false);
                cells.row(f, d, decoder.fields(), row);
                EditActions.line(line, List.of(row), format == Format.CSV);
                out.str(line.toString());
            }
            if (tree != null) tree.frame(d, decoder.fields());
            if (format == Format.TEXT && text.bytes()) {
                if (tree == null && summary) out.ch('\n');  // dissect -P -x: an empty line between line and dump
                HexDumpLines.dump(out, d.data(), d.capturedLength(), scratch);
                out.ch('\n');
            }
        }
        if (format == Format.JSON) out.ascii(frames.length == 0 ? "]\n" : "\n]\n");
        out.flush();
        progress.accept(1);
        return frames.length;
    }

    /**
     * The packet list's columns of any frame, off the JavaFX thread: the titles shown (in their order on screen)
     * and the time format and time references as set when the export started. The list's texts are the same
     * {@link PacketSummary} builders; a column this class does not know is left empty.
     */
    static final class SummaryCells {
        private final List<String> columns;
        /** Per column: its field when it is a custom column (Apply as Column), else null (a built-in one, by title). */
        private final List<CustomColumn> custom;
        private final CustomColumn.Text customText = new CustomColumn.Text();
        private final FrameIndex ix;
        private final AnalysisSession session;
        private final TimeFormat time;
        private final java.util.BitSet timeRefs;
        private final NameResolver names;

        SummaryCells(List<String> columns, List<CustomColumn> custom, OpenCapture c, AnalysisSession session, TimeFormat time,
                     java.util.BitSet timeRefs, NameResolver names) {
            this.names = names;
            this.columns = List.copyOf(columns);
            this.custom = new ArrayList<>(custom);
            this.ix = c.index();
            this.session = session;
            this.time = time;
            this.timeRefs = timeRefs;
        }

        /** The visible columns of the list, its time format, references and names, read on the JavaFX thread. */
        static SummaryCells of(GuiContext ctx, PacketTable packets) {
            java.util.BitSet refs = new java.util.BitSet();
            int n = ctx.capture().frames();
            for (int r = ctx.timeReferenceOf(n); r > 0; r = ctx.timeReferenceOf(r - 1)) refs.set(r);
            return new SummaryCells(packets.visibleColumns(), packets.visibleCustomColumns(), ctx.capture(), ctx.analysis(),
                    packets.timeFormatProperty().get(), refs, ctx.namesProperty().get());
        }

        List<String> columns() { return columns; }

        /** Fills row with frame's column texts; d and ff are the frame decoded. */
        void row(int frame, Dissection d, io.metaroce.dissector.FrameFields ff, String[] row) {
            for (int i = 0; i < row.length; i++) {
                CustomColumn cc = custom.get(i);
                row[i] = cc != null ? customText.of(cc, ff) : cell(frame, d, columns.get(i));
            }
        }

        private String cell(int frame, Dissection d, String column) {
            return switch (column) {
                case "No." -> Integer.toString(frame);
                case "Time" -> {
                    if (timeRefs.get(frame)) yield "*REF*";
                    int ref = Math.max(0, timeRefs.previousSetBit(frame));
                    yield time.format(ix.timeNanos(frame), ix.timeNanos(ref == 0 ? 1 : ref), ix.timeNanos(frame > 1 ? frame - 1 : 1));
                }
                case "Source" -> PacketSummary.source(d, names);
                case "Destination" -> PacketSummary.destination(d, names);
                case "Protocol" -> PacketSummary.protocol(d);
                case "QP" -> PacketSummary.qp(d);
                case "PSN" -> PacketSummary.psn(d);
                case "Length" -> Long.toString(ix.originalLength(frame));
                case "Info" -> PacketSummary.info(d, session != null ? session.verdictOf(frame) : null);
                default -> "";
            };
        }
    }

    /** The protocols whose lines are expanded in the field tree (Details: as displayed), with "frame" always. */
    static Set<String> expandedProtocols(javafx.scene.control.TreeItem<TreeEntry> root) {
        Set<String> out = new java.util.HashSet<>();
        out.add("frame");
        if (root == null) return out;
        List<javafx.scene.control.TreeItem<TreeEntry>> all = new ArrayList<>();
        for (var top : root.getChildren()) FieldTreeModel.walk(top, all);
        for (var it : all) {
            var n = it.getValue().node();
            if (n == null || !it.isExpanded() || it.getChildren().isEmpty()) continue;
            if (n.kind() == io.metaroce.dissector.FieldNode.Kind.ANALYSIS) out.add("analysis");
            else if (n.kind() == io.metaroce.dissector.FieldNode.Kind.LAYER && n.header() != null) out.add(n.header().id());
        }
        return out;
    }
}
