package io.metaroce.cli;

import static io.metaroce.testsupport.LauncherCases.oneLineExit2;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.FrameList;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapngWriter;
import io.metaroce.index.CaptureIdentity;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowDocuments;
import io.metaroce.index.FlowSort;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.IpAddresses;
import io.metaroce.index.lucene.LuceneFlowIndex;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code index}, {@code search} and {@code extract} through the shipped launcher, on real indexes on disk: the
 * indexed counters are the analyze JSON's, field for field, for every bundled sample; extract gives back each
 * flow's packets byte for byte; a {@code kill -9} mid-index leaves every reported capture whole.
 */
class FlowIndexIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path tmp;
    static Path index;
    static Run indexed;

    @BeforeAll
    static void indexTheSamples() {
        index = tmp.resolve("flows.idx");
        indexed = Launcher.run("index", Launcher.CAPTURES.toString(), "--index", index.toString());
    }

    @Test
    void indexesEveryCaptureAndSkipsOtherFilesWithOneLineEach() throws Exception {
        assertEquals(0, indexed.exit(), indexed.show());
        List<Path> samples = Launcher.samples();
        assertEquals(samples.size(), indexed.out().lines().filter(l -> l.startsWith("indexed ")).count(), indexed.show());
        // A new index knows no capture of the same size, so each was hashed in its own analysis pass, from the
        // reader's blocks: still the content hash of the whole file.
        try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(index)) {
            assertEquals(samples.size(), r.captures().size());
            for (IndexedCapture c : r.captures()) assertEquals(CaptureIdentity.contentHash(Path.of(c.path())), c.hash(), c.path());
        }
        assertTrue(indexed.errLines().stream().allMatch(l -> l.startsWith("metaroce index: skipped ") && l.endsWith(": not a pcap or pcapng capture")), indexed.show());
        assertFalse(indexed.errLines().isEmpty(), "the truth JSON files are named as skipped");
        Run again = Launcher.run("index", Launcher.CAPTURES.toString(), "--index", index.toString());
        assertEquals(samples.size(), again.out().lines().filter(l -> l.startsWith("unchanged ")).count(), again.show());
    }

    @Test
    void indexedCountersEqualTheAnalyzeJsonFieldForField() throws Exception {
        List<Call> analyses = new ArrayList<>();
        for (Path s : Launcher.samples()) analyses.add(Call.of("analyze", "-r", s.toString(), "-T", "json"));
        // The samples' analyze -T json runs are LauncherIT's too: made once for both.
        List<Run> analyzed = Launcher.runAllReusing(analyses);
        Map<String, Map<String, JsonNode>> byCapture = documentsByCapture(index);
        int compared = 0;
        for (int i = 0; i < analyzed.size(); i++) {
            Run analyze = analyzed.get(i);
            assertEquals(0, analyze.exit(), analyze.show());
            Map<String, JsonNode> docs = byCapture.getOrDefault(absolute(analyze.command().get(3)), Map.of());   // [launcher, analyze, -r, FILE, ...]
            JsonNode flows = JSON.readTree(analyze.out()).get("flows");
            assertEquals(flows.size(), docs.size(), analyze.command().get(3) + ": its documents " + docs.keySet());
            for (JsonNode f : flows) {
                JsonNode d = docs.get(f.get("id").asText());
                assertNotNull(d, f.get("id").asText());
                Map<String, JsonNode> flat = new LinkedHashMap<>();
                flatten("", f, flat);
                flat.remove("id");
                for (var e : flat.entrySet()) {
                    String where = analyze.command().get(3) + " " + f.get("id").asText() + " " + e.getKey();
                    if (e.getValue().isNull()) assertFalse(d.has(e.getKey()), where + " is null in analyze, absent in the index");
                    else if (e.getValue().isArray()) assertEquals(e.getValue(), d.get(e.getKey()), where);
                    else assertEquals(e.getValue().asText(), d.path(e.getKey()).asText(null), where);
                    compared++;
                }
            }
        }
        assertTrue(compared > 5000, "compared " + compared + " values");
    }

    /**
     * {@code index --rules} validates in the indexing pass itself: every flow document carries exactly the rules
     * that {@code validate} reports for that flow, for every bundled sample.
     */
    @Test
    void indexRulesAreTheFindingsOfValidateFlowForFlow() throws Exception {
        Path withRules = tmp.resolve("rules.idx");
        // The index run and the validate run (of the samples' directory: one report per file, as ManyCapturesIT
        // checks against single runs) need nothing of each other: they run in parallel, then one search of the index.
        // validate -T json DIR is LauncherIT's and ManyCapturesIT's run too (the same command line): made once for all
        // three (30 captures validated: about 13 s of CPU).
        var validating = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> Launcher.runAllReusing(List.of(Call.of("validate", "-T", "json", Launcher.CAPTURES.toString()))).getFirst());
        Run idx = Launcher.run("index", Launcher.CAPTURES.toString(), "--index", withRules.toString(), "--rules"), validate = validating.join();
        assertEquals(0, idx.exit(), idx.show());
        assertTrue(validate.exit() <= 1, validate.show());
        Map<String, Map<String, JsonNode>> byCapture = documentsByCapture(withRules);
        int files = 0, withFindings = 0;
        for (JsonNode file : JSON.readTree(validate.out()).get("files")) {
            files++;
            Map<String, Set<String>> expected = new HashMap<>();
            for (JsonNode f : file.get("findings"))
                if (f.hasNonNull("flow")) expected.computeIfAbsent(f.get("flow").asText(), k -> new TreeSet<>()).add(f.get("rule").asText());
            String capture = absolute(file.get("path").asText());
            Map<String, JsonNode> docs = byCapture.get(capture);
            assertNotNull(docs, capture + " has documents");
            for (JsonNode d : docs.values()) {
                String flow = d.get("flow").asText();
                Set<String> got = new TreeSet<>();
                if (d.has("rules")) for (JsonNode r : d.get("rules")) got.add(r.asText());
                assertEquals(expected.getOrDefault(flow, Set.of()), got, capture + " " + flow);
                if (!got.isEmpty()) withFindings++;
            }
        }
        assertEquals(Launcher.samples().size(), files);
        assertTrue(withFindings > 20, withFindings + " flows with findings");
    }

    /** Every flow document of an index (one search: a launcher start per capture cost seconds), by capture path and flow. */
    private static Map<String, Map<String, JsonNode>> documentsByCapture(Path idx) throws Exception {
        Run all = Launcher.run("search", "--index", idx.toString(), "*:*", "-T", "jsonl", "-n", "1000000");
        assertEquals(0, all.exit(), all.show());
        Map<String, Map<String, JsonNode>> out = new HashMap<>();
        for (String line : all.out().lines().toList()) {
            JsonNode d = JSON.readTree(line);
            if (d.path("part").asInt() > 0) continue;   // a long flow's continuation (--split): its first part holds the flow
            JsonNode previous = out.computeIfAbsent(d.get("capture_path").asText(), k -> new HashMap<>()).put(d.get("flow").asText(), d);
            assertNull(previous, "one document per flow of a capture: " + d.get("id"));
        }
        return out;
    }

    private static String absolute(String path) {
        return Path.of(path).toAbsolutePath().normalize().toString();
    }

    /**
     * A capture of more QPs than the analysis keeps at once (its flow bound, 65,536: the idlest flows are evicted):
     * every flow still gets its document, evicted or not, with its packets (extract finds the first QP's).
     */
    @Test
    void flowsTheAnalysisEvictsAreIndexedToo() throws Exception {
        int qps = 70_000;
        Path cap = tmp.resolve("more-qps-than-the-bound.pcap");
        ManyQpsIT.writeCapture(cap, qps);
        Path idx = tmp.resolve("evicted.idx");
        Run r = Launcher.run("index", cap.toString(), "--index", idx.toString());
        assertEquals(0, r.exit(), r.show());
        assertTrue(r.out().contains(": " + qps + " flows, " + (qps + 1) + " documents"), r.show());
        // Independent runs (the capture, two searches of the index) in parallel, one JVM per core.
        List<Run> runs = Launcher.runAll(List.of(Call.of("analyze", "-r", cap.toString(), "-T", "json"),
                Call.of("search", "--index", idx.toString(), "*:*", "-n", "0", "-T", "json"),
                Call.of("search", "--index", idx.toString(), "dest_qp:0x000001", "-T", "json")));
        Run analyze = runs.get(0), all = runs.get(1), first = runs.get(2);
        assertTrue(JSON.readTree(analyze.out()).get("capture").get("evicted_flows").asLong() > 0, "the capture is over the bound");
        assertEquals(qps, JSON.readTree(all.out()).get("total").asLong(), all.show());
        JsonNode f = JSON.readTree(first.out());
        assertEquals(1, f.get("total").asLong(), first.show());
        assertEquals(1, f.get("flows").get(0).get("packets").asLong(), first.show());
        Path out = tmp.resolve("first-qp.pcapng");
        Run ex = Launcher.run("extract", "--index", idx.toString(), "dest_qp:0x000001", "-w", out.toString());
        assertEquals(0, ex.exit(), ex.show());
        Run back = Launcher.run("dissect", "-r", out.toString(), "-T", "fields", "-e", "bth.dest_qp", "-e", "bth.psn");
        assertEquals(List.of("0x000001\t0"), back.out().lines().toList(), back.show());
    }

    /** Nested objects of the analyze JSON as the index names them: keys joined by dots. */
    private static void flatten(String prefix, JsonNode n, Map<String, JsonNode> out) {
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                var e = it.next();
                flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
            }
        } else {
            out.put(prefix, n);
        }
    }

    @Test
    void extractGivesBackEachFlowsPacketsByteForByte() throws Exception {
        Path sample = Launcher.CAPTURES.resolve("metaroce-spray-lossy-path.pcapng").toAbsolutePath().normalize();
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, new AnalysisSession.Options(false, false, true));
        s.run(sample);
        // One extract per flow, each a user's command line of its own; they run in parallel (one JVM per core),
        // and the extract of all the NAKed flows with them: they read the index, none writes it.
        List<FlowSummary> flows = s.flows();
        List<Path> outs = new ArrayList<>();
        List<Call> calls = new ArrayList<>();
        for (FlowSummary f : flows) {
            Path out = tmp.resolve("x-" + f.destQp() + "-" + f.src().replace(':', '_') + ".pcapng");
            outs.add(out);
            calls.add(Call.of("extract", "--index", index.toString(), "flow:\"" + f.id() + "\" AND capture:\"" + sample + "\"", "-w", out.toString()));
        }
        // Outputs that cannot be written: one line in plain words and exit 2 before any work (it was an internal error
        // naming java.nio.file.NoSuchFileException).
        Path noDir = tmp.resolve("no-such-dir").resolve("x.pcapng");
        calls.add(Call.of("extract", "--index", index.toString(), "naks:>0", "-w", noDir.toString()));
        calls.add(Call.of("extract", "--index", index.toString(), "naks:>0", "-w", tmp.toString()));
        Path all = tmp.resolve("all-naks.pcapng");
        calls.add(Call.of("extract", "--index", index.toString(), "naks:>0", "-w", all.toString()));
        List<Run> runs = Launcher.runAll(calls);
        Run missingDir = runs.get(flows.size()), aDirectory = runs.get(flows.size() + 1);
        oneLineExit2(missingDir);
        assertEquals("metaroce extract: cannot write " + noDir + ": no such directory: " + noDir.getParent(), missingDir.err().strip(), missingDir.show());
        oneLineExit2(aDirectory);
        assertEquals("metaroce extract: cannot write " + tmp + ": it is a directory", aDirectory.err().strip(), aDirectory.show());
        for (int i = 0; i < flows.size(); i++) {
            FlowSummary f = flows.get(i);
            Path out = outs.get(i);
            Run r = runs.get(i);
            assertEquals(0, r.exit(), r.show());
            FrameList frames = s.framesOf(f.id());
            List<byte[]> want = new ArrayList<>();
            List<Long> wantTimes = new ArrayList<>();
            try (PacketSource src = CaptureFiles.open(sample)) {
                Set<Long> numbers = new TreeSet<>();
                for (long n : frames.frames()) numbers.add(n);
                while (src.next()) {
                    if (!numbers.contains(src.frameNumber())) continue;
                    want.add(src.data().toArray(ValueLayout.JAVA_BYTE));
                    wantTimes.add(src.timestampNanos());
                }
            }
            int k = 0;
            try (PacketSource got = CaptureFiles.open(out)) {
                while (got.next()) {
                    assertArrayEquals(want.get(k), got.data().toArray(ValueLayout.JAVA_BYTE), f.id() + " packet " + k);
                    assertEquals(wantTimes.get(k), got.timestampNanos());
                    assertTrue(got.comment().startsWith("flow " + f.id() + ", frame " + frames.frame(k) + " of "), got.comment());
                    k++;
                }
            }
            assertEquals(frames.size(), k, f.id());
        }
        // The extracted capture reads like any capture.
        Run r = runs.getLast();
        assertEquals(0, r.exit(), r.show());
        Run a = Launcher.run("analyze", "-r", all.toString(), "-T", "json");
        assertEquals(0, a.exit(), a.show());
        assertTrue(JSON.readTree(a.out()).get("flows").size() > 0);
    }

    /**
     * Captures wait for their group's commit unseen by the index's searches: a copy of one of them later in the same
     * run is still skipped as the same content, not indexed again in its place.
     */
    @Test
    void aCopyOfACaptureWaitingForItsCommitIsSkipped() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("copies"));
        Path a = Files.copy(Launcher.CAPTURES.resolve("rocev2-rnr.pcapng"), dir.resolve("a.pcapng"));
        Path b = Files.copy(a, dir.resolve("b.pcapng"));
        Path idx = tmp.resolve("copies.idx");
        Run r = Launcher.run("index", dir.toString(), "--index", idx.toString(), "--threads", "1");
        assertEquals(0, r.exit(), r.show());
        // In this order: the line naming a as indexed comes after a's commit.
        assertTrue(r.out().startsWith("indexed " + a.toAbsolutePath().normalize() + ": "), r.show());
        assertTrue(r.out().contains("\nskipped " + b.toAbsolutePath().normalize() + ": same content as the indexed " + a.toAbsolutePath().normalize()), r.show());
        try (LuceneFlowIndex after = LuceneFlowIndex.openForReading(idx)) {
            assertEquals(List.of(a.toAbsolutePath().normalize().toString()), after.captures().stream().map(IndexedCapture::path).toList());
        }
    }

    @Test
    void aMovedOrChangedCaptureIsReportedNotMisread() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("moving"));
        Path copy = Files.copy(Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng"), dir.resolve("gbn.pcapng"));
        Path idx = tmp.resolve("moving.idx");
        assertEquals(0, Launcher.run("index", copy.toString(), "--index", idx.toString()).exit());
        // Same content elsewhere: skipped as the capture already indexed.
        Run dup = Launcher.run("index", Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString(), "--index", idx.toString());
        assertTrue(dup.out().contains("same content as the indexed " + copy.toAbsolutePath().normalize()), dup.show());
        try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {0x5A}), Files.size(copy) - 40); // one byte of the last packet
        }
        Run changed = Launcher.run("extract", "--index", idx.toString(), "*:*", "-w", tmp.resolve("c.pcapng").toString());
        assertEquals(2, changed.exit(), changed.show());
        assertTrue(changed.err().contains("changed since it was indexed (its content hash differs)"), changed.show());
        Files.delete(copy);
        Run moved = Launcher.run("extract", "--index", idx.toString(), "*:*", "-w", tmp.resolve("m.pcapng").toString());
        assertEquals(2, moved.exit(), moved.show());
        assertTrue(moved.err().contains(copy.toAbsolutePath().normalize() + ": moved or deleted since it was indexed"), moved.show());
    }

    /**
     * An index written before the XXH3-128 content hash holds its captures under their SHA-256 (64 hex digits):
     * {@code index} still skips such a capture while it is unchanged, {@code extract} still checks and reads it,
     * and once the file changes, its documents are replaced by ones under the new hash (no second capture).
     */
    @Test
    void anIndexWrittenWithSha256IsStillSkippedExtractedAndReplacedCleanly() throws Exception {
        writtenWithAnOlderHash("sha256", CaptureIdentity::sha256);
    }

    /** The same for an index written before the CRC pair, whose captures carry their XXH3-128 (32 hex digits). */
    @Test
    void anIndexWrittenWithXxh3IsStillSkippedExtractedAndReplacedCleanly() throws Exception {
        writtenWithAnOlderHash("xxh3", CaptureIdentity::xxh3);
    }

    private interface OlderHash {
        String of(Path file) throws java.io.IOException;
    }

    private static void writtenWithAnOlderHash(String name, OlderHash hash) throws Exception {
        Path cap = Files.copy(Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng"), Files.createDirectories(tmp.resolve(name)).resolve("gbn.pcapng"));
        Path abs = cap.toAbsolutePath().normalize();
        Path idx = tmp.resolve(name + ".idx");
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, new AnalysisSession.Options(false, false, true));
        s.run(abs);
        IndexedCapture old = new IndexedCapture(abs.toString(), Files.size(abs), hash.of(abs), "pcapng", null, null, null, 1);
        List<FlowDocument> docs = new ArrayList<>(List.of(FlowDocuments.capture(old)));
        long packets = 0;
        for (FlowSummary f : s.flows()) {
            docs.addAll(FlowDocuments.of(old, f, s.framesOf(f.id()), Set.of(), Set.of(), FlowDocuments.DEFAULT_SPLIT));
            packets += s.framesOf(f.id()).size();
        }
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(idx)) {
            w.addCapture(old, docs);
        }
        Run again = Launcher.run("index", cap.toString(), "--index", idx.toString());
        assertEquals(0, again.exit(), again.show());
        assertEquals("unchanged " + abs + " (indexed already)", again.out().strip(), again.show());
        Run ex = Launcher.run("extract", "--index", idx.toString(), "*:*", "-w", tmp.resolve(name + ".pcapng").toString());
        assertEquals(0, ex.exit(), ex.show());
        assertTrue(ex.err().contains(packets + " packets of " + s.flows().size() + " flows"), ex.show());

        try (FileChannel ch = FileChannel.open(cap, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {0x5A}), Files.size(cap) - 40); // one byte of the last packet
        }
        Run changed = Launcher.run("index", cap.toString(), "--index", idx.toString());
        assertEquals(0, changed.exit(), changed.show());
        assertTrue(changed.out().startsWith("indexed " + abs + ": " + s.flows().size() + " flows"), changed.show());
        try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(idx)) {
            List<IndexedCapture> caps = r.captures();
            assertEquals(1, caps.size(), caps.toString());
            assertEquals(CaptureIdentity.contentHash(abs), caps.get(0).hash());
            assertEquals(s.flows().size(), r.search(FlowQueryParser.parse("*:*"), FlowSort.DEFAULT, 0).total());
        }
    }

    /**
     * The captures' passes start while Lucene opens the index beside them: when the directory is no index after all,
     * its one line is still all that is said (a damaged capture's pass, begun meanwhile, reports nothing) and
     * nothing is indexed or created.
     */
    @Test
    void aDirectoryThatIsNoIndexIsOneLineEvenWithPassesBegun() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("no-index"));
        Files.writeString(dir.resolve("notes.txt"), "not an index\n");
        Path sample = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng");
        Path cut = tmp.resolve("cut.pcapng");
        Files.write(cut, java.util.Arrays.copyOf(Files.readAllBytes(sample), (int) Files.size(sample) - 40));
        Run good = Launcher.run("index", cut.toString(), "--index", tmp.resolve("cut.idx").toString());
        assertEquals(2, good.exit(), good.show());
        assertTrue(good.err().contains("indexed what was readable"), good.show());
        Run r = Launcher.run("index", cut.toString(), sample.toString(), "--index", dir.toString());
        assertEquals(2, r.exit(), r.show());
        assertEquals("", r.out(), r.show());
        assertEquals(List.of("metaroce index: " + dir + ": not empty and not a metaroce flow index (no metaroce-index.properties); give a new or empty directory"),
                r.errLines(), r.show());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("notes.txt")), files.toList());
        }
    }

    @Test
    void queriesOfEachKindAndASyntaxErrorColumn() throws Exception {
        Map<String, Integer> queries = new TreeMap<>(Map.of("naks:[1 TO *]", 0, "dest_qp:0x000013", 0, "src:10.0.0.0/24", 0,
                "src:fd00::/16", 0, "first:[2026-01-01T00:00 TO 2026-01-01T00:01]", 0, "events:retrans*", 0,
                "transport:metaroce AND NOT service:ud", 0, "(naks:>0 OR cnps:>0) AND -capture:\"x\"", 0));
        List<String> keys = new ArrayList<>(queries.keySet());
        List<Run> runs = Launcher.runAll(keys.stream().map(q -> Call.of("search", "--index", index.toString(), q, "-T", "json")).toList());
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForReading(index)) {
            for (int i = 0; i < keys.size(); i++) {
                Run r = runs.get(i);
                assertEquals(0, r.exit(), r.show());
                long total = JSON.readTree(r.out()).get("total").asLong();
                assertEquals(idx.search(FlowQueryParser.parse(keys.get(i)), FlowSort.DEFAULT, 0).total(), total, keys.get(i));
                assertTrue(total > 0, keys.get(i) + " finds flows in the samples");
            }
        }
        Run bad = Launcher.run("search", "--index", index.toString(), "naks:[5 TO");
        assertEquals(2, bad.exit());
        assertEquals(List.of("metaroce search: query: column 11: a range bound was expected"), bad.errLines());
        Run top = Launcher.run("search", "--index", index.toString(), "*:*", "--top", "dest_qp", "--by", "retransmitted_packets", "-T", "json");
        assertEquals(0, top.exit(), top.show());
        JsonNode first = JSON.readTree(top.out()).get("values").get(0);
        assertTrue(first.get("retransmitted_packets").asLong() > 0, top.show());
        Run notIndex = Launcher.run("search", "--index", Launcher.CAPTURES.toString(), "*:*");
        assertEquals(2, notIndex.exit());
        assertEquals(1, notIndex.errLines().size(), notIndex.show());
        assertTrue(notIndex.err().contains("not a metaroce flow index"));
    }

    /**
     * {@code search --connections}: the host pairs' flows and sums are those of the flows {@code search} prints for the
     * same query, summed here pair by pair; the table is ordered by the counter, then flows; {@code FROM,TO} pairs other
     * fields (QPs in hex as in --top's table).
     */
    @Test
    void connectionsAreThePairSumsOfTheSearchedFlows() throws Exception {
        String idx = index.toString();
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("search", "--index", idx, "*:*", "-T", "jsonl", "-n", "100000"),
                Call.of("search", "--index", idx, "*:*", "--connections", "--by", "retransmitted_packets", "-T", "json", "-n", "100000"),
                // A query with a comma right after the bare option: still the query (no capture path has that comma).
                Call.of("search", "--index", idx, "--connections", "packets:>0 OR capture_path:\"a,b\"", "-n", "3"),
                Call.of("search", "--index", idx, "naks:>0", "--connections", "src,dest_qp", "--by", "naks", "-T", "jsonl", "-n", "1")));
        for (Run r : runs) assertEquals(0, r.exit(), r.show());
        Map<String, long[]> want = new HashMap<>();
        Map<String, long[]> nakQps = new HashMap<>();
        for (String line : runs.get(0).out().split("\n")) {
            JsonNode f = JSON.readTree(line);
            // An IPv4-mapped address (::ffff:10.0.0.2, an IPv6 header carrying IPv4) is the IPv4 address's host, as in --top.
            long[] t = want.computeIfAbsent(host(f.get("src")) + " " + host(f.get("dst")), k -> new long[3]);
            t[0]++;
            t[1] += f.path("retransmitted_packets").asLong();
            t[2] += f.path("bytes").asLong();
            if (f.path("naks").asLong() > 0)
                nakQps.computeIfAbsent(host(f.get("src")) + " " + f.get("dest_qp").asLong(), k -> new long[1])[0] += f.get("naks").asLong();
        }
        JsonNode json = JSON.readTree(runs.get(1).out());
        assertEquals("[\"src\",\"dst\"]", json.get("connections").toString());
        assertEquals("retransmitted_packets", json.get("by").asText());
        Map<String, long[]> got = new HashMap<>();
        long lastSum = Long.MAX_VALUE, lastFlows = Long.MAX_VALUE;
        for (JsonNode p : json.get("pairs")) {
            long sum = p.get("retransmitted_packets").asLong(), flows = p.get("flows").asLong();
            assertTrue(sum < lastSum || sum == lastSum && flows <= lastFlows, "ordered by the counter, then flows: " + p);
            lastSum = sum;
            lastFlows = flows;
            got.put(p.get("src").asText() + " " + p.get("dst").asText(), new long[] {flows, sum});
        }
        assertEquals(want.keySet(), got.keySet());
        want.forEach((k, v) -> assertArrayEquals(new long[] {v[0], v[1]}, got.get(k), k));
        assertTrue(lastSum < json.get("pairs").get(0).get("retransmitted_packets").asLong(), "the samples have pairs that retransmitted and pairs that did not");

        // The query after --connections (its value is optional), the default counter (bytes), the text table.
        List<String> table = runs.get(2).out().lines().toList();
        assertEquals(List.of("src", "dst", "flows", "bytes"), List.of(table.get(0).split("\\s+")), runs.get(2).show());
        assertEquals(4, table.size(), runs.get(2).show());
        // src,dest_qp by naks: the QP that NAKed most, with its exact sum.
        JsonNode qp = JSON.readTree(runs.get(3).out().strip());
        long most = nakQps.values().stream().mapToLong(v -> v[0]).max().orElseThrow();
        assertEquals(most, qp.get("naks").asLong(), runs.get(3).show());
        assertEquals(most, nakQps.get(qp.get("src").asText() + " " + qp.get("dest_qp").asLong())[0]);
    }

    private static String host(JsonNode ip) { return IpAddresses.text(IpAddresses.parse(ip.asText())); }

    /**
     * A real {@code kill -9} of the launcher's JVM while it indexes many captures, right after it reported its
     * first commit: the index opens, holds every capture reported, and each capture it holds is whole. Captures are
     * committed in groups (here of at least three captures' documents, so that the kill lands between groups of a
     * run of 60 small captures; the default groups are larger): the first group is in whole, the rest of the run not.
     */
    @Test
    void killDashNineLeavesOnlyWholeReportedCaptures() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("many"));
        Path sample = Launcher.CAPTURES.resolve("rocev2-ecn-cnp.pcapng");
        int copies = 60;
        for (int i = 0; i < copies; i++) rewrite(sample, dir.resolve(String.format("copy%03d.pcapng", i)), "copy " + i);
        int flowsPerCapture;
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS);
        s.run(sample);
        flowsPerCapture = s.flows().size();
        Path idx = tmp.resolve("killed.idx");
        ProcessBuilder pb = new ProcessBuilder(Launcher.SCRIPT.toString(), "index", dir.toString(), "--index", idx.toString(),
                "--commit-documents", Integer.toString(3 * flowsPerCapture), "--commit-seconds", "600")
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("METAROCE_NO_BUILD", "1");
        Process p = pb.start();
        List<String> reported = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("indexed ")) {
                    reported.add(line.substring("indexed ".length(), line.indexOf(": ")));
                    p.destroyForcibly(); // SIGKILL: the launcher exec'd the JVM, so this is the indexing process
                    break;
                }
            }
        }
        p.waitFor();
        assertEquals(137, p.exitValue(), "killed by SIGKILL");
        assertFalse(reported.isEmpty());
        try (LuceneFlowIndex after = LuceneFlowIndex.openForReading(idx)) {
            List<IndexedCapture> held = after.captures();
            assertTrue(held.size() < copies, "the kill came before the end (" + held.size() + " captures)");
            assertTrue(held.size() >= 3, "the first commit held a group of captures (" + held.size() + ")");
            Set<String> paths = new TreeSet<>();
            for (IndexedCapture c : held) {
                paths.add(c.path());
                long flows = after.search(FlowQueryParser.parse("hash:" + c.hash()), FlowSort.DEFAULT, 0).total();
                assertEquals(flowsPerCapture, flows, c.path() + " is whole");
            }
            assertTrue(paths.containsAll(reported), "held " + paths + ", reported " + reported);
            assertEquals(held.size() * (long) flowsPerCapture, after.search(FlowQueryParser.parse("*:*"), FlowSort.DEFAULT, 0).total(), "no flow of a half capture");
        }
        // The index is writable again (the dead process's lock went with it) and the rest gets indexed.
        Run resumed = Launcher.run("index", dir.toString(), "--index", idx.toString());
        assertEquals(0, resumed.exit(), resumed.show());
        try (LuceneFlowIndex done = LuceneFlowIndex.openForReading(idx)) {
            assertEquals(copies, done.captures().size());
        }
    }

    /**
     * A real {@code kill -9} while a changed capture (the same path, other content) replaces one indexed before, in the
     * middle of its blocks (25,001 single-packet QPs: three blocks of 10,000 documents; under -Xmx64m Lucene's buffer
     * is 10.7 MB, about 15,000 of these documents, so it flushes a segment of the new documents in the second block,
     * and the kill follows that segment's first file, in the scratch directory the capture is added in apart:
     * LuceneFlowIndex.addApart): the index opens with the earlier capture whole (25,000 flows) and nothing of the new
     * one, and the next run removes the scratch directory and replaces the capture whole.
     */
    @Test
    void killDashNineInTheBlocksOfAChangedCaptureLeavesTheEarlierOne() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("changed"));
        Path cap = dir.resolve("many-qps.pcap");
        ManyQpsIT.writeCapture(cap, 25_000);
        Path idx = tmp.resolve("changed.idx");
        Run first = Launcher.run("index", cap.toString(), "--index", idx.toString());
        assertEquals(0, first.exit(), first.show());
        String oldHash;
        try (LuceneFlowIndex before = LuceneFlowIndex.openForReading(idx)) {
            oldHash = before.captures().get(0).hash();
        }
        Set<String> committed;
        try (var files = Files.list(idx)) {
            committed = new TreeSet<>(files.map(f -> f.getFileName().toString()).toList());
        }
        ManyQpsIT.writeCapture(cap, 25_001);

        ProcessBuilder pb = new ProcessBuilder(Launcher.SCRIPT.toString(), "index", cap.toString(), "--index", idx.toString(), "--threads", "1")
                .redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("METAROCE_NO_BUILD", "1");
        pb.environment().put("METAROCE_JAVA_OPTS", "-Xmx64m");
        Process p = pb.start();
        String flushed = null;
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (flushed == null && p.isAlive() && System.nanoTime() < deadline) {
            // The whole tree: a capture of many blocks is added in a scratch directory inside the index first
            // (LuceneFlowIndex.addApart), which the writer may remove while it is walked.
            try (var files = Files.walk(idx)) {
                flushed = files.map(f -> idx.relativize(f).toString()).filter(n -> n.endsWith(".si") && !committed.contains(n)).findFirst().orElse(null);
            } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
                // a file or directory removed during the walk: walked again
            }
            if (flushed == null) Thread.sleep(5);
        }
        p.destroyForcibly();
        p.waitFor();
        assertNotNull(flushed, "a segment of the new documents was written before the end (exit " + p.exitValue() + ")");
        assertEquals(137, p.exitValue(), "killed by SIGKILL");
        assertTrue(flushed.startsWith(LuceneFlowIndex.SCRATCH), "the capture of 25,001 flows was being added apart: " + flushed);
        try (LuceneFlowIndex after = LuceneFlowIndex.openForReading(idx)) {
            List<IndexedCapture> held = after.captures();
            assertEquals(1, held.size(), held.toString());
            assertEquals(oldHash, held.get(0).hash(), "the earlier capture, not the changed one");
            assertEquals(25_000, after.search(FlowQueryParser.parse("*:*"), FlowSort.DEFAULT, 0).total());
            assertEquals(25_000, after.search(FlowQueryParser.parse("hash:" + oldHash), FlowSort.DEFAULT, 0).total());
        }
        Run again = Launcher.run("index", cap.toString(), "--index", idx.toString());
        assertEquals(0, again.exit(), again.show());
        try (var files = Files.list(idx)) {
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().startsWith(LuceneFlowIndex.SCRATCH)).toList(),
                    "the killed run's scratch directory was removed");
        }
        try (LuceneFlowIndex done = LuceneFlowIndex.openForReading(idx)) {
            List<IndexedCapture> held = done.captures();
            assertEquals(1, held.size(), held.toString());
            assertFalse(held.get(0).hash().equals(oldHash));
            assertEquals(25_001, done.search(FlowQueryParser.parse("*:*"), FlowSort.DEFAULT, 0).total());
        }
    }

    /** The same packets with another section comment: a capture of other content (another hash). */
    private static void rewrite(Path from, Path to, String comment) throws Exception {
        try (PacketSource src = CaptureFiles.open(from);
             PcapngWriter w = new PcapngWriter(FileChannel.open(to, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                     StandardOpenOption.TRUNCATE_EXISTING), ByteOrder.LITTLE_ENDIAN, "test", comment)) {
            Map<Integer, Integer> ifs = new HashMap<>();
            while (src.next()) {
                Integer id = ifs.get(src.linkType());
                if (id == null) ifs.put(src.linkType(), id = w.addInterface(src.linkType(), 0, null, src.fcsLength()));
                w.write(id, src.timestampNanos(), src.data(), 0, src.capturedLength(), src.originalLength(), null);
            }
        }
    }
}
