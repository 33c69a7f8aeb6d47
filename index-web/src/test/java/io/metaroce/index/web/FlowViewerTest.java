package io.metaroce.index.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.JsonOut;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapngWriter;
import io.metaroce.index.CaptureIdentity;
import io.metaroce.index.Connection;
import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowDocuments;
import io.metaroce.index.FlowExtract;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.QuerySyntaxException;
import io.metaroce.index.lucene.LuceneFlowIndex;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The viewer against a real index of two samples (one copied under a file name of markup), in process: each
 * answer of the API is held to the engine call {@code metaroce search} / {@code extract} make for the same query
 * (same flows, order, counters, facet values, pairs, frames), never to numbers written here.
 */
class FlowViewerTest {
    @TempDir
    static Path tmp;

    private static final Path CAPTURES = Path.of("../samples/captures").toAbsolutePath().normalize();
    /** A rule text as a shared index's writer might choose it: markup, quotes and a backslash. */
    private static final String HOSTILE_RULE = "MR-<script>alert(\"x\")</script>\\";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How much later the second capture's packets are than in its sample. */
    private static final long SHIFT_NS = 3 * 3600 * 1_000_000_000L;
    private static Path dir;
    private static FlowIndex index;
    private static FlowViewer viewer;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void serve() throws IOException {
        dir = tmp.resolve("flows.idx");
        // The second capture under a file name of markup (its path is the capture_path its answers carry), its packets
        // three hours later than the first's (the samples all begin at one instant): a time range can tell them apart.
        Path marked = tmp.resolve("<img src=x onerror=alert(1)>.pcapng");
        shifted(CAPTURES.resolve("metaroce-spray-lossy-path.pcapng"), marked, SHIFT_NS);
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(dir)) {
            add(w, CAPTURES.resolve("rocev2-gbn-loss.pcapng"), List.of());
            add(w, marked, List.of(HOSTILE_RULE));
        }
        index = LuceneFlowIndex.openForReading(dir);
        viewer = FlowViewer.start(index, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterAll
    static void stop() throws IOException {
        viewer.close();
        index.close();
        // No worker thread outlives close (the launcher's viewer must exit promptly on Ctrl+C).
        for (Thread t : Thread.getAllStackTraces().keySet())
            assertFalse(t.getName().startsWith("metaroce-viewer-") && t.isAlive(), "still running: " + t);
    }

    /** A copy of a capture with every packet that much later. */
    private static void shifted(Path from, Path to, long ns) throws IOException {
        try (PacketSource s = CaptureFiles.open(from); PcapngWriter w = PcapngWriter.create(to)) {
            Map<Integer, Integer> interfaces = new java.util.HashMap<>();
            while (s.next()) {
                Integer id = interfaces.get(s.linkType());
                if (id == null) interfaces.put(s.linkType(), id = w.addInterface(s.linkType(), 262_144));
                w.write(id, s.timestampNanos() + ns, s.data(), 0, s.capturedLength(), s.originalLength(), null);
            }
        }
    }

    /** Indexes a capture as {@code metaroce index} does (one analysis pass, the flows' documents), each flow with those rules. */
    private static void add(LuceneFlowIndex w, Path file, List<String> rules) throws IOException {
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, new AnalysisSession.Options(false, false, true));
        AnalysisResult r = s.run(file);
        Map<String, Object> c = r.capture();
        IndexedCapture cap = new IndexedCapture(file.toString(), Files.size(file), CaptureIdentity.contentHash(file),
                String.valueOf(c.get("format")), null, (Long) c.get("first_ns"), (Long) c.get("last_ns"), IndexedCapture.nowNs());
        List<FlowDocument> docs = new ArrayList<>(List.of(FlowDocuments.capture(cap)));
        for (FlowSummary f : r.flows())
            docs.addAll(FlowDocuments.of(cap, f, s.framesOf(f.id()), List.of(), rules, FlowDocuments.DEFAULT_SPLIT));
        w.addCapture(cap, docs);
    }

    // ------------------------------------------------------------------ the API against the engine

