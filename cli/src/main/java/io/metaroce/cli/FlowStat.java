package io.metaroce.cli;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowGraph;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FramePipeline;
import io.metaroce.filter.DisplayFilter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

/**
 * dissect -z flow,TYPE,MODE[,FILTER]: tshark's flow graph (a ladder diagram) in tshark's ASCII layout, its rows
 * made by {@link FlowGraph} (hosts as nodes, QP numbers at the arrow ends, the Info as label, the analysis' verdict
 * as comment). It streams: the run's pass learns the node columns (they must be known before the first row) and
 * marks the frames it counts in a bit set (1 bit a frame); printing reads the capture again and renders the marked
 * frames in capture order, so that no row is held in memory.
 */
final class FlowStat implements ZStats.Tally {
    /** Characters per node column; tshark's is 20, too narrow for a label with its PSN ("RC RDMA WRITE First PSN=5"). */
    static final int WIDTH = 40;

    /** What the second pass needs: the capture again, the dissector's settings, the analysis (or null), the workers. */
    record Source(Path file, DissectorConfig config, AnalysisSession verdicts, int threads) { }

    private final FlowGraph.Type type;
    private final FlowGraph.Mode mode;
    private final DisplayFilter filter;
    private final Source source;
    private final FlowGraph.Nodes nodes = new FlowGraph.Nodes();
    private final BitSet shown = new BitSet();
    /** This worker's analysis reader (standard mode names a node by its QP, whose sender needs the analysis). */
    private AnalysisFrameFields analysis;

    FlowStat(FlowGraph.Type type, FlowGraph.Mode mode, DisplayFilter filter, Source source) {
        this.type = type;
        this.mode = mode;
        this.filter = filter;
        this.source = source;
    }

    /**
     * The flow argument's type and mode, or why it is none (one line): flow,TYPE,MODE[,FILTER] with TYPE any or
     * roce and MODE standard or network, as tshark -z flow.
     */
    static Object parse(String z) {
        String[] p = z.split(",", 4);
        String usage = "it must be flow,TYPE,MODE[,FILTER] with TYPE any or roce and MODE standard or network";
        if (p.length < 3) return "invalid -z argument \"" + z + "\"; " + usage;
        FlowGraph.Type t = switch (p[1]) {
            case "any" -> FlowGraph.Type.ANY;
            case "roce" -> FlowGraph.Type.ROCE;
            default -> null;
        };
        if (t == null) return "-z " + z + ": unknown flow type '" + p[1] + "'; " + usage;
        FlowGraph.Mode m = switch (p[2]) {
            case "standard" -> FlowGraph.Mode.STANDARD;
            case "network" -> FlowGraph.Mode.NETWORK;
            default -> null;
        };
        if (m == null) return "-z " + z + ": unknown flow mode '" + p[2] + "'; " + usage;
        return new Object[] {t, m};
    }

