package io.metaroce.index;

import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.FlowSummary.ByCause;
import io.metaroce.analysis.FlowSummary.Counters;
import io.metaroce.analysis.FlowSummary.LatencySummary;
import io.metaroce.analysis.FlowSummary.Latencies;
import io.metaroce.analysis.FlowSummary.MetaRoce;
import io.metaroce.analysis.FlowSummary.PathSummary;
import io.metaroce.analysis.FrameList;
import io.metaroce.analysis.View;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * The flows an index pass evicted (a capture of more QPs than the analysis' flow bound), each written to a scratch
 * file as it is evicted and read back, in the same order, when the capture's documents are made. Before, index kept
 * every evicted flow's {@link FlowSummary} and {@link FrameList} on the heap until its commit, about 2.3 KB per QP
 * (a class histogram of index of 400,000 single-packet QPs: 943 MB), so the heap grew with the capture's QPs and
 * 10^6 QPs ran out of memory under -Xmx1g. A record here is some 120-140 bytes for a single-packet QP (an estimate from the encoding: varints,
 * most counters are 0), on disk.
 *
 * <p>The documents cannot be made at eviction: every document carries the capture's content hash and first and last
 * packet time, known only once the pass is over, and its event types and rules, known only then too. The file is
 * removed as soon as it is opened (where the system allows), so that a killed run leaves nothing behind. Not
 * thread-safe: written on the analysis thread, read after the pass.
 */
public final class EvictedFlowSpill implements AutoCloseable {
    private final Path dir;
    private FileChannel file;
    private final ByteBuffer buf = ByteBuffer.allocate(1 << 16);
    /** One record as it is encoded (a flow of one packet: about 130 bytes). */
    private final ByteBuffer record = ByteBuffer.allocate(4_096);
    private long count, written;
    private boolean reading;

    /** A spill in the system's temporary directory ({@code java.io.tmpdir}). */
    public EvictedFlowSpill() { this(Path.of(System.getProperty("java.io.tmpdir"))); }

    public EvictedFlowSpill(Path dir) { this.dir = dir; }

    /** Flows written so far. */
    public long size() { return count; }

    /** Writes one evicted flow (on the analysis thread, as it is evicted). */
    public void add(FlowSummary f, FrameList frames) {
        if (reading) throw new IllegalStateException("the spill is being read");
        try {
            if (file == null) open();
            byte[] fr = frames.packedFrames(0, frames.size()), of = frames.packedOffsets(0, frames.size());
            ByteBuffer r = record;
            while (true) {
                try {
                    r.clear();
                    summary(r, f);
                    bytes(r, fr);
                    bytes(r, of);
                    break;
                } catch (java.nio.BufferOverflowException e) {
                    // A record larger than the scratch buffer (a flow of many packets or paths): a larger one, once.
                    r = ByteBuffer.allocate(2 * r.capacity() + fr.length + of.length);
                }
            }
            r.flip();
            if (buf.remaining() < r.remaining()) flush();
            if (buf.remaining() >= r.remaining()) buf.put(r);
            else while (r.hasRemaining()) written += file.write(r, written);
            count++;
        } catch (IOException e) {
            throw new UncheckedIOException("the spill of evicted flows: " + e.getMessage(), e);
        }
    }

    private void open() throws IOException {
        // Gone from the directory at once: a run killed with -9 leaves no scratch file.
        file = ScratchFiles.openUnlinked(dir, "metaroce-evicted-");
    }

    private void flush() throws IOException {
        buf.flip();
        while (buf.hasRemaining()) written += file.write(buf, written);
        buf.clear();
    }

    /**
     * Every flow written, in the order written, each read as the iteration comes to it; once. Flows may not be added
     * afterwards.
     */
    public Iterable<Map.Entry<FlowSummary, FrameList>> flows() {
        if (reading) throw new IllegalStateException("the spill is read once");
        reading = true;
        if (file != null) {
            try {
                flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return () -> new Iterator<>() {
            long left = count, at;
            final ByteBuffer in = ByteBuffer.allocate(1 << 16).limit(0);

            @Override
            public boolean hasNext() { return left > 0; }

            @Override
            public Map.Entry<FlowSummary, FrameList> next() {
                if (left == 0) throw new NoSuchElementException();
                left--;
                try {
                    FlowSummary f = readSummary(this::fill);
                    long[] frames = PackedLongs.decode(readBytes(this::fill));
                    long[] offsets = PackedLongs.decode(readBytes(this::fill));
                    return Map.entry(f, FrameList.of(frames, offsets));
                } catch (IOException e) {
                    throw new UncheckedIOException("the spill of evicted flows: " + e.getMessage(), e);
                }
            }

            /** The input with at least n bytes (or all that is left) ahead. */
            private ByteBuffer fill(int n) throws IOException {
                if (in.remaining() >= n) return in;
                in.compact();
                ByteBuffer into = in;
                while (into.position() < n && at < written) {
                    int r = file.read(into, at);
                    if (r < 0) break;
                    at += r;
                }
                into.flip();
                if (into.remaining() < n) throw new IOException("cut short: " + into.remaining() + " of " + n + " bytes");
                return into;
            }
        };
    }

    @Override
    public void close() throws IOException {
        if (file != null) file.close();
        file = null;
    }

    // ------------------------------------------------------------------ the record

    private static void summary(ByteBuffer b, FlowSummary f) {
        str(b, f.id());
        str(b, f.src());
        str(b, f.dst());
        var(b, f.destQp());
        str(b, f.peer());
        str(b, f.pairedBy());
        str(b, f.transport());
        str(b, f.service());
        var(b, f.view().ordinal());
        if (f.srcQps() == null) var(b, 0);
        else {
            var(b, f.srcQps().size() + 1);
            for (int q : f.srcQps()) var(b, q);
        }
        Counters c = f.counters();
        var(b, c.packets()); var(b, c.bytes()); var(b, c.dataPackets()); var(b, c.payloadBytes());
        var(b, c.firstNs()); var(b, c.lastNs()); var(b, c.messages()); var(b, c.messagesCompleted());
        var(b, c.retransmittedPackets());
        ByCause k = c.retransmissionsByCause();
        var(b, k.nak()); var(b, k.nack()); var(b, k.sack()); var(b, k.timeout()); var(b, k.rnr());
        var(b, c.spuriousRetransmissions()); var(b, c.spuriousUnknown()); var(b, c.inferredRetransmissions());
        var(b, c.repeatedResponses()); var(b, c.timeoutRetransmissions()); var(b, c.timeouts()); var(b, c.outOfOrder());
        var(b, c.duplicates()); var(b, c.psnGaps()); var(b, c.captureGaps()); var(b, c.networkLosses()); var(b, c.acks());
        var(b, c.naks()); var(b, c.nakErrors()); var(b, c.rnrNaks()); var(b, c.sacks()); var(b, c.nacks()); var(b, c.cnps());
        var(b, c.mrCnps()); var(b, c.ceMarks()); opt(b, c.ceWithoutCnp()); opt(b, c.cnpExpected());
        bool(b, c.creditMode()); var(b, c.creditStalls()); var(b, c.readResponses()); var(b, c.unattributedControl());
        var(b, c.truncatedFrames()); var(b, c.unjudgedFrames());
        Latencies l = f.latency();
        latency(b, l.ackRtt()); latency(b, l.messageCompletion()); latency(b, l.nakGeneration());
        latency(b, l.nakResponse()); latency(b, l.retransmission());
        opt(b, f.goodputBps());
        var(b, f.uniquePayloadBytes());
        MetaRoce m = f.metaRoce();
        bool(b, m != null);
        if (m == null) return;
        bool(b, m.spray());
        opt(b, m.pathCount());
        var(b, m.paths().size());
        for (PathSummary p : m.paths().values()) {
            var(b, p.id()); var(b, p.packets()); var(b, p.firstSends()); var(b, p.retransmissionsOn());
            opt(b, p.retransmittedFrom()); opt(b, p.lossRate()); opt(b, p.lostInferred()); var(b, p.ceMarks());
            var(b, p.mrCnps()); latency(b, p.rtt()); var(b, p.probes()); var(b, p.probesAnswered()); opt(b, p.probeLoss());
            bool(b, p.down()); str(b, p.downReason());
        }
    }

    /** Reads what {@link #summary} wrote. */
    private static FlowSummary readSummary(Input in) throws IOException {
        String id = str(in), src = str(in), dst = str(in);
        int destQp = (int) var(in);
        String peer = str(in), pairedBy = str(in), transport = str(in), service = str(in);
        View view = View.values()[(int) var(in)];
        List<Integer> srcQps = null;
        int nq = (int) var(in);
        if (nq > 0) {
            srcQps = new ArrayList<>(nq - 1);
            for (int i = 1; i < nq; i++) srcQps.add((int) var(in));
        }
        long packets = var(in), bytes = var(in), dataPackets = var(in), payloadBytes = var(in), firstNs = var(in),
                lastNs = var(in), messages = var(in), messagesCompleted = var(in), retransmitted = var(in);
        ByCause k = new ByCause(var(in), var(in), var(in), var(in), var(in));
        Counters c = new Counters(packets, bytes, dataPackets, payloadBytes, firstNs, lastNs, messages, messagesCompleted,
                retransmitted, k, var(in), var(in), var(in), var(in), var(in), var(in), var(in), var(in), var(in), var(in),
                var(in), var(in), var(in), var(in), var(in), var(in), var(in), var(in), var(in), var(in), optLong(in),
                optLong(in), bool(in), var(in), var(in), var(in), var(in), var(in));
        Latencies l = new Latencies(latency(in), latency(in), latency(in), latency(in), latency(in));
        Long goodput = optLong(in);
        long unique = var(in);
        MetaRoce m = null;
        if (bool(in)) {
            boolean spray = bool(in);
            Long pathCount = optLong(in);
            int n = (int) var(in);
            TreeMap<Integer, PathSummary> paths = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                PathSummary p = new PathSummary((int) var(in), var(in), var(in), var(in), optLong(in), optDouble(in),
                        optLong(in), var(in), var(in), latency(in), var(in), var(in), optDouble(in), bool(in), str(in));
                paths.put(p.id(), p);
            }
            m = new MetaRoce(spray, pathCount, paths);
        }
        return new FlowSummary(id, src, dst, destQp, peer, pairedBy, transport, service, view, srcQps, c, l, goodput, unique, m);
    }

    // Values: zig-zag LEB128 varints; a nullable value behind a presence byte; strings as UTF-8 behind length + 1 (0: null).

    private static void var(ByteBuffer b, long v) {
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            b.put((byte) ((z & 0x7F) | 0x80));
            z >>>= 7;
        }
        b.put((byte) z);
    }

    private static void bool(ByteBuffer b, boolean v) { b.put((byte) (v ? 1 : 0)); }

    private static void opt(ByteBuffer b, Long v) {
        bool(b, v != null);
        if (v != null) var(b, v);
    }

    private static void opt(ByteBuffer b, Double v) {
        bool(b, v != null);
        if (v != null) b.putLong(Double.doubleToRawLongBits(v));
    }

    private static void latency(ByteBuffer b, LatencySummary s) {
        bool(b, s != null);
        if (s == null) return;
        var(b, s.count()); var(b, s.min()); var(b, s.median()); var(b, s.p99()); var(b, s.max());
    }

    private static void str(ByteBuffer b, String s) {
        if (s == null) {
            var(b, 0);
            return;
        }
        bytes0(b, s.getBytes(StandardCharsets.UTF_8), 1);
    }

    private static void bytes(ByteBuffer b, byte[] v) { bytes0(b, v, 0); }

    private static void bytes0(ByteBuffer b, byte[] v, int plus) {
        var(b, v.length + plus);
        b.put(v);
    }

    /** The reading side: the input with at least n bytes ahead. */
    @FunctionalInterface
    private interface Input {
        ByteBuffer ahead(int n) throws IOException;
    }

    private static long var(Input in) throws IOException {
        ByteBuffer b = in.ahead(1);
        long z = 0;
        for (int shift = 0; ; shift += 7) {
            if (!b.hasRemaining()) b = in.ahead(1);
            int x = b.get() & 0xFF;
            z |= (long) (x & 0x7F) << shift;
            if ((x & 0x80) == 0) break;
            if (shift > 63) throw new IOException("varint too long");
        }
        return (z >>> 1) ^ -(z & 1);
    }

    private static boolean bool(Input in) throws IOException { return in.ahead(1).get() != 0; }

    private static Long optLong(Input in) throws IOException { return bool(in) ? var(in) : null; }

    private static Double optDouble(Input in) throws IOException {
        return bool(in) ? Double.longBitsToDouble(in.ahead(8).getLong()) : null;
    }

    private static LatencySummary latency(Input in) throws IOException {
        return bool(in) ? new LatencySummary(var(in), var(in), var(in), var(in), var(in)) : null;
    }

    private static String str(Input in) throws IOException {
        int n = (int) var(in);
        if (n == 0) return null;
        byte[] v = new byte[n - 1];
        read(in, v);
        return new String(v, StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(Input in) throws IOException {
        byte[] v = new byte[(int) var(in)];
        read(in, v);
        return v;
    }

    /** Reads v whole, in pieces of at most the input's buffer. */
    private static void read(Input in, byte[] v) throws IOException {
        for (int at = 0; at < v.length; ) {
            ByteBuffer b = in.ahead(1);
            int n = Math.min(v.length - at, b.remaining());
            b.get(v, at, n);
            at += n;
        }
    }
}