    @Test
    void sessionsAreSearchsFlowsInItsOrder() throws Exception {
        for (String[] c : new String[][] {{"*:*", ""}, {"naks:>0", "packets"}, {"src:10.0.0.0/8 AND packets:>2", "first:desc"},
                {"capture:*", "retransmitted_packets:asc"}}) {
            FlowQuery q = FlowQueryParser.parse(c[0]);
            FlowSort sort = c[1].isEmpty() ? FlowSort.DEFAULT : FlowSort.parse(c[1]);
            var expected = index.search(q, sort, 100);
            assertTrue(expected.total() > 0, c[0] + " matches something (else the check is vacuous)");
            JsonNode r = get("/api/sessions?q=" + enc(c[0]) + "&sort=" + enc(c[1]));
            assertEquals(q.toString(), r.get("query").asText());
            assertEquals(expected.total(), r.get("total").asLong());
            assertEquals(searchJson(expected.flows()), r.get("flows"), c[0] + " sorted by " + c[1]);
            // A page: the same flows from the 2nd, as many as asked.
            JsonNode page = get("/api/sessions?q=" + enc(c[0]) + "&sort=" + enc(c[1]) + "&start=1&length=2");
            List<FlowDocument> want = expected.flows().subList(Math.min(1, expected.flows().size()), Math.min(3, expected.flows().size()));
            assertEquals(searchJson(want), page.get("flows"));
        }
    }

    @Test
    void spiViewIsTopOfEachFieldAndEachTermFindsItsFlows() throws Exception {
        FlowQuery q = FlowQueryParser.parse("packets:>0");
        JsonNode r = get("/api/spiview?q=" + enc("packets:>0") + "&by=retransmitted_packets&fields=src,dest_qp,rules,capture_path");
        FieldDef by = FlowSchema.field("retransmitted_packets");
        int facets = 0, values = 0;
        boolean hostile = false;
        for (JsonNode f : r.get("facets")) {
            FieldDef field = FlowSchema.field(f.get("top").asText());
            List<FacetBucket> top = index.top(field, by, 10, q);
            assertEquals(top.size(), f.get("values").size(), field.name());
            for (int i = 0; i < top.size(); i++) {
                JsonNode v = f.get("values").get(i);
                FacetBucket b = top.get(i);
                assertEquals(tree(b.key()), v.get(field.name()), field.name());
                assertEquals(b.sum(), v.get(by.name()).asLong());
                assertEquals(b.flows(), v.get("flows").asLong());
                // The clause a click adds selects exactly the value's flows (quoting of paths, markup and backslashes).
                String term = v.get("term").asText();
                long found = index.search(new FlowQuery.And(List.of(q, FlowQueryParser.parse(term))), FlowSort.DEFAULT, 0).total();
                assertEquals(b.flows(), found, term);
                hostile |= HOSTILE_RULE.equals(v.get(field.name()).asText());
                values++;
            }
            facets++;
        }
        assertEquals(4, facets);
        assertTrue(hostile, "the rule of markup is among the values: " + r);
        assertTrue(values > 8, "values checked: " + values);
    }

    @Test
    void connectionsAreSearchsPairs() throws Exception {
        JsonNode r = get("/api/connections?q=*:*&by=packets&n=20");
        List<Connection> pairs = index.connections(FlowSchema.field("src"), FlowSchema.field("dst"), List.of(FlowSchema.field("packets")),
                20, new FlowQuery.MatchAll());
        assertFalse(pairs.isEmpty());
        assertEquals(pairs.size(), r.get("pairs").size());
        for (int i = 0; i < pairs.size(); i++) {
            Connection c = pairs.get(i);
            JsonNode p = r.get("pairs").get(i);
            assertEquals(String.valueOf(c.from()), p.get("src").asText());
            assertEquals(String.valueOf(c.to()), p.get("dst").asText());
            assertEquals(c.flows(), p.get("flows").asLong());
            assertEquals(c.sum(), p.get("packets").asLong());
            String both = p.get("from_term").asText() + " AND " + p.get("to_term").asText();
            assertEquals(c.flows(), index.search(FlowQueryParser.parse(both), FlowSort.DEFAULT, 0).total(), both);
        }
    }

