package io.metaroce.gui.graph;

import static io.metaroce.gui.graph.GraphExport.field;
import static io.metaroce.gui.graph.GraphExport.number;
import static io.metaroce.gui.graph.GraphExport.seconds;

import java.io.IOException;
import java.io.Writer;
import java.util.Set;

/**
 * The CSV each graph window's "Save As..." writes: the data its graph plots, in full (a decimated plot writes every
 * point, not the pixels drawn). Times are seconds with 9 decimals since the origin the graph's x axis counts from.
 * Headers are quoted, as Wireshark's I/O Graph CSV has them.
 */
final class GraphCsv {
    private GraphCsv() { }

    /** I/O Graph, as Wireshark's: one row per interval (its start), one column per series. */
    static void ioGraph(IoGraphData d, Writer w) throws IOException {
        w.write("\"Interval start\"");
        for (IoSeries s : d.series()) w.write(",\"" + s.name().replace("\"", "\"\"") + '"');
        w.write("\r\n");
        for (int b = 0; b < d.bins(); b++) {
            w.write(seconds(b * d.intervalNs()));
            for (int s = 0; s < d.series().size(); s++) {
                w.write(',');
                w.write(number(d.value(s, b)));
            }
            w.write("\r\n");
        }
    }

    /**
     * PSN graph: a row per point drawn (time since the first frame, the PSN on the wire, what the point is, its
     * frame): the data packets, then each marker kind shown.
     */
    static void psn(FlowSeries s, Set<MarkerKind> shown, Writer w) throws IOException {
        w.write("\"Time\",\"PSN\",\"Kind\",\"Frame\"\r\n");
        points(s, s.data(), "Data packet", w);
        for (MarkerKind k : MarkerKind.values()) if (shown.contains(k)) points(s, s.markers(k), k.label(), w);
    }

    private static void points(FlowSeries s, PointSet p, String kind, Writer w) throws IOException {
        String k = ',' + field(kind) + ',';
        for (int i = 0; i < p.size(); i++) {
            w.write(seconds(p.time(i)));
            w.write(',');
            w.write(Integer.toString(s.rawPsn(p.value(i))));
            w.write(k);
            w.write(Integer.toString(p.frame(i)));
            w.write("\r\n");
        }
    }

    /**
     * Congestion Loop: a row per point of each series (the data rate and the pace per bucket in Mb/s, each CE mark
     * and CNP) and per paused run (its start, its length in seconds), with the frame each starts at.
     */
    static void congestion(CongestionSeries s, Writer w) throws IOException {
        w.write("\"Series\",\"Time\",\"Value\",\"Unit\",\"Frame\"\r\n");
        series(s.rate(), "Data rate", "Mb/s", true, w);
        series(s.pace(), "Pace", "Mb/s", true, w);
        series(s.ce(), "CE mark", "", false, w);
        series(s.cnp(), "CNP", "", false, w);
        for (long[] r : s.paused()) {
            w.write("Paused," + seconds(r[0]) + ',' + seconds(r[1] - r[0]) + ",s," + r[2] + "\r\n");
        }
    }

    private static void series(PointSet p, String name, String unit, boolean values, Writer w) throws IOException {
        for (int i = 0; i < p.size(); i++) {
            w.write(field(name) + ',' + seconds(p.time(i)) + ',' + (values ? Long.toString(p.value(i)) : "") + ','
                    + field(unit) + ',' + p.frame(i) + "\r\n");
        }
    }

    /**
     * Path heatmap: the path x interval matrix of the metric shown, a row per path_id, a column per interval (its
     * start since the flow's first packet); an empty cell has no value (no packet, no RTT).
     */
    static void heatmap(PathHeatmap m, HeatMetric metric, Writer w) throws IOException {
        w.write("\"path_id \\ " + metric.label() + "\"");
        for (int b = 0; b < m.bins(); b++) w.write(",\"" + seconds(b * m.binNs()) + '"');
        w.write("\r\n");
        for (int p = 0; p < m.paths(); p++) {
            w.write(Integer.toString(p));
            for (int b = 0; b < m.bins(); b++) {
                w.write(',');
                if (m.packets(p, b) > 0) w.write(number(m.value(metric, p, b)));
            }
            w.write("\r\n");
        }
    }
}
