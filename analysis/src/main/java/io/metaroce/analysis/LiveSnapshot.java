package io.metaroce.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * The per-QP counters of a running analysis at one moment, copied out of the engine so that another thread
 * (the live table of {@code analyze -i}) can show them: the engine itself is not thread-safe. Taken only under
 * {@link LiveAnalyzer.Monitor}'s lock.
 *
 * @param frames frames analyzed so far
 * @param flows  one row per QP flow, in the order the flows appeared
 */
public record LiveSnapshot(long frames, List<Row> flows) {
    public static final LiveSnapshot EMPTY = new LiveSnapshot(0, List.of());

    /** One QP flow: what the table shows of it. */
    public record Row(String id, long packets, long retransmitted, long naks, long cnps, long ceMarks, long networkLosses,
                      List<PathLoss> paths) {}

    /** A MetaRoCE path of a flow: copies lost on it of those sent on it. */
    public record PathLoss(int path, long lost, long sent) {
        public double rate() { return sent == 0 ? 0 : (double) lost / sent; }
    }

    /** Copies the counters out of the engine (the caller holds the engine's thread or its lock). */
    static LiveSnapshot of(AnalysisEngine engine, long frames) {
        List<Row> rows = new ArrayList<>(engine.flowList().size());
        for (Flow f : engine.flowList()) {
            List<PathLoss> paths = List.of();
            if (f.paths != null) {
                paths = new ArrayList<>();
                for (PathStats p : f.paths) {
                    if (p != null) paths.add(new PathLoss(p.id, p.lost, p.firstSends + p.retransmissionsOn));
                }
            }
            rows.add(new Row(f.id, f.packets, f.retransmitted, f.naks, f.cnps, f.ceMarks, f.networkLosses, List.copyOf(paths)));
        }
        return new LiveSnapshot(frames, List.copyOf(rows));
    }
}
