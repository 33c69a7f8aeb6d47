package io.metaroce.index;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded synthetic captures of flow documents for backend tests (shared through this module's test-jar): a
 * mix of IPv4 and IPv6 hosts, QPs, counters with zeros and nulls, rules, events, MetaRoCE paths, and long
 * flows split into parts. Every backend indexed with the same seed must answer like {@link FlowQueryMatcher}.
 */
public final class SyntheticFlows {
    public static final long T0 = 1_796_000_000_000_000_000L; // 2026-11-30T..., in nanoseconds

    private SyntheticFlows() {}

    /** A capture and its documents (capture document first). */
    public record Capture(IndexedCapture capture, List<FlowDocument> documents) {
        public List<FlowDocument> flows() {
            return documents.stream().filter(d -> FlowSchema.KIND_FLOW.equals(d.kind())).toList();
        }
    }

    /**
     * Whether {@link #hash} gives the form of the sessions before the fifteenth (-Dsynthetic.hash64=true): 64 hex
     * digits of a small number, so every capture's hash began with the same 52 zeros.
     */
    private static final boolean HASH64 = Boolean.getBoolean("synthetic.hash64");

    /**
     * Capture {@code i}'s content hash in the form {@code metaroce index} writes: 32 lowercase hex digits
     * (XXH3-128, {@code CaptureIdentity}) that differ between captures from the first digit on, so that the
     * unique keywords beginning with it ({@code id}, {@code root_id}) share across captures what real ones share.
     * The earlier form (64 digits, 52 leading zeros in every capture) cost the bench no measurable CPU more
     * (docs/benchmarks.md, "helper docs, fifteenth session"); this keeps the bench from depending on that.
     */
    public static String hash(int i) {
        if (HASH64) return String.format("%064x", 0xC0FFEEL * 1_000_003L + i);
        return String.format("%016x%016x", mix(0xC0FFEEL + i), mix(~(0xC0FFEEL + i)));
    }

    /** SplitMix64's finaliser: consecutive inputs, unrelated outputs. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static Capture capture(int index, int flows, long seed) {
        IndexedCapture c = identity(index);
        List<FlowDocument> docs = new ArrayList<>();
        for (FlowDocument d : stream(index, flows, seed)) docs.add(d);
        return new Capture(c, docs);
    }

    /** The identity of capture {@code index} (as {@link #capture} gives it). */
    public static IndexedCapture identity(int index) {
        long first = T0 + index * 60_000_000_000L;
        return new IndexedCapture("/captures/host" + index + ".pcapng", 1_000_000 + index, hash(index), "pcapng",
                index % 3 == 0 ? "mirror" : "host:10.0.0." + (index % 7 + 1), first, first + 50_000_000_000L, T0 + 7 * 86_400_000_000_000L);
    }

    /**
     * The documents of {@link #capture}, the same ones in the same order, made one flow at a time as an iteration
     * takes them (as {@code metaroce index} hands a capture's documents to the index): a benchmark then holds no
     * more of a capture in memory than the indexing does. Each iteration starts from the seed again.
     */
    public static Iterable<FlowDocument> stream(int index, int flows, long seed) {
        IndexedCapture c = identity(index);
        return () -> new java.util.Iterator<>() {
            final Random r = new Random(seed * 31 + index);
            /** The further counters' draws, apart, so the fields drawn from {@code r} stay as they were. */
            final Random extra = new Random(seed * 31 + index + 0x5EED_0000_0000L);
            final java.util.ArrayDeque<FlowDocument> ready = new java.util.ArrayDeque<>(List.of(FlowDocuments.capture(c)));
            int made;

            @Override
            public boolean hasNext() { return !ready.isEmpty() || made < flows; }

            @Override
            public FlowDocument next() {
                if (ready.isEmpty()) {
                    if (made >= flows) throw new java.util.NoSuchElementException();
                    ready.addAll(flow(c, made++, r, extra));
                }
                return ready.poll();
            }
        };
    }

    private static List<FlowDocument> flow(IndexedCapture c, int n, Random r, Random extra) {
        boolean v6 = r.nextInt(5) == 0;
        String src = v6 ? "fd00::" + Integer.toHexString(r.nextInt(12) + 1) : "10.0." + r.nextInt(3) + "." + (r.nextInt(12) + 1);
        String dst = v6 ? "fd00::" + Integer.toHexString(r.nextInt(12) + 0x100) : "10.1.0." + (r.nextInt(12) + 1);
        int qp = 0x200 + r.nextInt(40);
        String id = src + ">" + dst + "/0x" + String.format("%06x", qp) + "-" + n;
        String root = FlowDocuments.rootId(c.hash(), id);
        int packets = r.nextInt(10) == 0 ? 250 : 1 + r.nextInt(60);
        long[] offsets = new long[packets], frames = new long[packets];
        for (int i = 0; i < packets; i++) {
            frames[i] = n * 1000L + i + 1;
            offsets[i] = 24 + frames[i] * 96;
        }
        int split = 100, parts = (packets + split - 1) / split;
        boolean metaroce = r.nextBoolean();
        List<FlowDocument> out = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            FlowDocument.Builder b = FlowDocument.builder().put(FlowSchema.ID, root + "#" + p)
                    .put(FlowSchema.KIND, p == 0 ? FlowSchema.KIND_FLOW : FlowSchema.KIND_PART).put(FlowSchema.ROOT_ID, root)
                    .put(FlowSchema.PART, (long) p).put(FlowSchema.PARTS, (long) parts)
                    .put(FlowSchema.CAPTURE_PATH, c.path()).put(FlowSchema.CAPTURE_SIZE, c.size())
                    .put(FlowSchema.CAPTURE_HASH, c.hash()).put(FlowSchema.CAPTURE_FORMAT, c.format())
                    .put(FlowSchema.CAPTURE_FIRST, c.firstNs()).put(FlowSchema.CAPTURE_LAST, c.lastNs())
                    .put(FlowSchema.INDEXED_AT, c.indexedAtNs()).put(FlowSchema.TAP, c.tap())
                    .put(FlowSchema.FLOW, id).put(FlowSchema.SRC, src).put(FlowSchema.DST, dst).put(FlowSchema.DEST_QP, (long) qp)
                    .put("transport", metaroce ? "metaroce" : "rocev2").put("service", r.nextInt(4) == 0 ? "ud" : "rc").put("view", "mirror");
            if (p == 0) {
                long first = c.firstNs() + r.nextInt(40_000) * 1_000_000L;
                b.put("packets", (long) packets).put("bytes", packets * 1100L).put(FlowSchema.FIRST, first)
                        .put(FlowSchema.LAST, first + r.nextInt(1_000_000_000));
                b.put("naks", (long) (r.nextInt(3) == 0 ? r.nextInt(20) : 0)).put("cnps", (long) r.nextInt(5))
                        .put("ce_marks", (long) r.nextInt(9)).put("retransmitted_packets", (long) r.nextInt(30))
                        .put("retransmissions_by_cause.nak", (long) r.nextInt(4));
                if (r.nextBoolean()) b.put("ce_without_cnp", (long) r.nextInt(3));
                if (r.nextInt(4) == 0) b.add(FlowSchema.SRC_QPS, (long) r.nextInt(100)).add(FlowSchema.SRC_QPS, 100L + r.nextInt(100));
                b.put("credit_mode", Boolean.toString(r.nextBoolean()));
                if (r.nextInt(3) == 0) b.add(FlowSchema.RULES, "MR-RTX-00" + (1 + r.nextInt(5)));
                if (r.nextInt(5) == 0) b.add(FlowSchema.RULES, "ROCE-PSN-00" + (1 + r.nextInt(3)));
                if (r.nextBoolean()) b.add(FlowSchema.EVENTS, "nak");
                if (r.nextBoolean()) b.add(FlowSchema.EVENTS, "retransmission");
                if (metaroce) {
                    for (int path = 0; path < 4; path++) {
                        b.put(FlowSchema.pathField(path, "packets"), (long) r.nextInt(100));
                        b.put(FlowSchema.pathField(path, "loss_rate"), r.nextInt(4) == 0 ? r.nextDouble() : 0.0);
                        b.add(FlowSchema.PATH_IDS, (long) path);
                    }
                    if (r.nextBoolean()) b.add(FlowSchema.CE_PATHS, (long) r.nextInt(4));
                }
                counters(b, packets, extra);
            }
            int from = p * split, to = Math.min(packets, from + split);
            b.put(FlowSchema.PART_PACKETS, (long) (to - from)).put(FlowSchema.OFFSETS, PackedLongs.encode(offsets, from, to))
                    .put(FlowSchema.FRAMES, PackedLongs.encode(frames, from, to));
            out.add(b.build());
        }
        return out;
    }

    /**
     * The rest of what {@code FlowDocuments} writes on every flow document (the analyze JSON's counters), at about
     * the rates of the bundled samples' flows: most are 0 on most flows (of 233 sample flows, the median one had 33 of
     * the 38 never-null counters at 0); data and acks counters are set on a third to two thirds; the nullable
     * ones ({@code goodput_bps}, a latency summary) are sometimes absent.
     */
    private static void counters(FlowDocument.Builder b, int packets, Random x) {
        boolean data = x.nextInt(3) != 0;
        b.put("data_packets", data ? (long) packets : 0L).put("payload_bytes", data ? packets * 1024L : 0L)
                .put("unique_payload_bytes", data ? packets * 1024L : 0L);
        long messages = x.nextInt(5) < 2 ? 1 + x.nextInt(8) : 0;
        b.put("messages", messages).put("messages_completed", messages > 0 && x.nextBoolean() ? messages : 0L);
        // One flow in 40 without acks at all: a document built through the API need not carry every counter.
        long acks = x.nextInt(10) < 3 ? 1L + x.nextInt(packets) : 0L;
        if (x.nextInt(40) != 0) b.put("acks", acks);
        for (String c : List.of("retransmissions_by_cause.nack", "retransmissions_by_cause.sack",
                "retransmissions_by_cause.timeout", "retransmissions_by_cause.rnr", "spurious_retransmissions",
                "spurious_unknown", "inferred_retransmissions", "repeated_responses", "timeout_retransmissions", "timeouts",
                "out_of_order", "duplicates", "psn_gaps", "capture_gaps", "network_losses", "nak_errors", "rnr_naks",
                "sacks", "nacks", "mr_cnps", "credit_stalls", "read_responses", "unattributed_control",
                "truncated_frames", "unjudged_frames")) {
            b.put(c, x.nextInt(25) == 0 ? 1L + x.nextInt(12) : 0L);
        }
        if (x.nextInt(3) != 0) b.put("cnp_expected", (long) x.nextInt(2));
        if (x.nextInt(15) != 0) b.put("goodput_bps", data ? 1_000_000L + x.nextInt(1_000_000_000) : 0L);
        if (x.nextInt(10) < 3) {
            long min = 1_000 + x.nextInt(5_000);
            b.put("latency.ack_rtt_ns.count", 1L + x.nextInt(packets)).put("latency.ack_rtt_ns.min", min)
                    .put("latency.ack_rtt_ns.median", min + x.nextInt(2_000)).put("latency.ack_rtt_ns.p99", min + 2_000 + x.nextInt(9_000))
                    .put("latency.ack_rtt_ns.max", min + 11_000 + x.nextInt(50_000));
        }
    }

    /** The exact facet over flow documents, as {@link FlowIndex#top} must give it. */
    public static List<FacetBucket> top(List<FlowDocument> flows, FieldDef group, FieldDef counter, int n, FlowQuery filter) {
        Map<Object, long[]> sums = new HashMap<>();
        for (FlowDocument d : flows) {
            if (!FlowQueryMatcher.matches(filter, d)) continue;
            Long c = d.getLong(counter.name());
            for (Object g : d.values(group.name())) {
                long[] t = sums.computeIfAbsent(g, k -> new long[2]);
                t[0] += c == null ? 0 : c;
                t[1]++;
            }
        }
        List<FacetBucket> out = new ArrayList<>();
        sums.forEach((k, v) -> out.add(new FacetBucket(k, v[0], v[1])));
        out.sort(FacetBucket.ORDER);
        return out.size() > n ? out.subList(0, n) : out;
    }
}
