package io.metaroce.dissector.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The counters behind dissect -z io,phs|conv|endpoints and the GUI's Protocol Hierarchy, Conversations and Endpoints:
 * on bundled samples of every kind, each table equals a brute-force count over the sample's frames (addresses read from the
 * frame's bytes here, compared as bytes), and a table counted by two workers and merged equals the one of one worker.
 */
class TrafficStatsTest {
    private static final Path CAPTURES = Path.of("..", "samples", "captures");

    /** A frame as the brute force sees it: its number, length, time since the first frame, and layers. */
    record Frame(long number, long length, long relNs, int[] headers, int[] offsets, byte[] head) { }

    /** A sample's frames, as the brute force reads them, and its file (the tables dissect it again). */
    record Sample(Path file, List<Frame> frames) { }

    /**
     * Samples of every kind the tables meet (a few, for the suite's time): IPv4 and IPv6 (plain and IPv4-mapped),
     * MetaRoCE, CM, PFC frames with no IP, cut and damaged frames.
     */
    private static final List<String> FILES = List.of("rocev2-gbn-loss", "metaroce-path-down", "rocev2-gid-misconfig",
            "rocev2-read-atomic", "metaroce-spray-lossy-path", "rocev2-pfc-storm", "capture-gaps-truncated", "conformance-violations");
    private static List<Sample> samples;

    private static synchronized List<Sample> samples() throws Exception {
        if (samples != null) return samples;
        List<Path> files = new ArrayList<>();
        for (String f : FILES) files.add(CAPTURES.resolve(f + ".pcapng"));
        List<Sample> out = new ArrayList<>();
        for (Path p : files) {
            List<Frame> frames = new ArrayList<>();
            Dissector dissector = new Dissector();
            Dissection d = new Dissection();
            try (PacketSource src = CaptureFiles.open(p)) {
                while (src.next()) {
                    dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    int[] h = new int[d.layerCount()], o = new int[d.layerCount()];
                    for (int i = 0; i < h.length; i++) {
                        h[i] = d.layerHeader(i);
                        o[i] = d.layerOffset(i);
                    }
                    frames.add(new Frame(d.number(), d.originalLength(), d.timeNanos() - d.firstTimeNanos(), h, o, d.head().clone()));
                }
            }
            out.add(new Sample(p, frames));
        }
        samples = out;
        return out;
    }

