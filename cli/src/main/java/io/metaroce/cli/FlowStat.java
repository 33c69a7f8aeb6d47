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

/**
 * dissect -z flow,TYPE,MODE[,FILTER]: tshark's flow graph (a ladder diagram) in tshark's ASCII layout, its rows
 * made by {@link FlowGraph} (hosts as nodes, QP numbers at the arrow ends, the Info as label, the analysis' verdict
 * as comment). It streams: the run's pass learns the node columns (they must be known before the first row) and
 * marks the frames it counts in a bit set (1 bit a frame); printing reads the capture again and renders the marked
 * frames in capture order, so that no row is held in memory.
 */
final class FlowStat implements ZStats.Tally {
    /** Characters per node column ({@link FlowGraph.Text#WIDTH}). */
    static final int WIDTH = FlowGraph.Text.WIDTH;

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
        FlowGraph.Text layout = new FlowGraph.Text(nodes);
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
        final FlowGraph.Text layout;
        final ByteArrayOutputStream buf = new ByteArrayOutputStream(1 << 16);

        RowWorker(FlowGraph.Text layout) { this.layout = layout; }

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
}
