package io.metaroce.gui.stats;

import io.metaroce.analysis.AnalysisResult;
import io.metaroce.capture.CaptureProblem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rows of Capture file properties, in sections: the file, time, and the integrity of the capture (drops
 * the capturing host counted, PSN gaps that are capture loss, truncated frames, duplicates, damage the reader
 * met with its byte offset, where the tap was). Every value comes from the analysis' capture summary (the same
 * map {@code analyze -T json} prints) and the reader's problems.
 */
public final class CaptureProperties {
    /** One line: its section, name and value as shown; warn when the value is a problem worth a colour. */
    public record Row(String section, String name, String value, boolean warn) {}

    private CaptureProperties() {}

    public static List<Row> rows(AnalysisResult result, long fileSize, List<CaptureProblem> problems) {
        Map<String, Object> c = result.capture();
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("File", "Name", str(c.get("file")), false));
        rows.add(new Row("File", "Format", str(c.get("format")), false));
        rows.add(new Row("File", "Size", fileSize < 0 ? "-" : String.format("%,d bytes", fileSize), false));
        rows.add(new Row("File", "Frames", String.format("%,d", num(c.get("frames"))), false));
        rows.add(new Row("File", "RoCE frames", String.format("%,d", num(c.get("roce_frames"))), false));
        rows.add(new Row("File", "Bytes", String.format("%,d", num(c.get("bytes"))), false));
        rows.add(new Row("Time", "First frame", time(c.get("first_ns")), false));
        rows.add(new Row("Time", "Last frame", time(c.get("last_ns")), false));
        rows.add(new Row("Time", "Duration", String.format("%,d ns", num(c.get("duration_ns"))), false));
        @SuppressWarnings("unchecked")
        Map<String, Object> tap = (Map<String, Object>) c.get("tap");
        if (tap != null) {
            rows.add(new Row("Tap", "Setting", str(tap.get("setting")), false));
            rows.add(new Row("Tap", "Resolved", str(tap.get("resolved")), false));
            rows.add(new Row("Tap", "How", str(tap.get("how")), false));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> drops = (Map<String, Object>) c.get("capture_drops");
        if (drops != null) {
            rows.add(countRow("Drops reported by the interface", drops.get("if_dropped")));
            rows.add(countRow("Drops reported by the OS", drops.get("os_dropped")));
        }
        rows.add(new Row("Integrity", "Capture drops detected", Boolean.TRUE.equals(c.get("capture_drops_detected")) ? "yes" : "no",
                Boolean.TRUE.equals(c.get("capture_drops_detected"))));
        rows.add(countRow("Capture gaps (PSNs the capture lost)", c.get("capture_gaps")));
        rows.add(new Row("Integrity", "Network losses", String.format("%,d", num(c.get("network_losses"))), false));
        rows.add(countRow("Truncated frames (snap length)", c.get("truncated_frames")));
        rows.add(countRow("Unjudged frames", c.get("unjudged_frames")));
        rows.add(countRow("Capture duplicates", c.get("duplicates")));
        @SuppressWarnings("unchecked")
        Map<String, Object> sampling = (Map<String, Object>) c.get("sampling");
        if (sampling != null) {
            boolean s = Boolean.TRUE.equals(sampling.get("suspected"));
            rows.add(new Row("Integrity", "Sampling suspected", s ? "yes, about 1 in " + sampling.get("estimated_one_in") : "no", s));
        }
        if (problems.isEmpty()) rows.add(new Row("Integrity", "Damage", "none", false));
        for (CaptureProblem p : problems) rows.add(new Row("Integrity", "Damage", p.message(), true));
        return rows;
    }

    /** Wireshark's Packet Comments section: a row per comment of the capture as edited, "Frame N" its name. */
    public static List<Row> commentRows(io.metaroce.gui.GuiContext ctx) {
        List<Row> rows = new ArrayList<>();
        for (int f : ctx.commentedFrames())
            for (String c : ctx.comments(f)) rows.add(new Row("Packet Comments", "Frame " + f, c, false));
        return rows;
    }

    private static Row countRow(String name, Object v) {
        if (v == null) return new Row("Integrity", name, "not reported", false);
        long n = num(v);
        return new Row("Integrity", name, String.format("%,d", n), n > 0);
    }

    private static long num(Object o) { return o instanceof Number n ? n.longValue() : 0; }

    private static String str(Object o) { return o == null ? "-" : o.toString(); }

    private static String time(Object o) {
        if (!(o instanceof Number n)) return "-";
        long ns = n.longValue();
        return Instant.ofEpochSecond(Math.floorDiv(ns, 1_000_000_000L), Math.floorMod(ns, 1_000_000_000L)) + " (" + ns + " ns)";
    }
}
