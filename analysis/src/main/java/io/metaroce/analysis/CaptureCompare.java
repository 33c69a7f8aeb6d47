package io.metaroce.analysis;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code metaroce compare A B}: two captures of the same RoCEv2/MetaRoCE traffic taken at two points (both hosts'
 * NICs, a host and a switch mirror) merged by time and matched packet by packet ({@link CompareMatcher}): per flow
 * and direction, what was lost between the points, what appeared downstream only, resends of packets the downstream
 * point already had, and the one-way delay; the clock offset of the two points as NTP estimates it.
 *
 * <p>Two passes over each file: the first few thousand RoCE packets of both give a first offset (so that the merge
 * puts the two streams on one clock), then the whole of both, merged by time and matched within the window. Memory
 * is that of the flows and the window (and of the unmatched packets), not of the frames. When the first packets of
 * the two have nothing in common (one capture started long after the other, whatever the clocks' offset), each file
 * is read once more up to the first packet the other's first packets hold, and the offset is taken from there.
 */
public final class CaptureCompare {
    /** RoCE packets per capture read to estimate the offset before the merge. */
    static final int PRELUDE = 4096;

    /**
     * @param windowNs how long a packet waits for its copy at the other point, beyond the largest one-way delay seen
     * @param shiftNs  null: estimate the offset; else add this to point 2's times (editcap -t) and take the clocks as
     *                 agreeing after that
     */
    public record Options(long windowNs, Long shiftNs, Set<Integer> rocePorts) {}

    /** Bytes read of both files, of their total. */
    @FunctionalInterface
    public interface Progress {
        void update(long done, long total);
    }

    /**
     * The comparison: {@link #model} (one JSON object: the report's content, also what the text is printed from),
     * its text form ({@link #text}, tshark-style tables), the damage each file's reader met ({@link #problems}, "FILE: message"), and whether any flow's hosts were seen at
     * both points ({@link #common}).
     */
    public record Result(Map<String, Object> model, String text, List<String> problems, boolean common) {}

    private CaptureCompare() {}

    public static Result run(Path a, Path b, Options o, Progress progress) throws CaptureException {
        DissectorConfig dc = new DissectorConfig(o.rocePorts(), false);
        long offset0;
        String how;
        if (o.shiftNs() != null) {
            offset0 = -o.shiftNs();
            how = "given";
        } else {
            Long est = prelude(a, b, dc);
            offset0 = est == null ? 0 : est;
            how = "estimated";
        }
        CompareMatcher m = new CompareMatcher(o.windowNs());
        List<String> problems = new ArrayList<>();
        long[] frames = new long[2], firstFrame = new long[2];
        try (Cursor c1 = new Cursor(a, dc); Cursor c2 = new Cursor(b, dc)) {
            // A source without a mapping has no size (-1): no total to show progress against then.
            long total = c1.size < 0 || c2.size < 0 ? -1 : c1.size + c2.size;
            if (total < 0) progress = null;
            long n = 0;
            boolean h1 = c1.next(), h2 = c2.next();
            while (h1 || h2) {
                // The merge: point 2's time minus the offset is on point 1's clock.
                if (h1 && (!h2 || c1.f.timeNs <= c2.f.timeNs - offset0)) {
                    m.packet(CompareMatcher.P1, c1.f, c1.f.timeNs, c1.f.timeNs);
                    h1 = c1.next();
                } else {
                    m.packet(CompareMatcher.P2, c2.f, c2.f.timeNs - offset0, c2.f.timeNs);
                    h2 = c2.next();
                }
                if (progress != null && (++n & 0xFFFF) == 0) progress.update(c1.src.recordOffset() + c2.src.recordOffset(), total);
            }
            m.end();
            if (progress != null) progress.update(total, total);
            frames[0] = c1.frames;
            frames[1] = c2.frames;
            firstFrame[0] = c1.firstFrameNs;
            firstFrame[1] = c2.firstFrameNs;
            for (var p : c1.src.problems()) problems.add(a + ": " + p.message());
            for (var p : c2.src.problems()) problems.add(b + ": " + p.message());
        }
        CompareReport r = new CompareReport(m, offset0, how, o.windowNs(), new String[] {a.toString(), b.toString()}, frames,
                firstFrame);
        Map<String, Object> model = r.model(problems);
        return new Result(model, r.text(model), problems, r.common());
    }

    /**
     * The offset from the first {@link #PRELUDE} RoCE packets of each capture, matched without a window on their own
     * clocks; null when no host pair was matched both ways (the offset cannot be told from the delay then: the
     * merge assumes the clocks agree).
     */
    private static Long prelude(Path a, Path b, DissectorConfig dc) throws CaptureException {
        List<FrameFacts> l1 = firstPackets(a, dc, 0), l2 = firstPackets(b, dc, 0);
        Long est = estimate(a, b, l1, l2);
        if (est != null) return est;
        // Nothing matched both ways among the first packets: one point may have started capturing after the other's
        // first packets had passed, and then no clock offset brings the two lists together. Find where each capture
        // meets the start of the other (packets are matched by key, whatever their times) and estimate from there.
        long atA = firstCommon(a, dc, keys(l2));
        if (atA > 0) {
            est = estimate(a, b, firstPackets(a, dc, atA), l2);
            if (est != null) return est;
        }
        long atB = firstCommon(b, dc, keys(l1));
        if (atB > 0) est = estimate(a, b, l1, firstPackets(b, dc, atB));
        return est;
    }

    /** The offset from two lists of packets matched by key without a window, or null (see {@link #prelude}). */
    private static Long estimate(Path a, Path b, List<FrameFacts> l1, List<FrameFacts> l2) {
        CompareMatcher m = new CompareMatcher(Long.MAX_VALUE / 4);
        int i = 0, j = 0;
        while (i < l1.size() || j < l2.size()) {
            if (i < l1.size() && (j >= l2.size() || l1.get(i).timeNs <= l2.get(j).timeNs)) {
                FrameFacts f = l1.get(i++);
                m.packet(CompareMatcher.P1, f, f.timeNs, f.timeNs);
            } else {
                FrameFacts f = l2.get(j++);
                m.packet(CompareMatcher.P2, f, f.timeNs, f.timeNs);
            }
        }
        m.end();
        return new CompareReport(m, 0, "estimated", 0, new String[] {a.toString(), b.toString()}, new long[2], new long[2])
                .estimatedOffset();
    }

    /**
     * A packet's identity across the points as one number (flow, PSN, opcode, fingerprint: the matcher's key, hashed).
     * Only used to find where two captures meet: a rare collision only moves that place, and the estimate from there
     * is the matcher's, on the full key.
     */
    private static long key(FrameFacts f) {
        long h = f.fingerprint;
        h = h * 0x9E3779B97F4A7C15L + f.psn;
        h = h * 0x9E3779B97F4A7C15L + f.opcodeValue;
        h = h * 0x9E3779B97F4A7C15L + f.destQp;
        h = h * 0x9E3779B97F4A7C15L + f.srcLo;
        h = h * 0x9E3779B97F4A7C15L + f.dstLo;
        h = h * 0x9E3779B97F4A7C15L + f.srcHi;
        return h * 0x9E3779B97F4A7C15L + f.dstHi;
    }

    private static java.util.Set<Long> keys(List<FrameFacts> l) {
        java.util.Set<Long> k = new java.util.HashSet<>();
        for (FrameFacts f : l) k.add(key(f));
        return k;
    }

    /** The index (among its RoCE packets) of the first packet of the file whose key is one of these, or -1. */
    private static long firstCommon(Path file, DissectorConfig dc, java.util.Set<Long> keys) throws CaptureException {
        if (keys.isEmpty()) return -1;
        try (Cursor c = new Cursor(file, dc)) {
            for (long i = 0; c.next(); i++) if (keys.contains(key(c.f))) return i;
        }
        return -1;
    }

    /** {@link #PRELUDE} RoCE packets of the file, after the first {@code skip}. */
    private static List<FrameFacts> firstPackets(Path file, DissectorConfig dc, long skip) throws CaptureException {
        List<FrameFacts> l = new ArrayList<>();
        try (Cursor c = new Cursor(file, dc)) {
            for (long i = 0; i < skip; i++) if (!c.next()) return l;
            while (l.size() < PRELUDE && c.next()) {
                FrameFacts f = new FrameFacts();
                f.copyFrom(c.f);
                l.add(f);
            }
        }
        return l;
    }

    /** A capture read frame by frame into facts: the analysis' fast path, the full dissection where it declines. */
    private static final class Cursor implements AutoCloseable {
        final PacketSource src;
        final long size;
        final FastFacts fast;
        final Dissector dis;
        final Dissection d = new Dissection();
        final FrameFacts f = new FrameFacts();
        long frames;
        /** The time of the file's first frame (RoCE or not): tshark's -t r counts from it. */
        long firstFrameNs;

        Cursor(Path file, DissectorConfig dc) throws CaptureException {
            src = CaptureFiles.open(file);
            size = src.mapping() == null ? -1 : src.mapping().byteSize();
            fast = new FastFacts(dc);
            dis = new Dissector(dc);
        }

        /** Moves to the next RoCE frame; false at the end (or at damage: the reader's problems say so). */
        boolean next() {
            while (src.next()) {
                if (frames++ == 0) firstFrameNs = src.timestampNanos();
                if (!fast.fill(f, src)) {
                    dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    f.from(d);
                }
                if (f.roce && f.opcode != null) return true;
            }
            return false;
        }

        @Override
        public void close() {
            try {
                src.close();
            } catch (Exception e) {
                // a read-only mapping: nothing to lose
            }
        }
    }

    /** Seconds with nine decimals (the report's times). */
    static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.9f", ns / 1e9);
    }

    static <K, V> Map<K, V> map() { return new LinkedHashMap<>(); }

    static <K> TreeMap<K, long[]> tree() { return new TreeMap<>(); }
}