    @Test
    void filesListEveryCaptureWithItsFlowsAndSeeANewCommit() throws Exception {
        JsonNode r = get("/api/files");
        List<IndexedCapture> caps = index.captures();
        assertEquals(caps.size(), r.get("files").size());
        for (JsonNode f : r.get("files")) {
            long flows = index.search(FlowQueryParser.parse(f.get("term").asText()), FlowSort.DEFAULT, 0).total();
            assertTrue(flows > 0);
            assertEquals(flows, f.get("flows").asLong(), f.get("capture_path").asText());
        }
        // An index run adding a capture while the viewer runs: the next request sees it.
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(dir)) {
            add(w, CAPTURES.resolve("rocev2-read-atomic.pcapng"), List.of());
        }
        assertEquals(caps.size() + 1, get("/api/files").get("files").size());
        assertEquals(index.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total(), get("/api/sessions?q=*:*").get("total").asLong());
    }

    @Test
    void aFlowsDocumentAndItsGuiCommand() throws Exception {
        FlowDocument d = index.search(FlowQueryParser.parse("naks:>0"), FlowSort.DEFAULT, 1).flows().getFirst();
        String root = d.getString(FlowSchema.ROOT_ID);
        JsonNode r = get("/api/session/" + enc(root));
        assertEquals(searchJson(List.of(d)).get(0), r.get("flow"));
        assertEquals("metaroce gui '" + d.getString(FlowSchema.CAPTURE_PATH) + "' -Y 'analysis.flow == \""
                + d.getString(FlowSchema.FLOW) + "\"'", r.get("gui").asText());
        assertEquals(404, send("/api/session/" + enc(root + "x")).statusCode());
        assertEquals("metaroce gui 'it'\\''s' -Y 'analysis.flow == \"f\"'", ViewerApi.guiCommand("it's", "f"));
    }

    @Test
    void pcapDownloadsHoldTheFramesExtractWrites() throws Exception {
        // The whole query with a limit (extract -n 2), and one flow by its id (a row's "Download PCAP").
        FlowQuery q = FlowQueryParser.parse("packets:>0");
        List<FlowExtract.Flow> two = new ArrayList<>();
        for (FlowDocument d : index.search(q, FlowSort.DEFAULT, 2).flows()) two.add(FlowExtract.Flow.of(d));
        assertEquals(2, two.size());
        assertFrames(two, "/api/sessions.pcap?q=" + enc("packets:>0") + "&n=2");
        FlowDocument lossy = index.search(FlowQueryParser.parse("retransmitted_packets:>0"), FlowSort.DEFAULT, 1).flows().getFirst();
        assertFrames(List.of(FlowExtract.Flow.of(lossy)), "/api/sessions.pcap?ids=" + enc(lossy.getString(FlowSchema.ROOT_ID)));
    }

    private static void assertFrames(List<FlowExtract.Flow> flows, String url) throws Exception {
        Path want = tmp.resolve("want.pcapng"), got = tmp.resolve("got.pcapng");
        FlowExtract.Result r = FlowExtract.write(index, flows, want);
        assertTrue(r.problems().isEmpty() && r.packets() > 0, r.toString());
        HttpResponse<Path> resp = HTTP.send(HttpRequest.newBuilder(uri(url)).build(), HttpResponse.BodyHandlers.ofFile(got));
        assertEquals(200, resp.statusCode());
        assertTrue(resp.headers().firstValue("Content-Disposition").orElse("").startsWith("attachment; filename="));
        List<String> frames = frames(got);
        assertEquals(r.packets(), frames.size());
        assertEquals(frames(want), frames);
    }

    /** Each frame's time, lengths and bytes. */
    private static List<String> frames(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        try (PacketSource s = CaptureFiles.open(file)) {
            while (s.next()) {
                byte[] b = s.data().asSlice(0, s.capturedLength()).toArray(ValueLayout.JAVA_BYTE);
                out.add(s.timestampNanos() + " " + s.originalLength() + " " + s.linkType() + " " + HexFormat.of().formatHex(b));
            }
        }
        return out;
    }


    // ------------------------------------------------------------------ time range, CSV, unique values, SPI Graph

    @Test
    void aTimeRangeKeepsTheFlowsActiveInItAsSearchFindsThem() throws Exception {
        long total = index.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total();
        long late = index.search(FlowQueryParser.parse("first:>=2026-01-01T02:00"), FlowSort.DEFAULT, 0).total();
        assertTrue(late > 0 && late < total, "the shifted capture's flows are some, not all: " + late + " of " + total);
        // Each range: its parameters, and the query search runs for the same flows (active in it: last >= start, first < stop).
        String[][] cases = {
            {"startTime=2026-01-01T02:00", "last:>=2026-01-01T02:00"},
            {"startTime=2026-01-01T02:00&stopTime=2026-01-01T04:00", "last:>=2026-01-01T02:00 AND first:<2026-01-01T04:00"},
            {"stopTime=1767229200", "first:<2026-01-01T01:00"},   // Arkime's seconds since the epoch
            {"startTime=2026-01-01T00:00:00.000040%2B00:00&stopTime=2026-01-01T00:00:00.000050Z",
                "last:>=2026-01-01T00:00:00.000040 AND first:<2026-01-01T00:00:00.000050"},
            {"date=1", "last:>=" + (TimeRange.newest(index) + 1 - 3_600_000_000_000L)},   // the last hour before the newest flow
            {"date=24", "*:*"},
            {"date=-1", "*:*"}};
        boolean narrowed = false;
        for (String[] c : cases) {
            long want = index.search(FlowQueryParser.parse(c[1]), FlowSort.DEFAULT, 0).total();
            JsonNode r = get("/api/sessions?q=*:*&" + c[0]);
            assertEquals(want, r.get("total").asLong(), c[0]);
            // A query and the range together: both apply.
            long both = index.search(FlowQueryParser.parse("(" + c[1] + ") AND naks:>0"), FlowSort.DEFAULT, 0).total();
            assertEquals(both, get("/api/sessions?q=" + enc("naks:>0") + "&" + c[0]).get("total").asLong(), c[0]);
            assertEquals(want, get("/api/spiview?fields=transport&" + c[0]).get("facets").get(0).get("values").findValues("flows")
                    .stream().mapToLong(JsonNode::asLong).sum(), "SPI View in the range too: " + c[0]);
            narrowed |= want > 0 && want < total;
        }
        assertTrue(narrowed);
        assertEquals(late, get("/api/sessions?date=1").get("total").asLong(), "the last hour holds the shifted capture's flows only");
        for (String[] bad : new String[][] {
            {"startTime=yesterday", "startTime: 'yesterday' is not a time: write 2026-11-30T02:10[:05[.25]][Z|+01:00] or seconds since the epoch"},
            {"startTime=2026-01-01T02:00&stopTime=2026-01-01T01:00", "stopTime must be after startTime (2026-01-01T01:00 is not after 2026-01-01T02:00)"},
            {"stopTime=2026-02-30", "stopTime: " + timeError("2026-02-30")},
            {"date=0", "date must be 1 to " + TimeRange.MAX_HOURS + " hours (-1: all), not 0"},
            {"date=week", "date must be a number of hours (-1: all), not 'week'"}}) {
            for (String api : List.of("/api/sessions", "/api/sessions.csv", "/api/spigraph", "/api/connections")) {
                HttpResponse<String> r = send(api + "?" + bad[0]);
                assertEquals(400, r.statusCode(), api + "?" + bad[0]);
                assertEquals(bad[1], JSON.readTree(r.body()).get("error").asText());
            }
        }
    }

    @Test
    void sessionsCsvParsesBackToTheFlowsOfSessions() throws Exception {
        String fields = "flow,capture_path,first_ns,packets,src,dest_qp,rules,src_qps";
        String url = "?expression=" + enc("packets:>0") + "&sort=packets&fields=" + fields + "&startTime=2026-01-01T02:00";
        JsonNode flows = get("/api/sessions" + url + "&length=1000").get("flows");
        HttpResponse<String> r = send("/api/sessions.csv" + url);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/csv"));
        assertTrue(r.headers().firstValue("Content-Disposition").orElse("").contains("metaroce-sessions.csv"));
        List<List<String>> rows = readCsv(r.body());
        assertEquals(List.of(fields.split(",")), rows.getFirst());
        assertTrue(flows.size() > 1);
        assertEquals(flows.size(), rows.size() - 1);
        boolean hostile = false;
        for (int i = 0; i < flows.size(); i++) {
            JsonNode f = flows.get(i);
            List<String> row = rows.get(i + 1);
            assertEquals(f.get("flow").asText(), row.get(0));
            assertEquals(f.get("capture_path").asText(), row.get(1));
            // A time as search prints it: UTC to the microsecond.
            long first = f.get("first_ns").asLong();
            long[] span = io.metaroce.index.QueryTimes.span(row.get(2));
            assertTrue(span[0] <= first && first < span[1], row.get(2) + " holds " + first);
            assertEquals(f.get("packets").asText(), row.get(3));
            assertEquals(f.get("src").asText(), row.get(4));
            assertEquals(f.get("dest_qp").asText(), row.get(5));
            List<String> rules = new ArrayList<>();
            for (JsonNode v : f.path("rules")) rules.add(v.asText());
            assertEquals(String.join("; ", rules), row.get(6));
            hostile |= row.get(6).contains(HOSTILE_RULE);
            List<String> qps = new ArrayList<>();
            for (JsonNode v : f.path("src_qps")) qps.add(v.asText());
            assertEquals(String.join("; ", qps), row.get(7));
        }
        assertTrue(hostile, "a rule with a quote and a backslash went through the quoting");
        assertEquals(400, send("/api/sessions.csv?fields=flow,nosuch").statusCode());
        assertEquals(400, send("/api/sessions.csv?fields=offsets").statusCode());
    }

    @Test
    void aCellASpreadsheetWouldRunAsAFormulaIsDefused() {
        for (String formula : List.of("=HYPERLINK(\"http://x\")", "+1+2", "-2+3", "@SUM(A1)", "\tx", "=1,2"))
            assertTrue(readCsv(row(formula)).getFirst().getFirst().equals("'" + formula), formula);
        for (String plain : List.of("-5", "12", "1.5", "a=b", "", "x\"y", "line\r\nbreak"))
            assertEquals(plain, readCsv(row(plain)).getFirst().getFirst(), plain);
        assertEquals(List.of(List.of("a,b", "c\"d", "")), readCsv(row("a,b", "c\"d", "")));
    }

    /** What search says of a time it cannot read. */
    private static String timeError(String text) {
        try {
            io.metaroce.index.QueryTimes.span(text);
            throw new AssertionError(text + " is a time");
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static String row(String... cells) {
        StringBuilder b = new StringBuilder();
        Csv.row(b, List.of(cells));
        return b.toString();
    }

    @Test
    void uniqueValuesAreSpiViewsWithTheirFlows() throws Exception {
        for (String field : List.of("rules", "src", "dest_qp", "capture_path")) {
            JsonNode values = get("/api/spiview?q=" + enc("packets:>0") + "&n=1000&fields=" + field).get("facets").get(0).get("values");
            HttpResponse<String> r = send("/api/unique.txt?exp=" + field + "&counts=1&expression=" + enc("packets:>0"));
            assertEquals(200, r.statusCode(), r.body());
            List<String> lines = r.body().lines().toList();
            assertEquals(values.size(), lines.size(), field);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i), value = values.get(i).get(field).asText();
                int comma = line.lastIndexOf(", ");
                assertEquals(value.startsWith("=") ? "'" + value : value, line.substring(0, comma), field);
                assertEquals(values.get(i).get("flows").asLong(), Long.parseLong(line.substring(comma + 2)), value);
            }
            assertEquals(values.size(), send("/api/unique.txt?exp=" + field + "&q=" + enc("packets:>0")).body().lines().count());
        }
        assertEquals(400, send("/api/unique.txt").statusCode());
        assertEquals(400, send("/api/unique.txt?exp=first_ns").statusCode());
    }

    @Test
    void spiGraphBucketsAddUpToTheFieldsTotals() throws Exception {
        for (String range : List.of("", "&startTime=2026-01-01T02:00", "&date=-1&buckets=7")) {
            JsonNode r = get("/api/spigraph?field=src&by=retransmitted_packets&n=4" + range);
            JsonNode facet = get("/api/spiview?fields=src&by=retransmitted_packets&n=4" + range).get("facets").get(0).get("values");
            assertEquals(facet.size(), r.get("series").size(), range);
            int buckets = r.get("buckets").size();
            assertTrue(buckets > 1 && buckets <= (range.contains("buckets=7") ? 7 : SpiGraph.BUCKETS), "buckets: " + buckets);
            long width = r.get("bucket_ns").asLong();
            for (int i = 0; i < buckets; i++) assertEquals(r.get("start_ns").asLong() + i * width, r.get("buckets").get(i).asLong());
            long nonEmpty = 0;
            for (int i = 0; i < facet.size(); i++) {
                JsonNode s = r.get("series").get(i), v = facet.get(i);
                assertEquals(v.get("src").asText(), s.get("value").asText());
                long flows = 0, sum = 0;
                for (JsonNode x : s.get("flows_per_bucket")) { flows += x.asLong(); nonEmpty += x.asLong() > 0 ? 1 : 0; }
                for (JsonNode x : s.get("retransmitted_packets_per_bucket")) sum += x.asLong();
                assertEquals(v.get("flows").asLong(), flows, range + " " + s.get("value"));
                assertEquals(v.get("retransmitted_packets").asLong(), sum, range + " " + s.get("value"));
                assertEquals(buckets, s.get("flows_per_bucket").size());
            }
            assertTrue(nonEmpty > 1, "the lines rise in more than one bucket: " + r);
        }
        assertEquals(400, send("/api/spigraph?field=first_ns").statusCode());
        assertEquals(400, send("/api/spigraph?buckets=" + (SpiGraph.MAX_BUCKETS + 1)).statusCode());
        assertEquals(1L, SpiGraph.width(0, 60));
        assertEquals(2_000L, SpiGraph.width(100_000, 60));
        assertEquals(50_000_000_000L, SpiGraph.width(3600L * 1_000_000_000L / 2, 60));
    }

    @Test
    void fieldsListEveryColumnTheChooserOffers() throws Exception {
        JsonNode r = get("/api/fields").get("fields");
        List<String> names = new ArrayList<>();
        for (JsonNode f : r) {
            names.add(f.get("name").asText());
            assertEquals(FlowSchema.field(f.get("name").asText()).sortable(), f.get("sortable").asBoolean());
        }
        assertTrue(names.containsAll(List.of("flow", "capture_path", "first_ns", "packets", "latency.ack_rtt_ns.p99", "rules", "lossy_paths")), names.toString());
        for (String internal : List.of("id", "root_id", "offsets", "frames", "part_packets")) assertFalse(names.contains(internal), internal);
        // Each listed field can be a CSV column.
        assertEquals(200, send("/api/sessions.csv?length=1&fields=" + enc(String.join(",", names))).statusCode());
    }

    /** RFC 4180: fields split on commas outside quotes, "" a quote inside them, records ended by CRLF. */
    private static List<List<String>> readCsv(String text) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') { cell.append('"'); i++; }
                else if (c == '"') quoted = false;
                else cell.append(c);
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                row.add(cell.toString());
                cell.setLength(0);
            } else if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                row.add(cell.toString());
                cell.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
                i++;
            } else {
                assertFalse(c == '\n' || c == '\r', "a bare line break outside quotes at " + i);
                cell.append(c);
            }
        }
        assertFalse(quoted, "an unclosed quote");
        assertTrue(row.isEmpty() && cell.isEmpty(), "the last record ends with CRLF");
        return rows;
    }

    // ------------------------------------------------------------------ habits

    @Test
    void aBadQueryIs400WithSearchsMessage() throws Exception {
        for (String bad : List.of("naks:>", "dest_qp:0x1000000", "(naks:1", "nosuchfield:1")) {
            String message;
            try {
                FlowQueryParser.parse(bad);
                throw new AssertionError(bad + " parsed");
            } catch (QuerySyntaxException e) {
                message = "query: " + e.getMessage();   // search prints "metaroce search: " and this
            }
            for (String api : List.of("/api/sessions", "/api/spiview", "/api/connections", "/api/sessions.pcap")) {
                HttpResponse<String> r = send(api + "?q=" + enc(bad));
                assertEquals(400, r.statusCode(), api + " " + bad);
                assertEquals(message, JSON.readTree(r.body()).get("error").asText());
            }
        }
        HttpResponse<String> sort = send("/api/sessions?q=*:*&sort=flow");
        assertEquals(400, sort.statusCode());
        assertEquals("sort: 'flow' cannot order results: sort by a number or time field", JSON.readTree(sort.body()).get("error").asText());
        assertEquals(400, send("/api/spiview?by=src").statusCode());
        assertEquals(400, send("/api/sessions?length=x").statusCode());
    }

    @Test
    void onlyItsOwnFilesOnlyGetAndHeadOnlyLoopbackNames() throws Exception {
        assertEquals(200, send("/").statusCode());
        assertTrue(send("/viewer.js").headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
        for (String path : List.of("/../pom.xml", "/%2e%2e/pom.xml", "/viewer.js/../index.html", "/%2E%2E%2Fpom.xml", "/..%5cpom.xml"))
            assertEquals(400, raw("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"), path);
        assertEquals(404, raw("GET /FlowViewer.class HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
        assertEquals(404, raw("GET /io/metaroce/index/web/viewer.js HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
        assertEquals(405, raw("POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"));
        assertEquals(405, raw("DELETE /api/files HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
        assertEquals(200, raw("HEAD /api/files HTTP/1.1\r\nHost: localhost:8005\r\n"));
        // Another site's name resolved to 127.0.0.1 (DNS rebinding) reads nothing.
        assertEquals(403, raw("GET /api/sessions HTTP/1.1\r\nHost: evil.example:8005\r\n"));
    }

    @Test
    void valuesArriveAsJsonStringsAndThePageNeverParsesThemAsHtml() throws Exception {
        HttpResponse<String> files = send("/api/files");
        assertTrue(files.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        assertEquals("nosniff", files.headers().firstValue("X-Content-Type-Options").orElse(""));
        boolean marked = false;
        for (JsonNode f : JSON.readTree(files.body()).get("files")) marked |= f.get("capture_path").asText().endsWith("<img src=x onerror=alert(1)>.pcapng");
        assertTrue(marked, files.body());
        // No inline script may run and nothing loads from elsewhere.
        String csp = send("/").headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(csp.contains("default-src 'self'") && !csp.contains("unsafe-inline"), csp);
        // The page builds its DOM from text only: no HTML parsing of anything.
        String js = send("/viewer.js").body(), html = send("/").body();
        assertTrue(js.contains("textContent"));
        for (String sink : List.of("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "DOMParser"))
            assertFalse(js.contains(sink), sink);
        assertFalse(html.matches("(?s).*<script>.*|.* on[a-z]+=.*"), "no inline script or handler in the page");
        assertFalse((js + html).matches("(?s).*https?://(?!www\\.w3\\.org/2000/svg).*"), "nothing fetched from another host");
    }

    // ------------------------------------------------------------------ helpers

    /** Flows as {@code search -T json} writes them: each document without its packet offsets, through JsonOut. */
    private static JsonNode searchJson(List<FlowDocument> flows) throws IOException {
        List<Object> list = new ArrayList<>();
        for (FlowDocument d : flows) {
            Map<String, Object> m = new java.util.LinkedHashMap<>(d.fields());
            m.remove(FlowSchema.OFFSETS);
            m.remove(FlowSchema.FRAMES);
            list.add(m);
        }
        return tree(list);
    }

    private static JsonNode tree(Object value) throws IOException {
        StringBuilder b = new StringBuilder();
        new JsonOut(b, false).value(value);
        return JSON.readTree(b.toString());
    }

    private static String enc(String s) { return URLEncoder.encode(s, StandardCharsets.UTF_8); }

    private static URI uri(String path) { return URI.create("http://127.0.0.1:" + viewer.port() + path); }

    private static HttpResponse<String> send(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = send(path);
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    /** The status of a request sent as written (no client normalizes its path). */
    private static int raw(String head) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), viewer.port())) {
            OutputStream out = s.getOutputStream();
            out.write((head + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String status = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(status.substring(9, 12));
        }
    }
}
