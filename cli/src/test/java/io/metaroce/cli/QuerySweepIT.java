package io.metaroce.cli;

import static io.metaroce.testsupport.LauncherCases.oneLine;
import static io.metaroce.testsupport.LauncherCases.oneLineExit2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.LauncherCases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search query language and the flow index commands with bad input, as the shipped command gets them (sweep D
 * of the twenty-fifth session): each case below matched nothing in silence ("0 flows match", exit 0), ignored an
 * option, or printed SolrJ's own words before its fix; each must now be one line on stderr and exit 2. The launcher
 * processes run in parallel, once, before the checks (as in OptionSweepBIT).
 */
class QuerySweepIT {
    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();
    private static final String GBN = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString();
    private static final String CLEAN = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
    private static Path noCommitForIndex;
    private static long filesBefore;
    /** A port held while the cases run: the viewer told to listen there finds it in use. */
    private static java.net.ServerSocket busy;
    private static Path viewerIndex;

    @BeforeAll
    static void runEveryCase() throws Exception {
        Path idx = tmp.resolve("flows.idx");
        Run made = Launcher.run("index", GBN, "--index", idx.toString());
        assertEquals(0, made.exit(), made.show());
        queryCases(idx.toString());
        fullWidthCases(idx.toString());
        ncclCases(idx.toString());
        indexCases(idx);
        viewerCases(idx);
        CASES.runAll();
        busy.close();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    // ------------------------------------------------------------------ the query language

    private static void queryCases(String index) {
        // A value no flow can hold: a QP number is 24 bits, a count is never negative, a path id is 16 bits, a rate
        // is a fraction. Each matched nothing and said "0 flows match".
        Map<String, String> outOfRange = new LinkedHashMap<>();
        outOfRange.put("dest_qp:0x1000000", "column 9: '0x1000000' is out of range for 'dest_qp' (0 to 0xFFFFFF: a QP number is 24 bits)");
        outOfRange.put("src_qps:-1", "column 9: '-1' is out of range for 'src_qps' (0 to 0xFFFFFF: a QP number is 24 bits)");
        outOfRange.put("naks:-1", "column 6: '-1' is out of range for 'naks' (0 or more)");
        outOfRange.put("path_ids:65536", "column 10: '65536' is out of range for 'path_ids' (0 to 65535: a MetaRoCE path id is 16 bits)");
        outOfRange.put("paths.1.loss_rate:2", "column 19: '2' is out of range for 'paths.1.loss_rate' (0 to 1: a fraction)");
        outOfRange.put("paths.70000.packets:1", "column 1: path id 70000 in 'paths.70000.packets' is beyond 65535 (a MetaRoCE path id is 16 bits)");
        // Ranges no value lies in: inverted, or outside the field's values.
        outOfRange.put("naks:[10 TO 1]", "column 6: the range is empty: no value lies between its bounds");
        outOfRange.put("src:[10.0.0.9 TO 10.0.0.1]", "column 5: the range is empty: no value lies between its bounds");
        outOfRange.put("first:[2026-01-02 TO 2026-01-01]", "column 7: the range is empty: no value lies between its bounds");
        outOfRange.put("src:[10.0.0.1 TO ::1]", "column 5: an IP range's bounds must both be IPv4 or both IPv6");
        outOfRange.put("naks:<0", "column 6: the range matches nothing: 'naks' is 0 or more");
        outOfRange.put("dest_qp:>0xFFFFFF", "column 9: the range matches nothing: 'dest_qp' is 0 to 0xFFFFFF: a QP number is 24 bits");
        // A field clause without its field was the keyword ":5" in the default fields.
        outOfRange.put(":5", "column 1: a field name is missing before ':' (e.g. naks:5)");
        for (var e : outOfRange.entrySet()) {
            add("search " + e.getKey(), Call.of("search", "--index", index, e.getKey()), r -> oneLine(r, "metaroce search: query: " + e.getValue()));
        }
        add("extract dest_qp:0x1000000", Call.of("extract", "--index", index, "dest_qp:0x1000000", "-w", tmp.resolve("qp.pcapng").toString()),
                r -> oneLine(r, "metaroce extract: query: " + outOfRange.get("dest_qp:0x1000000")));
        // The edges of a range are values: no error, and the query runs.
        for (String q : List.of("dest_qp:0xFFFFFF", "naks:<1", "path_ids:65535", "paths.1.loss_rate:[0 TO 1]")) {
            add("search " + q + " (an edge)", Call.of("search", "--index", index, q), r -> {
                assertEquals(0, r.exit(), r.show());
                assertEquals("", r.err(), r.show());
            });
        }
        // --sort beside --top was ignored without a word; a path id past 16 bits was a sort field.
        add("search --sort with --top", Call.of("search", "--index", index, "*:*", "--top", "src", "--by", "naks", "--sort", "naks"),
                r -> oneLine(r, "metaroce search: --sort orders flows, --top lists values by their --by sums: give one"));
        // --connections (host pairs) refuses what it cannot pair, sum or order, as --top does.
        Map<String, List<String>> pairs = new LinkedHashMap<>();
        pairs.put("--top lists values, --connections pairs of values: give one", List.of("--connections", "--top", "src", "--by", "naks"));
        pairs.put("--sort orders flows, --connections lists pairs by their --by sums: give one", List.of("--connections", "--sort", "naks"));
        pairs.put("--by credit_mode: sum a counter (an integer field)", List.of("--connections", "--by", "credit_mode"));
        pairs.put("--connections first,dst: pair keyword, integer or IP fields, not 'first_ns'", List.of("--connections", "first,dst"));
        pairs.put("--connections: unknown field 'nosuch'", List.of("--connections", "src,nosuch"));
        pairs.put("--connections src,src: pair two different fields", List.of("--connections", "src,src"));
        pairs.put("--connections takes two fields, FROM,TO (src,dst, src,dest_qp, ...), not 'src'", List.of("--connections", "src"));
        pairs.put("--limit must be at least 1 with --connections, not 0", List.of("--connections", "-n", "0"));
        for (var e : pairs.entrySet()) {
            List<String> args = new java.util.ArrayList<>(List.of("search", "--index", index, "*:*"));
            args.addAll(e.getValue());
            add("search " + String.join(" ", e.getValue()), Call.of(args.toArray(String[]::new)), r -> oneLine(r, "metaroce search: " + e.getKey()));
        }
        add("search --sort paths.70000.packets", Call.of("search", "--index", index, "*:*", "--sort", "paths.70000.packets"),
                r -> oneLine(r, "metaroce search: unknown sort field 'paths.70000.packets'"));
        // No Solr there: SolrJ's "Failed fetching live_nodes ... try re-creating a new CloudSolrClient".
        add("search --solr without a Solr", Call.of("search", "--solr", "http://127.0.0.1:1", "--collection", "x", "*:*").timeout(60),
                r -> oneLine(r, "metaroce search: SolrCloud at http://127.0.0.1:1/solr: no Solr node answered (is Solr running there, in SolrCloud mode? check --solr)"));
    }

    // ------------------------------------------------------------------ full-width forms

    /**
     * A query typed with an East Asian input method's full-width forms ({@code naks：5}, U+FF1A) is one plain word to
     * the parser: it found nothing and said nothing of why. Such a search now says what was probably meant, on stderr,
     * and keeps the exit code of a search without a hit (0); a query without them that finds nothing says nothing.
     */
    /**
     * search and extract --nccl: the flows an NCCL warning names, found by the keys it carries (the remote GID's
     * address, not the socket peer it prints; the CQE warning's qp_num), alone or ANDed with a query.
     */
    private static void ncclCases(String index) {
        String warn = "host:1:2 [0] NCCL WARN NET/IB : Got completion from peer 192.168.7.2<33092> with status=12 opcode=0 "
                + "len=0 vendor err 129 (Send) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2 hca mlx5_0";
        add("search --nccl WARNING", Call.of("search", "--index", index, "--nccl", warn, "-T", "json"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.err().contains("metaroce search: query from --nccl: (src:10.0.0.2 OR dst:10.0.0.2)"), r.show());
            com.fasterxml.jackson.databind.JsonNode o = json(r);
            assertTrue(o.get("total").asInt() > 0, r.show());
            for (var f : o.get("flows")) {
                assertTrue(f.get("src").asText().equals("10.0.0.2") || f.get("dst").asText().equals("10.0.0.2"), r.show());
            }
        });
        // qp_num=19 (0x13): the flow towards that QP and its paired direction (whose source QP it is).
        String cqe = "NCCL WARN NET/IB: ncclIbTest: Got CQE with error (devIndex=0, req=0x7f, comm=0x7f (send), wr_id=0, qp_num=19)";
        add("search --nccl CQE warning", Call.of("search", "--index", index, "--nccl", cqe, "-T", "json"), r -> {
            assertEquals(0, r.exit(), r.show());
            com.fasterxml.jackson.databind.JsonNode o = json(r);
            assertEquals(2, o.get("total").asInt(), "the flow towards QP 0x13 and the one it sends (its peer): " + r.show());
            for (var f : o.get("flows")) {
                assertTrue(f.get("dest_qp").asInt() == 19 || f.get("peer").asText().endsWith("/0x000013"), r.show());
            }
        });
        // UCX's error CQE without a GID: its local QP (unknown here) or the destination QP it printed (rqpn 0x13).
        String ucx = "[n1:7:0:7] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)\n"
                + "[n1:7:0:7] ib_mlx5_log.c:143  RC QP 0xabcd wqe[0]: SEND s-e [rqpn 0x13]";
        add("search --nccl UCX lines", Call.of("search", "--index", index, "--nccl", ucx, "-T", "json"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.err().contains("query from --nccl: (dest_qp:0x00abcd OR src_qps:0x00abcd OR peer:*0x00abcd OR "
                    + "dest_qp:0x000013 OR peer:*0x000013)"), r.show());
            assertEquals(2, json(r).get("total").asInt(), "the flow towards QP 0x13 and its paired one: " + r.show());
        });
        add("search --nccl WARNING QUERY", Call.of("search", "--index", index, "--nccl", warn, "naks:>0", "-T", "json"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.err().contains("query from --nccl: ((src:10.0.0.2 OR dst:10.0.0.2)) AND (naks:>0)"), r.show());
            for (var f : json(r).get("flows")) assertTrue(f.get("naks").asInt() > 0, r.show());
        });
        // A time stamp on the line narrows to the flows active near it (the sample's flows: 2026-01-01T00:00:00Z):
        // what the same QP number of a job days away would not be.
        add("search --nccl, time-stamped", Call.of("search", "--index", index, "--nccl", "2026-01-01T00:00:30Z " + warn, "-T", "json"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.err().contains("query from --nccl: (src:10.0.0.2 OR dst:10.0.0.2) AND first:[* TO 2026-01-01T00:05:30Z] "
                    + "AND last:[2025-12-31T23:00:30Z TO *]"), r.show());
            assertTrue(json(r).get("total").asInt() > 0, r.show());
        });
        String dayLater = "[1767355200.0] " + warn;   // 2026-01-02T12:00:00Z, UCX's epoch form
        add("search --nccl, time-stamped a day later", Call.of("search", "--index", index, "--nccl", dayLater, "-T", "json"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals(0, json(r).get("total").asInt(), r.show());
            assertTrue(r.err().matches("(?s).*metaroce search: the warning's time stamp kept out the [1-9][0-9]* flows? it names "
                    + "otherwise .* search '\\(src:10\\.0\\.0\\.2 OR dst:10\\.0\\.0\\.2\\)'\\n"), r.show());
        });
        // No zone: any zone's local time, so ten hours off still finds them.
        add("search --nccl, local time stamp", Call.of("search", "--index", index, "--nccl", "[2026-01-01 10:00:00] " + warn, "-T", "json"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.err().contains("AND first:[* TO 2026-01-01T22:05:00Z] AND last:[2025-12-31T19:00:00Z TO *]"), r.show());
            assertTrue(json(r).get("total").asInt() > 0, r.show());
        });
        add("extract --nccl, time-stamped a day later", Call.of("extract", "--index", index, "--nccl", dayLater, "-w",
                tmp.resolve("nccl-none.pcapng").toString()), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.err().contains("metaroce extract: 0 packets of 0 flows written to "), r.show());
            assertTrue(r.err().contains("metaroce extract: the warning's time stamp kept out the "), r.show());
        });
        Path out = tmp.resolve("nccl.pcapng");
        add("extract --nccl WARNING", Call.of("extract", "--index", index, "--nccl", warn, "-w", out.toString()), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.err().matches("(?s).*metaroce extract: [1-9][0-9]* packets of [1-9][0-9]* flows written to .*"), r.show());
        });
        add("search --nccl, host-name peer only", Call.of("search", "--index", index, "--nccl",
                "NET/IB: Got completion from peer node20<57713> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_0"),
                r -> oneLine(r, "metaroce search: --nccl: the warning names its peer by host name only and no qp_num: "
                        + "search by the peer's RoCE address (src:IP OR dst:IP)"));
        add("search --nccl not a warning", Call.of("search", "--index", index, "--nccl", "NCCL INFO fine"), LauncherCases::oneLineExit2);
    }

    private static com.fasterxml.jackson.databind.JsonNode json(Run r) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        } catch (java.io.IOException e) {
            throw new AssertionError(r.show(), e);
        }
    }

    private static void fullWidthCases(String index) {
        hint("search naks：5", "'naks：5' has the full-width '：' (U+FF1A), read as part of a word; did you mean 'naks:5'?",
                "search", "naks：5", "--index", index);
        hint("search ｎａｋｓ：＞0 -T json", "'ｎａｋｓ：＞0' has the full-width 'ｎ' (U+FF4E), 'ａ' (U+FF41), 'ｋ' (U+FF4B), 'ｓ' "
                + "(U+FF53), '：' (U+FF1A), '＞' (U+FF1E), read as part of a word; did you mean 'naks:>0'?",
                "search", "ｎａｋｓ：＞0", "--index", index, "-T", "json");
        hint("search --top, full-width", "'naks：＊' has the full-width '：' (U+FF1A), '＊' (U+FF0A), read as part of a word; "
                + "did you mean 'naks:*'?", "search", "naks：＊", "--index", index, "--top", "dest_qp", "--by", "naks");
        hint("search naks:99999, no hint", null, "search", "naks:99999", "--index", index);
        // extract says it after its count line (an empty capture written, exit 0 as for any query without a match).
        String out = tmp.resolve("full-width.pcapng").toString();
        add("extract naks：5", Call.of("extract", "naks：5", "--index", index, "-w", out), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals(List.of("metaroce extract: 0 packets of 0 flows written to " + out,
                    "metaroce extract: 'naks：5' has the full-width '：' (U+FF1A), read as part of a word; did you mean 'naks:5'?"),
                    r.errLines(), r.show());
        });
        add("extract naks:99999, no hint", Call.of("extract", "naks:99999", "--index", index, "-w", out), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals(List.of("metaroce extract: 0 packets of 0 flows written to " + out), r.errLines(), r.show());
        });
    }

    /** Exit 0 as a search without a hit, and on stderr exactly the hint, or nothing when it is null. */
    private static void hint(String name, String hint, String... args) {
        add(name, Call.of(args), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals(hint == null ? List.of() : List.of("metaroce search: " + hint), r.errLines(), r.show());
        });
    }

    // ------------------------------------------------------------------ index integrity

    private static void indexCases(Path idx) throws Exception {
        // The commit file deleted: Lucene reads the directory as no index at all, so search and extract said
        // "0 flows match" and index started a new index over the old segments (and deleted them).
        Path noCommit = copyWithoutCommit(idx, "no-commit");
        add("search, no segments_N", Call.of("search", "--index", noCommit.toString(), "*:*"), r -> noCommit(r, "search", noCommit));
        add("extract, no segments_N", Call.of("extract", "--index", noCommit.toString(), "*:*", "-w", tmp.resolve("nc.pcapng").toString()),
                r -> noCommit(r, "extract", noCommit));
        noCommitForIndex = copyWithoutCommit(idx, "no-commit-index");
        try (Stream<Path> s = Files.list(noCommitForIndex)) {
            filesBefore = s.count();
        }
        add("index into an index without segments_N", Call.of("index", CLEAN, "--index", noCommitForIndex.toString()), r -> {
            noCommit(r, "index", noCommitForIndex);
            try (Stream<Path> s = Files.list(noCommitForIndex)) {
                assertEquals(filesBefore, s.count(), "the segments are left as they were");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        // The commit file gone and another file in its place.
        Path garbage = copyWithoutCommit(idx, "garbage");
        Files.writeString(garbage.resolve("notes.txt"), "x\n");
        add("search, no segments_N and a stray file", Call.of("search", "--index", garbage.toString(), "*:*"), r -> noCommit(r, "search", garbage));
        // Not an index at all (these already said so; kept with the damage cases).
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        add("search, an empty directory", Call.of("search", "--index", empty.toString(), "*:*"),
                r -> oneLine(r, "metaroce search: " + empty + ": not a metaroce flow index (no metaroce-index.properties)"));
        add("extract, a directory of captures", Call.of("extract", "--index", Launcher.CAPTURES.toString(), "*:*", "-w", tmp.resolve("c.pcapng").toString()),
                r -> oneLine(r, "metaroce extract: " + Launcher.CAPTURES + ": not a metaroce flow index (no metaroce-index.properties)"));
    }

    // ------------------------------------------------------------------ metaroce viewer

    /** The query of the live viewer's sessions and of the search it is held to. */
    private static final String VIEWER_QUERY = "naks:>0 OR packets:>1";
    /** A time range of the viewer (Arkime's startTime/stopTime) and the query search finds its flows with: active in it. */
    private static final String VIEWER_RANGE = "startTime=2026-01-01T00:00:00.000022&stopTime=2026-01-01T00:00:00.000030",
            VIEWER_RANGE_QUERY = "last:>=2026-01-01T00:00:00.000022 AND first:<2026-01-01T00:00:00.000030";

    private static void viewerCases(Path idx) throws Exception {
        viewerIndex = idx;
        Path empty = Files.createDirectories(tmp.resolve("viewer-empty"));
        add("viewer, an empty directory", Call.of("viewer", "--index", empty.toString(), "--port", "0"),
                r -> oneLine(r, "metaroce viewer: " + empty + ": not a metaroce flow index (no metaroce-index.properties)"));
        busy = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        int port = busy.getLocalPort();
        add("viewer, a port in use", Call.of("viewer", "--index", idx.toString(), "--port", Integer.toString(port)),
                r -> oneLine(r, "metaroce viewer: cannot listen on 127.0.0.1:" + port + ": the port is in use (--port N for another, 0 for any free one)"));
        add("viewer --port 70000", Call.of("viewer", "--index", idx.toString(), "--port", "70000"),
                r -> oneLine(r, "metaroce viewer: --port must be 0 to 65535, not 70000"));
        add("search -T json, as the viewer's sessions", Call.of("search", "--index", idx.toString(), VIEWER_QUERY, "-T", "json"),
                r -> assertEquals(0, r.exit(), r.show()));
        add("search -T json, as the viewer's time range", Call.of("search", "--index", idx.toString(), VIEWER_RANGE_QUERY, "-T", "json"),
                r -> assertEquals(0, r.exit(), r.show()));
    }

    /**
     * The shipped launcher's viewer: it says its URL (the real port of --port 0), serves the page and the same flows as
     * {@code search -T json}, and ends at once on SIGTERM (as on Ctrl+C), exit 0, nothing on stderr.
     */
    @org.junit.jupiter.api.Test
    void viewerServesSearchsFlowsAndStops() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Launcher.SCRIPT.toString(), "viewer", "--index", viewerIndex.toString(), "--port", "0")
                .redirectError(tmp.resolve("viewer.err").toFile());
        pb.environment().put("METAROCE_NO_BUILD", "1");
        Process p = pb.start();
        try {
            java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
            String line = out.readLine();
            assertTrue(line != null && line.matches("viewer: http://127\\.0\\.0\\.1:[0-9]+/ \\(Ctrl\\+C to stop\\)"), String.valueOf(line));
            String base = line.substring("viewer: ".length(), line.indexOf(' ', "viewer: ".length()));
            var http = java.net.http.HttpClient.newHttpClient();
            var page = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("<script src=\"viewer.js\""), page.body());
            var sessions = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "api/sessions?length=1000&q="
                    + java.net.URLEncoder.encode(VIEWER_QUERY, java.nio.charset.StandardCharsets.UTF_8))).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, sessions.statusCode(), sessions.body());
            var json = new com.fasterxml.jackson.databind.ObjectMapper();
            var got = json.readTree(sessions.body());
            var want = json.readTree(CASES.run("search -T json, as the viewer's sessions").out());
            assertTrue(want.get("total").asLong() > 1, "more than one flow, so the order counts");
            for (String k : List.of("query", "total", "flows")) assertEquals(want.get(k), got.get(k), k);
            var ranged = json.readTree(http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "api/sessions?length=1000&"
                    + VIEWER_RANGE)).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body());
            var range = json.readTree(CASES.run("search -T json, as the viewer's time range").out());
            assertTrue(range.get("total").asLong() > 0, "the range holds flows (else the check is vacuous)");
            for (String k : List.of("total", "flows")) assertEquals(range.get(k), ranged.get(k), "the time range: " + k);
        } finally {
            long t0 = System.nanoTime();
            p.destroy();
            assertTrue(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "the viewer ends on SIGTERM");
            assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("viewer.err")));
            assertEquals("", Files.readString(tmp.resolve("viewer.err")));
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "it ended promptly");
        }
    }

    private static Path copyWithoutCommit(Path idx, String name) throws Exception {
        Path copy = Files.createDirectories(tmp.resolve(name));
        try (Stream<Path> s = Files.list(idx)) {
            for (Path f : s.toList()) if (!f.getFileName().toString().startsWith("segments_")) Files.copy(f, copy.resolve(f.getFileName()));
        }
        return copy;
    }

    private static void noCommit(Run r, String command, Path dir) {
        oneLineExit2(r);
        String line = r.err().strip();
        assertTrue(line.startsWith("metaroce " + command + ": " + dir + ": the flow index is damaged (its commit file segments_N is missing, and "), r.show());
        assertTrue(line.endsWith("); index the captures again into a new directory"), r.show());
    }

    // ------------------------------------------------------------------ helpers

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(name, call, check); }
}