    /** The filter after flow,TYPE,MODE (null: none). */
    static String filterText(String z) {
        String[] p = z.split(",", 4);
        return p.length == 4 && !p[3].isEmpty() ? p[3] : null;
    }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        if (!FlowGraph.selects(type, d)) return;
        if (filter != null && !filter.matches(ff)) return;
        if (d.number() > Integer.MAX_VALUE) return;
        shown.set((int) d.number());
        long src = -1;
        if (mode == FlowGraph.Mode.STANDARD) {
            if (analysis == null && source.verdicts() != null) analysis = source.verdicts().frameFields();
            src = FlowGraph.sourceQp(d, analysis);
        }
        nodes.learn(d.number(), FlowGraph.from(mode, d, src), FlowGraph.to(mode, d));
    }

    @Override
    public void merge(ZStats.Tally other) {
        FlowStat o = (FlowStat) other;
        shown.or(o.shown);
        nodes.merge(o.nodes);
    }

    /** The header and then every marked frame's two lines, read again from the capture in order. */
    @Override
    public void print(ByteOut out) {
        if (shown.isEmpty()) return;    // tshark prints nothing for a flow without frames
        Layout layout = new Layout(nodes);
        out.str(layout.header());
        out.flush();
        try (PacketSource src = CaptureFiles.open(source.file())) {
            FramePipeline.run(src, source.threads(), () -> new RowWorker(layout), chunk -> {
                out.bytes(chunk);
                return !out.closed();
            });
        } catch (CaptureException e) {
            System.err.println("metaroce dissect: -z flow: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.flush();
    }

    /** Renders the rows of the marked frames of one batch (each worker its own dissector and analysis reader). */
    private final class RowWorker implements FramePipeline.Worker<byte[]> {
        final Dissector dissector = new Dissector(source.config());
        final Dissection d = new Dissection();
        final AnalysisFrameFields fields = source.verdicts() == null ? null : source.verdicts().frameFields();
        final Layout layout;
        final ByteArrayOutputStream buf = new ByteArrayOutputStream(1 << 16);

        RowWorker(Layout layout) { this.layout = layout; }

        @Override
        public byte[] process(FrameBatch batch) {
            buf.reset();
            for (int i = 0; i < batch.size(); i++) {
                long n = batch.firstFrameNumber() + i;
                if (n > Integer.MAX_VALUE || !shown.get((int) n)) continue;
                batch.dissect(i, dissector, d);
                if (fields != null) fields.attach(d);
                buf.writeBytes(layout.row(FlowGraph.row(mode, d, fields)).getBytes(StandardCharsets.UTF_8));
            }
            return buf.toByteArray();
        }
    }

    /** tshark's ASCII layout (sequence_analysis_dump_to_file) with {@link #WIDTH} characters a node. */
    static final class Layout {
        private final FlowGraph.Nodes nodes;
        private final List<String> names;
        private final String empty;

        Layout(FlowGraph.Nodes nodes) {
            this.nodes = nodes;
            this.names = nodes.ordered();
            StringBuilder e = new StringBuilder();
            for (int i = 0; i < names.size(); i++) e.append(pad("|", WIDTH));
            this.empty = e.append('|').toString();
        }

        /** Two lines: the even nodes above, the odd ones below, each over two columns (tshark's). */
        String header() {
            StringBuilder b = new StringBuilder("|Time     ");
            for (int i = 0; i < names.size(); i += 2) b.append(pad("| " + names.get(i), WIDTH * 2));
            b.append("|\n|         ").append(pad("|", WIDTH));
            for (int i = 1; i < names.size(); i += 2) {
                String s = "| " + names.get(i);
                if (s.length() < WIDTH) s = pad(s, WIDTH) + "| ";
                b.append(pad(s, WIDTH * 2));
            }
            return b.append('\n').toString();
        }

        /** A frame's two lines: time, label over the arrow, comment; then the arrow with the QP numbers at its ends. */
        String row(FlowGraph.Row r) {
            int from = nodes.column(r.from()), to = nodes.column(r.to());
            int start = from * WIDTH + WIDTH / 2, end = to * WIDTH + WIDTH / 2, width;
            if (start != end) width = Math.abs(end - start);
            else {
                end = start + WIDTH;
                width = WIDTH;
            }
            StringBuilder b = new StringBuilder(2 * empty.length() + 64);
            b.append(pad("|" + seconds(r.relativeNanos()), 10));
            StringBuilder line = new StringBuilder(empty);
            overwrite(line, r.label(), start, end);
            b.append(line).append(r.comment()).append("\n|         ");
            line = new StringBuilder(empty);
            String arrow = start < end ? "-".repeat(width - 2) + ">" : "<" + "-".repeat(width - 2);
            overwrite(line, arrow, start, end);
            String src = r.fromQp() < 0 ? "" : "(" + FlowGraph.qp(r.fromQp()) + ")";
            String dst = r.toQp() < 0 ? "" : "(" + FlowGraph.qp(r.toQp()) + ")";
            int slot = WIDTH / 2 - 1;
            if (start < end) {
                overwrite(line, src, start - slot, start - 1);
                overwrite(line, dst, end + 1, end + slot);
            } else {
                overwrite(line, src, start + 1, start + slot);
                overwrite(line, dst, end - slot, end + 1);
            }
            return b.append(line).append('\n').toString();
        }

        /** tshark's overwrite: text over the span p1..p2 (either order), cut to it, the line keeping its length. */
        static void overwrite(StringBuilder s, String text, int p1, int p2) {
            if (p1 == p2 || text.isEmpty()) return;
            int pos = Math.max(0, Math.min(p1, p2)), len = Math.abs(p2 - p1);
            if (len > text.length()) len = text.length();
            else text = text.substring(0, len);
            if (pos > s.length()) pos = s.length();
            s.delete(pos, Math.min(pos + len, s.length())).insert(pos, text);
        }

        /** Seconds with 9 decimals ("0.000019476"; String.format cost a third of the rendering). */
        static String seconds(long ns) {
            String sign = ns < 0 ? "-" : "";
            ns = Math.abs(ns);
            String frac = Long.toString(ns % 1_000_000_000L);
            return sign + ns / 1_000_000_000L + "." + "0".repeat(9 - frac.length()) + frac;
        }

        private static String pad(String s, int width) {
            return s.length() >= width ? s : s + " ".repeat(width - s.length());
        }
    }
}