    /** Counts the frames of a sample in one table (workers == 1) or in two, every other frame each, merged. */
    private static <T> T count(String file, int workers, java.util.function.Supplier<T> make,
                               java.util.function.BiConsumer<T, Dissection> add, java.util.function.BiConsumer<T, T> merge) throws Exception {
        List<T> tables = new ArrayList<>();
        for (int w = 0; w < workers; w++) tables.add(make.get());
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        try (PacketSource src = CaptureFiles.open(CAPTURES.resolve(file))) {
            int k = 0;
            while (src.next()) {
                dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength(), d);
                add.accept(tables.get(k++ % workers), d);
            }
        }
        // Merged the other way round: the second worker's table takes the first's.
        for (int w = workers - 2; w >= 0; w--) merge.accept(tables.get(workers - 1), tables.get(w));
        return tables.get(workers - 1);
    }

    @Test
    void protocolHierarchyCountsEveryPrefixOfEveryStack() throws Exception {
        for (Sample sample : samples()) {
            List<Frame> frames = sample.frames();
            Map<String, long[]> brute = new LinkedHashMap<>();   // path -> frames, bytes, end frames, end bytes
            long all = 0;
            for (Frame f : frames) {
                all++;
                StringBuilder path = new StringBuilder();
                for (int i = 0; i < f.headers().length; i++) {
                    if (i > 0) path.append(':');
                    path.append(io.metaroce.protocol.Spec.HEADERS.get(f.headers()[i]).id());
                    long[] c = brute.computeIfAbsent(path.toString(), k -> new long[4]);
                    c[0]++;
                    c[1] += f.length();
                    if (i == f.headers().length - 1) {
                        c[2]++;
                        c[3] += f.length();
                    }
                }
            }
            ProtocolHierarchy h = new ProtocolHierarchy();
            feed(sample, h::add);
            assertEquals(all, h.frames());
            Map<String, long[]> got = new LinkedHashMap<>();
            int depthBefore = -1;
            for (ProtocolHierarchy.Row r : h.rows()) {
                got.put(r.path(), new long[] {r.frames(), r.bytes(), r.endFrames(), r.endBytes()});
                assertEquals(r.path().split(":").length - 1, r.depth(), r.path());
                assertTrue(r.depth() <= depthBefore + 1, "depth first: " + r.path());
                depthBefore = r.depth();
            }
            assertEquals(brute.keySet(), got.keySet());
            for (String p : brute.keySet()) assertEquals(List.of(brute.get(p)[0], brute.get(p)[1], brute.get(p)[2], brute.get(p)[3]),
                    List.of(got.get(p)[0], got.get(p)[1], got.get(p)[2], got.get(p)[3]), p);
        }
    }

    @Test
    void conversationsAndEndpointsAreTheFramesBetweenTheirAddresses() throws Exception {
        int[] rowsSeen = new int[ConversationType.values().length];
        for (Sample sample : samples()) {
            List<Frame> frames = sample.frames();
            for (ConversationType t : ConversationType.values()) {
                // Brute force: the ends of every header of the type, as hex of their address bytes (and the port).
                Map<List<String>, long[]> directed = new HashMap<>();   // [src, dst] -> frames, bytes, first, last
                Map<String, long[]> ends = new HashMap<>();             // end -> tx frames, tx bytes, rx frames, rx bytes
                for (Frame f : frames) {
                    for (int i = 0; i < f.headers().length; i++) {
                        if (f.headers()[i] != t.header()) continue;
                        String[] sd = ends(t, f, i);
                        if (sd == null) continue;
                        long[] c = directed.computeIfAbsent(List.of(sd[0], sd[1]), k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                        c[0]++;
                        c[1] += f.length();
                        c[2] = Math.min(c[2], f.relNs());
                        c[3] = Math.max(c[3], f.relNs());
                        long[] s = ends.computeIfAbsent(sd[0], k -> new long[4]), r = ends.computeIfAbsent(sd[1], k -> new long[4]);
                        s[0]++;
                        s[1] += f.length();
                        r[2]++;
                        r[3] += f.length();
                    }
                }
                Conversations convs = new Conversations(t);
                feed(sample, convs::add);
                List<Conversations.Conversation> rows = convs.rows();
                rowsSeen[t.ordinal()] += rows.size();
                long pairs = directed.keySet().stream().map(k -> k.get(0).compareTo(k.get(1)) <= 0 ? k : List.of(k.get(1), k.get(0))).distinct().count();
                assertEquals(pairs, rows.size(), t + " conversations");
                long before = Long.MAX_VALUE;
                for (Conversations.Conversation c : rows) {
                    String a = key(t, c.addressA(), c.portA()), b = key(t, c.addressB(), c.portB());
                    long[] ab = directed.getOrDefault(List.of(a, b), new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                    long[] ba = a.equals(b) ? new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE}
                            : directed.getOrDefault(List.of(b, a), new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                    assertEquals(List.of(ab[0], ab[1], ba[0], ba[1]), List.of(c.abFrames(), c.abBytes(), c.baFrames(), c.baBytes()), c.toString());
                    assertEquals(Math.min(ab[2], ba[2]), c.startNs(), c.toString());
                    assertEquals(Math.max(ab[3], ba[3]), c.stopNs(), c.toString());
                    assertTrue(ab[0] > 0, "A sent the first frame, so at least one: " + c);
                    assertTrue(c.frames() <= before, "most frames first");
                    before = c.frames();
                }
                Endpoints points = new Endpoints(t);
                feed(sample, points::add);
                assertEquals(ends.size(), points.rows().size(), t + " endpoints");
                for (Endpoints.Endpoint e : points.rows()) {
                    long[] c = ends.get(key(t, e.address(), e.port()));
                    assertEquals(List.of(c[0], c[1], c[2], c[3]), List.of(e.txFrames(), e.txBytes(), e.rxFrames(), e.rxBytes()), e.toString());
                }
            }
        }
        for (ConversationType t : ConversationType.values()) assertTrue(rowsSeen[t.ordinal()] > 0, "no " + t + " conversation in the samples");
    }

    @Test
    void twoWorkersMergedGiveTheTablesOfOne() throws Exception {
        for (String file : List.of("metaroce-path-down.pcapng", "rocev2-gbn-loss.pcapng", "rocev2-read-atomic.pcapng")) {
            assertEquals(count(file, 1, ProtocolHierarchy::new, ProtocolHierarchy::add, ProtocolHierarchy::merge).rows(),
                    count(file, 2, ProtocolHierarchy::new, ProtocolHierarchy::add, ProtocolHierarchy::merge).rows(), file);
            for (ConversationType t : ConversationType.values()) {
                assertEquals(count(file, 1, () -> new Conversations(t), Conversations::add, Conversations::merge).rows(),
                        count(file, 3, () -> new Conversations(t), Conversations::add, Conversations::merge).rows(), file + " " + t);
                assertEquals(count(file, 1, () -> new Endpoints(t), Endpoints::add, Endpoints::merge).rows(),
                        count(file, 3, () -> new Endpoints(t), Endpoints::add, Endpoints::merge).rows(), file + " " + t);
            }
        }
    }

    /**
     * The stats trees tshark has (-z plen,tree, ptype,tree, ip_hosts,tree, ip_srcdst,tree, dests,tree and the IPv6
     * ones) are tshark's text byte for byte, every column (rates, bursts and their starts included: we compute them
     * as Wireshark does, in double and float where it does), on an IPv4 sample of 0.27 s with bursts that start after
     * its first frame and on an IPv6 sample. One tshark run per sample; tshark prints the trees last -z first.
     */
    @Test
    void statsTreesAreTsharksText() throws Exception {
        java.nio.file.Path tmp = java.nio.file.Files.createTempDirectory("stattree");
        List<StatsTrees.Kind> kinds = new ArrayList<>(List.of(StatsTrees.Kind.values()));
        kinds.remove(StatsTrees.Kind.ROCE_OPS);   // ours: tshark has no such tree
        List<String> files = List.of("rocev2-pfc-storm", "rocev2-read-atomic");
        // Both tshark runs at once, while ours count (tshark's start-up is most of this test's time).
        List<java.util.concurrent.CompletableFuture<List<String>>> runs = new ArrayList<>();
        for (String file : files) {
            List<String> args = new ArrayList<>(List.of("-q", "-r", CAPTURES.resolve(file + ".pcapng").toString()));
            for (StatsTrees.Kind k : kinds) args.addAll(List.of("-z", k.abbr() + ",tree"));
            runs.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> io.metaroce.testsupport.Tools.tshark(tmp, List.of(),
                    args.toArray(String[]::new))));
        }
        for (int run = 0; run < files.size(); run++) {
            String file = files.get(run);
            Sample sample = new Sample(CAPTURES.resolve(file + ".pcapng"), List.of());
            StringBuilder ours = new StringBuilder();
            // Read through a FrameIndex, as the GUI reads (and as dissect, each frame knows the capture's first time).
            try (PacketSource src = CaptureFiles.open(sample.file())) {
                io.metaroce.dissector.FrameIndex index = io.metaroce.dissector.FrameIndex.build(src);
                for (int i = kinds.size() - 1; i >= 0; i--) {
                    StatsTrees t = new StatsTrees(kinds.get(i));
                    Dissector dissector = new Dissector();
                    Dissection d = new Dissection();
                    for (int f = 1; f <= index.size(); f++) t.add(index.dissect(f, dissector, d));
                    ours.append(t.tree().text());
                }
            }
            List<String> tshark = runs.get(run).join();
            org.junit.jupiter.api.Assumptions.assumeTrue(tshark != null, "tshark not installed");
            assertEquals(String.join("\n", tshark), ours.toString().stripTrailing(), file);
            assertTrue(ours.toString().contains("Packet Lengths:\n"), "not vacuous");
        }
    }

    /**
     * roce_ops,tree: each opcode's count is the number of frames with that BTH opcode (read from the frame's bytes
     * here), each transport's and operation's the sum of theirs, the acknowledges split by the AETH kind, which adds
     * up to them; the root counts every RoCE frame. On samples with RC, UD, acknowledges and MetaRoCE control.
     */
    @Test
    void roceOperationsAreTheFramesByOpcode() throws Exception {
        for (Sample sample : samples()) {
            Map<String, Long> byLabel = new HashMap<>();   // opcode label -> frames, from the BTH byte
            long acks = 0, roce = 0;
            Dissector dissector = new Dissector();
            Dissection d = new Dissection();
            try (PacketSource src = CaptureFiles.open(sample.file())) {
                while (src.next()) {
                    dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    if (d.bthOffset() < 0) continue;
                    roce++;
                    int code = d.head()[d.bthOffset()] & 0xFF;
                    // The transport version picks the table (MetaRoCE's for 1); another version has no opcodes.
                    io.metaroce.protocol.OpcodeDef op = d.tver() == 1 ? io.metaroce.protocol.Spec.OPCODES_TVER1.get(code)
                            : d.tver() == 0 ? io.metaroce.protocol.Spec.OPCODES_TVER0.get(code) : null;
                    if (op == null) byLabel.merge(String.format(java.util.Locale.ROOT, "0x%02x", code), 1L, Long::sum);
                    else if (op.role() == io.metaroce.protocol.OpcodeDef.Role.ACK) acks++;
                    else byLabel.merge(op.label(), 1L, Long::sum);
                }
            }
            StatsTrees t = new StatsTrees(StatsTrees.Kind.ROCE_OPS);
            feed(sample, t::add);
            StatsTree.Node root = t.tree().tops().getFirst();
            assertEquals(roce, root.count(), sample.file().toString());
            Map<String, Long> leaves = new HashMap<>();
            long ackLeaves = 0;
            for (StatsTree.Node transport : root.children()) {
                assertEquals(transport.count(), transport.children().stream().mapToLong(StatsTree.Node::count).sum(), transport.name());
                for (StatsTree.Node operation : transport.children()) {
                    assertEquals(operation.count(), operation.children().stream().mapToLong(StatsTree.Node::count).sum(), operation.name());
                    for (StatsTree.Node leaf : operation.children()) {
                        if (operation.name().equals("Acknowledge")) ackLeaves += leaf.count();
                        else leaves.merge(leaf.name(), leaf.count(), Long::sum);
                    }
                }
            }
            assertEquals(byLabel, leaves, sample.file().toString());
            assertEquals(acks, ackLeaves, sample.file().toString());
        }
    }

    @Test
    void filtersAsWiresharkWritesThem() {
        var ip = new Conversations.Conversation(ConversationType.IP, "10.0.0.1", -1, "10.0.0.2", -1, 3, 300, 1, 60, 0, 5);
        assertEquals("ip.addr==10.0.0.1 && ip.addr==10.0.0.2", ip.filter());
        assertEquals("ip.src==10.0.0.1 && ip.dst==10.0.0.2", ip.filterAtoB());
        var udp = new Conversations.Conversation(ConversationType.UDP, "fe80::1", 49952, "fe80::2", 4791, 3, 300, 1, 60, 0, 5);
        assertEquals("ipv6.addr==fe80::1 && udp.port==49952 && ipv6.addr==fe80::2 && udp.port==4791", udp.filter());
        var twin = new Conversations.Conversation(ConversationType.UDP, "fe80::2", 49952, "fe80::1", 4791, 1, 60, 0, 0, 1, 1);
        assertTrue(udp.twinOf(twin) && twin.twinOf(udp));
        assertEquals("(ipv6.src==fe80::1 && udp.srcport==49952 && ipv6.dst==fe80::2 && udp.dstport==4791) || "
                + "(ipv6.src==fe80::2 && udp.srcport==4791 && ipv6.dst==fe80::1 && udp.dstport==49952)", udp.exactFilter(true));
        assertEquals("eth.addr==02:00:00:00:01:10", new Endpoints.Endpoint(ConversationType.ETH, "02:00:00:00:01:10", -1, 1, 1, 0, 0).filter());
        assertEquals("ip.addr==10.0.0.1 && udp.port==4791", new Endpoints.Endpoint(ConversationType.UDP, "10.0.0.1", 4791, 1, 1, 0, 0).filter());
    }

    /** Dissects the sample's frames again, one reused Dissection as the tools do, and hands each to add. */
    private static void feed(Sample sample, java.util.function.Consumer<Dissection> add) throws Exception {
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        try (PacketSource src = CaptureFiles.open(sample.file())) {
            while (src.next()) {
                dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength(), d);
                add.accept(d);
            }
        }
    }

    /** The source and destination of header i of the frame as hex of the address bytes (":port" for UDP), or null. */
    private static String[] ends(ConversationType t, Frame f, int i) {
        byte[] b = f.head();
        int o = f.offsets()[i];
        HexFormat hex = HexFormat.of();
        return switch (t) {
            case ETH -> new String[] {hex.formatHex(b, o + 6, o + 12), hex.formatHex(b, o, o + 6)};
            case IP -> new String[] {hex.formatHex(b, o + 12, o + 16), hex.formatHex(b, o + 16, o + 20)};
            case IPV6 -> new String[] {hex.formatHex(b, o + 8, o + 24), hex.formatHex(b, o + 24, o + 40)};
            case UDP -> {
                int ip = i - 1;
                while (ip >= 0 && f.headers()[ip] != ConversationType.IP.header() && f.headers()[ip] != ConversationType.IPV6.header()) ip--;
                if (ip < 0) yield null;
                int io = f.offsets()[ip];
                boolean v6 = f.headers()[ip] == ConversationType.IPV6.header();
                String s = v6 ? hex.formatHex(b, io + 8, io + 24) : hex.formatHex(b, io + 12, io + 16);
                String d = v6 ? hex.formatHex(b, io + 24, io + 40) : hex.formatHex(b, io + 16, io + 20);
                int sp = (b[o] & 0xFF) << 8 | (b[o + 1] & 0xFF), dp = (b[o + 2] & 0xFF) << 8 | (b[o + 3] & 0xFF);
                yield new String[] {s + ":" + sp, d + ":" + dp};
            }
        };
    }

    /** A row's address (and port) as the brute force keys it: the address parsed back to its bytes, in hex. */
    private static String key(ConversationType t, String address, int port) throws Exception {
        byte[] bytes = t == ConversationType.ETH ? HexFormat.ofDelimiter(":").parseHex(address) : InetAddress.getByName(address).getAddress();
        if (bytes.length == 4 && address.indexOf(':') >= 0) {
            // An IPv4-mapped IPv6 address (::ffff:10.0.0.2): Java hands back the IPv4 address alone.
            byte[] v6 = new byte[16];
            v6[10] = v6[11] = (byte) 0xFF;
            System.arraycopy(bytes, 0, v6, 12, 4);
            bytes = v6;
        }
        String h = HexFormat.of().formatHex(bytes);
        return t == ConversationType.UDP ? h + ":" + port : h;
    }
}
