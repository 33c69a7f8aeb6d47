package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FrameFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * dissect -z: tshark's statistics over the frames that pass -Y, printed after the frames. Each worker counts its own
 * frames (the wrapped sink prints them as before); the counts are merged at the end, so the order in which workers ran
 * changes nothing. Supported: io,phs (protocol hierarchy, tshark's layout, our headers as the protocols) and
 * io,stat,INTERVAL (frames and bytes per interval of seconds since the first frame).
 */
final class ZStats implements DissectCommand.FrameSink {
    /** What -z takes here (-z help lists it). */
    static final List<String> SUPPORTED = List.of("io,phs", "io,stat,INTERVAL");

    private final DissectCommand.FrameSink inner;
    private final boolean phs;
    private final long intervalNanos; // 0: no io,stat
    private long firstTime = Long.MIN_VALUE;
    /** io,phs: "eth:ip:udp" -> {frames, bytes, first frame number}. */
    final Map<String, long[]> paths = new HashMap<>();
    /** io,stat: interval index -> {frames, bytes}. */
    final Map<Long, long[]> intervals = new HashMap<>();
    long lastTime = Long.MIN_VALUE;
    private final StringBuilder path = new StringBuilder();

    /** Frames still to count: -c N (the run then has one worker, which dissects whole batches past the N-th frame). */
    private long budget;

    ZStats(DissectCommand.FrameSink inner, boolean phs, long intervalNanos, long budget) {
        this.budget = budget;
        this.inner = inner;
        this.phs = phs;
        this.intervalNanos = intervalNanos;
    }

    @Override
    public void batch(FrameBatch batch) {
        firstTime = batch.captureStartNanos();
        inner.batch(batch);
    }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        inner.frame(d, ff);
        if (budget-- <= 0) return;
        if (firstTime == Long.MIN_VALUE) firstTime = d.timeNanos();
        if (phs) {
            path.setLength(0);
            for (int i = 0; i < d.layerCount(); i++) {
                if (i > 0) path.append(':');
                path.append(d.layer(i).id());
                long[] c = paths.computeIfAbsent(path.toString(), k -> new long[] {0, 0, Long.MAX_VALUE});
                c[0]++;
                c[1] += d.originalLength();
                c[2] = Math.min(c[2], d.number());
            }
        }
        if (intervalNanos > 0) {
            // As tshark's io,stat: times rounded to the microsecond before they are cut into intervals (a frame 99.6 µs
            // after the first is in the interval from 100 µs on).
            long rel = Math.max(0, micros(d.timeNanos()) - micros(firstTime)) * 1000;
            long[] c = intervals.computeIfAbsent(rel / (Math.max(1, intervalNanos / 1000) * 1000), k -> new long[2]);
            c[0]++;
            c[1] += d.originalLength();
            lastTime = Math.max(lastTime, d.timeNanos() - firstTime);
        }
    }

    private static long micros(long ns) {
        return Math.floorDiv(ns, 1_000_000_000L) * 1_000_000L + (Math.floorMod(ns, 1_000_000_000L) + 500) / 1000;
    }

    /** Adds another worker's counts to these. */
    void merge(ZStats o) {
        o.paths.forEach((k, v) -> {
            long[] c = paths.computeIfAbsent(k, x -> new long[] {0, 0, Long.MAX_VALUE});
            c[0] += v[0];
            c[1] += v[1];
            c[2] = Math.min(c[2], v[2]);
        });
        o.intervals.forEach((k, v) -> {
            long[] c = intervals.computeIfAbsent(k, x -> new long[2]);
            c[0] += v[0];
            c[1] += v[1];
        });
        lastTime = Math.max(lastTime, o.lastTime);
    }

    /** io,phs in tshark's layout: each protocol under its parent, in the order met, with its frames and bytes. */
    void printPhs(ByteOut out, String filter) {
        out.ascii("\n===================================================================\n");
        out.ascii("Protocol Hierarchy Statistics\nFilter: ").str(filter == null ? "" : filter).ascii("\n\n");
        List<String> sorted = new ArrayList<>(paths.keySet());
        // Depth first, siblings in the order of their first frame (tshark: the order in which they were met).
        sorted.sort((a, b) -> compareTree(a, b));
        for (String p : sorted) {
            int depth = (int) p.chars().filter(ch -> ch == ':').count();
            String name = "  ".repeat(depth) + p.substring(p.lastIndexOf(':') + 1);
            StringBuilder line = new StringBuilder(name);
            while (line.length() < 41) line.append(' ');
            long[] c = paths.get(p);
            out.str(line.toString()).ascii("frames:").num(c[0]).ascii(" bytes:").num(c[1]).ch('\n');
        }
        out.ascii("===================================================================\n");
    }

    private int compareTree(String a, String b) {
        String[] x = a.split(":"), y = b.split(":");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (x[i].equals(y[i])) continue;
            String pa = String.join(":", java.util.Arrays.copyOf(x, i + 1)), pb = String.join(":", java.util.Arrays.copyOf(y, i + 1));
            return Long.compare(paths.get(pa)[2], paths.get(pb)[2]);
        }
        return Integer.compare(x.length, y.length);
    }

    /** io,stat: one row per interval from the first frame to the last, frames and bytes (tshark's columns). */
    void printIoStat(ByteOut out, long intervalNanos, String intervalText) {
        out.ascii("\n========================================\n| IO Statistics\n|\n");
        out.ascii("| Duration: ").ascii(secs(lastTime == Long.MIN_VALUE ? 0 : lastTime)).ascii(" secs\n");
        out.ascii("| Interval: ").ascii(intervalText).ascii(" secs\n|\n| Col 1: Frames and bytes\n");
        out.ascii("|--------------------------------------\n| Interval           | Frames |  Bytes |\n");
        out.ascii("|--------------------------------------\n");
        long last = lastTime == Long.MIN_VALUE ? -1 : lastTime / intervalNanos;
        for (long i = 0; i <= last; i++) {
            long[] c = intervals.getOrDefault(i, new long[2]);
            long end = (i + 1) * intervalNanos;
            out.ascii("| ").ascii(secs(i * intervalNanos)).ascii(" <> ").ascii(secs(i == last ? Math.min(end, lastTime) : end))
                    .ascii(" | ").ascii(String.format(java.util.Locale.ROOT, "%6d", c[0])).ascii(" | ").ascii(String.format(java.util.Locale.ROOT, "%6d", c[1])).ascii(" |\n");
        }
        out.ascii("========================================\n");
    }

    private static String secs(long ns) {
        return String.format(java.util.Locale.ROOT, "%.5f", ns / 1e9);
    }
}
