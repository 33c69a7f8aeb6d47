package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.LauncherCases;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.NodeList;

/**
 * The shipped command, tested as shipped (issue 8 A): the built {@code ./metaroce} launcher runs every
 * subcommand in every output format on every bundled sample, and the bad inputs a user feeds it. Each check
 * is what a user or a CI system relies on: the exit code, that the output parses (JSON and JSONL with Jackson,
 * JUnit XML against its XSD, SARIF against the SARIF 2.1.0 schema, the HTML report with a lenient HTML parser),
 * and that bad input is one line on stderr and exit 2, never a stack trace. The launcher processes run in
 * parallel, once, before the checks.
 */
class LauncherIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SCHEMAS = Launcher.ROOT.resolve("validate/src/test/resources/schemas");

    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();

    @BeforeAll
    static void runEveryCase() throws Exception {
        for (Path s : Launcher.samples()) dissectCases(s);
        for (Path s : Launcher.samples()) analyzeCases(s);
        validateCases();
        diagnosisCases();
        simulateCases();
        badInputCases();
        // The runs of the samples that other tests check too (FlowIndexIT, ManyCapturesIT) are made once for all.
        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return Stream.concat(CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run)),
                Stream.of(DynamicTest.dynamicTest("validate --report html (every sample)",
                        () -> htmlReport.accept(CASES.run("validate -T junit -o --report html (every sample)")))));
    }

    /** The check of the HTML report that validate -T junit -o --report wrote (a test of its own on that run). */
    private static Consumer<Run> htmlReport;

    // ------------------------------------------------------------------ dissect

    private static void dissectCases(Path sample) {
        String f = sample.toString(), n = sample.getFileName().toString();
        // The frame count every format must agree on comes from -T jsonl (checked on its own to parse).
        add("dissect -T jsonl " + n, Call.of("dissect", "-r", f, "-T", "jsonl"), r -> {
            ok(r);
            List<String> lines = r.out().lines().toList();
            assertFalse(lines.isEmpty(), r.show());
            long expect = 1;
            for (String l : lines) {
                JsonNode o = parse(l, r);
                assertEquals(expect++, o.get("frame").asLong(), "frames in order: " + l);
                assertTrue(o.get("fields").isObject() && o.get("expert").isArray(), l);
            }
        });
        add("dissect -T json " + n, Call.of("dissect", "-r", f, "-T", "json"), r -> {
            ok(r);
            JsonNode a = parse(r.out(), r);
            assertTrue(a.isArray(), r.show());
            assertEquals(frames(n), a.size(), "one object per frame");
        });
        add("dissect -T text " + n, Call.of("dissect", "-r", f), r -> {
            ok(r);
            List<String> lines = r.out().lines().toList();
            assertEquals(frames(n), lines.size(), "one summary line per frame");
            assertTrue(lines.get(0).trim().startsWith("1 "), lines.get(0));
        });
        add("dissect -T fields " + n, Call.of("dissect", "-r", f, "-T", "fields", "-E", "header=y", "-e", "frame.number",
                "-e", "bth.psn", "-e", "icrc.status"), r -> {
            ok(r);
            List<String> lines = r.out().lines().toList();
            assertEquals("frame.number\tbth.psn\ticrc.status", lines.get(0));
            assertEquals(frames(n) + 1, lines.size());
            for (int i = 1; i < lines.size(); i++) assertEquals(String.valueOf(i), lines.get(i).split("\t", -1)[0]);
        });
        add("dissect -V " + n, Call.of("dissect", "-r", f, "-V"), r -> {
            ok(r);
            long trees = r.out().lines().filter(l -> l.startsWith("Frame ")).count();
            assertEquals(frames(n), trees, "one field tree per frame");
        });
        add("dissect -q " + n, Call.of("dissect", "-r", f, "-q"), r -> {
            ok(r);
            assertTrue(r.out().contains("Frames: " + frames(n) + ","), r.show());
        });
    }

    /** Frames of a sample, as its -T jsonl run counted them. */
    private static long frames(String sampleName) {
        Run r = CASES.run("dissect -T jsonl " + sampleName);
        return r.out().lines().count();
    }

    // ------------------------------------------------------------------ analyze

    private static void analyzeCases(Path sample) {
        String f = sample.toString(), n = sample.getFileName().toString();
        addShared("analyze -T text " + n, Call.of("analyze", "-r", f), r -> {
            ok(r);
            assertTrue(r.out().contains("Frames: " + frames(n)), r.show());
            // The loss timeline's sparkline of every frame, before the diagnosis.
            String out = r.out();
            int at = out.indexOf("\nLoss timeline\n");
            assertTrue(at > 0 && at < out.indexOf("\nDiagnosis\n"), r.show());
            assertTrue(out.lines().anyMatch(l -> l.startsWith("Frames ") && l.contains("| " + frames(n) + " (peak ")), r.show());
            assertTrue(out.contains("\nLoss pattern: "), r.show());
        });
        addShared("analyze -T json " + n, Call.of("analyze", "-r", f, "-T", "json"), r -> {
            ok(r);
            JsonNode o = parse(r.out(), r);
            assertTrue(o.get("flows").isArray() && o.get("flows").size() > 0, "flows");
            assertTrue(o.has("capture") && o.has("events"), r.show());
            lossTimelineAgreesWithTheFlows(o, r);
        });
        addShared("analyze --events jsonl " + n, Call.of("analyze", "-r", f, "--events", "jsonl"), r -> {
            ok(r);
            for (String l : r.out().lines().toList()) assertTrue(parse(l, r).hasNonNull("type"), l);
        });
    }

    /**
     * The loss timeline counts what the flows count, bin by bin: every frame, the retransmissions that were not
     * spurious, the NAKs (MR-NACKs among them), RNR NAKs, CE marks and CNPs; at most 64 bins of a power-of-two width.
     */
    private static void lossTimelineAgreesWithTheFlows(JsonNode o, Run r) {
        JsonNode t = o.get("loss_timeline"), s = t.get("series");
        long retx = 0, naks = 0, rnr = 0, ce = 0, cnps = 0;
        for (JsonNode fl : o.get("flows")) {
            retx += fl.get("retransmitted_packets").asLong() - fl.get("spurious_retransmissions").asLong();
            naks += fl.get("naks").asLong() + fl.get("nacks").asLong();
            rnr += fl.get("rnr_naks").asLong();
            ce += fl.get("ce_marks").asLong();
            cnps += fl.get("cnps").asLong();
        }
        assertEquals(o.get("capture").get("frames").asLong(), sum(s.get("frames")), r.show());
        assertEquals(retx, sum(s.get("retransmissions")), "retransmissions " + r.show());
        assertEquals(naks, sum(s.get("naks")), "naks " + r.show());
        assertEquals(rnr, sum(s.get("rnr_naks")), "rnr " + r.show());
        assertEquals(ce, sum(s.get("ce_marks")), "ce " + r.show());
        assertEquals(cnps, sum(s.get("cnps")), "cnps " + r.show());
        int bins = t.get("bins").asInt();
        assertTrue(bins > 0 && bins <= 64 && Long.bitCount(t.get("bin_ns").asLong()) == 1, t.toString());
        for (JsonNode series : s) assertEquals(bins, series.size(), t.toString());
        String kind = t.get("pattern").get("kind").asText();
        assertTrue(Set.of("none", "few", "burst", "spread", "intermittent").contains(kind), kind);
        assertEquals(retx + naks == 0, kind.equals("none"), t.toString());
    }

    private static long sum(JsonNode array) {
        long n = 0;
        for (JsonNode v : array) n += v.asLong();
        return n;
    }

    // ------------------------------------------------------------------ diagnosis (issue 15)

    private static void diagnosisCases() {
        String retry = Launcher.CAPTURES.resolve("rocev2-retry-exhausted.pcapng").toString();
        String dead = "10.0.0.1>10.0.0.2/0x000020";
        addShared("analyze diagnosis -T json (retry exhausted)", Call.of("analyze", "-r", retry, "-T", "json"), r -> {
            ok(r);
            JsonNode f = null;
            for (JsonNode x : parse(r.out(), r).get("diagnosis").get("findings")) if (x.get("subject").asText().equals(dead)) f = x;
            assertTrue(f != null, r.show());
            assertEquals("qp-retry-exhausted", f.get("rule").asText());
            assertEquals(4, f.get("details").get("local_ack_timeout").asInt());
            assertEquals(3, f.get("details").get("retries").asInt());
            // Capture times beyond 2^53 are JSON strings (the output's number contract): asLong reads both.
            assertTrue(f.get("evidence_frames").size() > 0 && f.get("started_ns").asLong() > 0, r.show());
        });
        // NCCL prints the local QPN (here the requester's 0x19) and the peer's address.
        add("analyze --qp --peer (lookup)", Call.of("analyze", "-r", retry, "--qp", "0x19", "--peer", "10.0.0.2"), r -> {
            ok(r);
            assertTrue(r.out().contains("Lookup --qp 0x19 --peer 10.0.0.2: "), r.show());
            assertTrue(r.out().contains("qp-retry-exhausted") && r.out().contains(dead), r.show());
            assertTrue(r.out().contains("local_ack_timeout 4"), r.show());
        });
        add("analyze --at (hang snapshot)", Call.of("analyze", "-r", Launcher.CAPTURES.resolve("rocev2-hang.pcapng").toString(),
                "-T", "json", "--at", "0.0002"), r -> {
            ok(r);
            JsonNode o = parse(r.out(), r);
            JsonNode h = o.get("diagnosis").get("hang_snapshot");
            assertEquals(200_000, h.get("at_ns").asLong() - o.get("capture").get("first_ns").asLong(), r.show());
            int stuck = 0;
            for (JsonNode q : h.get("qps")) if (q.get("last_event").asText().equals("retry")) stuck++;
            assertEquals(1, stuck, "the black-holed QP resends: " + r.show());
        });
        // The warning as NCCL prints it: the peer is the socket's address (another interface), the RoCE one is in the GIDs.
        String warn = "node1:3197:3197 [1] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer 192.168.7.2<33092> "
                + "with status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2 hca mlx5_0";
        add("analyze --nccl (a pasted warning)", Call.of("analyze", "-r", retry, "--nccl", warn), r -> {
            ok(r);
            assertTrue(r.out().contains("NCCL warning: status 12 IBV_WC_RETRY_EXC_ERR, vendor err 129 (0x81), Send"), r.show());
            assertTrue(r.out().contains("transport retry counter exceeded"), r.show());
            assertTrue(r.out().contains("Lookup --peer 10.0.0.2: "), "the remote GID's address, not the socket's: " + r.show());
            assertTrue(r.out().contains("qp-retry-exhausted") && r.out().contains(dead), r.show());
        });
        // A log: the CQE warning names the local QPN (0x19 = 25), repeated lines are one warning, other lines are skipped.
        Path log = tmp.resolve("rank0.log");
        try {
            java.nio.file.Files.writeString(log, "node1:3197:3197 [1] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0\n"
                    + "node1:3197:3201 [1] NCCL WARN NET/IB: ncclIbTest: Got CQE with error (devIndex=0, req=0x7f, comm=0x7f (send), wr_id=0, qp_num=25)\n"
                    + "node1:3197:3201 [1] NCCL WARN NET/IB: ncclIbTest: Got CQE with error (devIndex=0, req=0x7f, comm=0x7f (send), wr_id=0, qp_num=25)\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        add("analyze --nccl LOGFILE -T json", Call.of("analyze", "-r", retry, "--nccl", log.toString(), "-T", "json"), r -> {
            ok(r);
            JsonNode l = parse(r.out(), r).get("diagnosis").get("lookup");
            assertEquals("--qp 0x19", l.get("keys").asText(), r.show());
            assertEquals(1, l.get("nccl").size(), "one warning, said twice: " + r.show());
            assertEquals(25, l.get("nccl").get(0).get("qp_num").asInt(), r.show());
            boolean found = false;
            for (JsonNode f : parse(r.out(), r).get("diagnosis").get("findings")) found |= f.get("subject").asText().equals(dead);
            assertTrue(found, r.show());
        });
        // UCX's error CQE in a log (MPI or NCCL's UCX plugin): the status from the mlx5 syndrome, its QP on the next line
        // with the destination QP (rqpn) and the peer's GID.
        Path ucxLog = tmp.resolve("ucx.log");
        try {
            java.nio.file.Files.writeString(ucxLog, "[node1:3197:0:3197] ib_mlx5_log.c:143  Transport retry count exceeded on "
                    + "mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)\n[node1:3197:0:3197] ib_mlx5_log.c:143  RC QP 0x19 "
                    + "wqe[12]: SEND s-e [rqpn 0x" + dead.substring(dead.indexOf("/0x") + 3) + " dgid ::ffff:10.0.0.2 tc 0]\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        add("analyze --nccl UCX log", Call.of("analyze", "-r", retry, "--nccl", ucxLog.toString()), r -> {
            ok(r);
            assertTrue(r.out().contains("UCX error CQE: status 12 IBV_WC_RETRY_EXC_ERR, mlx5 syndrome 0x15, vendor err 129 (0x81)"), r.show());
            assertTrue(r.out().contains("Lookup --qp 0x19 --peer 10.0.0.2"), r.show());
            assertTrue(r.out().contains("qp-retry-exhausted") && r.out().contains(dead), r.show());
        });
        add("analyze --nccl not a warning", Call.of("analyze", "-r", retry, "--nccl", "NCCL INFO all fine"), LauncherCases::oneLineExit2);
        add("analyze --nccl a log without one", Call.of("analyze", "-r", retry, "--nccl", retry), LauncherCases::oneLineExit2);
        add("analyze --qp not a number", Call.of("analyze", "-r", retry, "--qp", "0xzz"), LauncherCases::oneLineExit2);
        add("analyze --peer not an address", Call.of("analyze", "-r", retry, "--peer", "host.example"), LauncherCases::oneLineExit2);
    }

    // ------------------------------------------------------------------ validate

    private static void validateCases() {
        String dir = Launcher.CAPTURES.toString();
        int files = Launcher.samples().size();
        add("validate -T text (every sample)", Call.of("validate", dir), r -> {
            validateExit(r);
            for (Path s : Launcher.samples()) assertTrue(r.out().contains(s.getFileName() + ": "), "verdict for " + s);
            assertEquals(r.exit() == 1, r.out().contains(": FAIL "), "exit 1 exactly when a capture fails");
        });
        addShared("validate -T json (every sample)", Call.of("validate", "-T", "json", dir), r -> {
            validateExit(r);
            JsonNode o = parse(r.out(), r);
            assertEquals(files, o.get("files").size());
            boolean errors = false;
            for (JsonNode fl : o.get("files")) errors |= fl.get("summary").get("errors").asLong() > 0;
            assertEquals(errors, r.exit() == 1, "exit 1 exactly when a file has errors");
        });
        Path junit = tmp.resolve("results.xml"), sarif = tmp.resolve("results.sarif"), html = tmp.resolve("report.html");
        // --report is "also an HTML report" beside any -T: one validation of every sample writes the JUnit XML and
        // the report (each a run of its own validated the 30 samples again, about 13 s of CPU), each checked below.
        add("validate -T junit -o --report html (every sample)", Call.of("validate", "-T", "junit", "-o", junit.toString(), "--report", html.toString(), dir), r -> {
            validateExit(r);
            assertEquals("", r.out(), "-o and --report: nothing on stdout");
            try {
                SchemaFactory sf = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
                sf.newSchema(SCHEMAS.resolve("junit.xsd").toFile()).newValidator().validate(new StreamSource(junit.toFile()));
                NodeList suites = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile())
                        .getElementsByTagName("testsuite");
                assertEquals(files, suites.getLength(), "one testsuite per capture");
            } catch (Exception e) {
                throw new AssertionError("JUnit XML does not validate: " + e, e);
            }
        });
        add("validate -T sarif -o (every sample)", Call.of("validate", "-T", "sarif", "-o", sarif.toString(), dir), r -> {
            validateExit(r);
            try (InputStream s = Files.newInputStream(SCHEMAS.resolve("sarif-2.1.0-rtm.5.json"))) {
                JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(s);
                JsonNode doc = JSON.readTree(sarif.toFile());
                Set<ValidationMessage> errors = schema.validate(doc);
                assertTrue(errors.isEmpty(), errors.toString());
                assertEquals(files, doc.get("runs").get(0).get("artifacts").size());
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        });
        htmlReport = r -> {
            validateExit(r);
            try {
                String text = Files.readString(html);
                assertTrue(text.startsWith("<!DOCTYPE html>"), "doctype");
                // A lenient HTML5 parser with error tracking: the report must parse with (almost) no errors.
                Parser p = Parser.htmlParser().setTrackErrors(50);
                Document d = Jsoup.parse(text, "", p);
                assertTrue(p.getErrors().size() <= 0, "HTML parse errors: " + p.getErrors());
                assertFalse(d.title().isBlank(), "title");
                for (Path s : Launcher.samples()) assertTrue(d.text().contains(s.getFileName().toString()), "report names " + s);
                assertTrue(d.select("script[src], link[href^=http], img[src^=http]").isEmpty(), "self-contained");
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        };
    }

    private static void validateExit(Run r) {
        assertTrue(r.exit() == 0 || r.exit() == 1, r.show());
        assertEquals("", r.err(), r.show());
    }

    // ------------------------------------------------------------------ simulate

    private static void simulateCases() {
        Path out = tmp.resolve("sim.pcapng"), truth = tmp.resolve("sim.truth.json");
        add("simulate --out --truth", Call.of("simulate", "--scenario", "rocev2-gbn-loss", "--seed", "3", "--out", out.toString(),
                "--truth", truth.toString()), r -> {
            ok(r);
            try {
                assertTrue(Files.size(out) > 1000, "capture written");
                JSON.readTree(truth.toFile());
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
            Run q = Launcher.run("dissect", "-r", out.toString(), "-q");
            ok(q);
        });
        add("simulate --list", Call.of("simulate", "--list"), r -> {
            ok(r);
            assertTrue(r.out().contains("rocev2-clean"), r.show());
        });
    }

    // ------------------------------------------------------------------ bad input

    /** Bad input names: missing file, a text file, an empty file, a capture cut mid-record, one cut in its header. */
    static Map<String, Path> badInputs(Path dir) throws Exception {
        Map<String, Path> m = new LinkedHashMap<>();
        m.put("missing file", dir.resolve("no-such.pcap"));
        m.put("text file", Files.writeString(dir.resolve("notes.pcap"), "hello, this is not a capture\n"));
        m.put("empty file", Files.write(dir.resolve("empty.pcapng"), new byte[0]));
        byte[] all = Files.readAllBytes(Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng"));
        m.put("capture cut mid-record", Files.write(dir.resolve("cut.pcapng"), Arrays.copyOf(all, 40000)));
        byte[] pcap = Files.readAllBytes(Launcher.ROOT.resolve("samples/reference/roce_v4_oracle.pcap"));
        m.put("capture cut in its file header", Files.write(dir.resolve("cut10.pcap"), Arrays.copyOf(pcap, 10)));
        // A named pipe nobody writes to: a reader that opened it to look at its first bytes would wait forever (index
        // did, before it asked whether the path is a regular file).
        Path pipe = dir.resolve("pipe.pcap");
        if (!Files.exists(pipe)) assertEquals(0, new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor(), "mkfifo");
        m.put("named pipe", pipe);
        return m;
    }

    private static void badInputCases() throws Exception {
        for (var e : badInputs(tmp).entrySet()) {
            String f = e.getValue().toString();
            add("dissect, " + e.getKey(), Call.of("dissect", "-r", f), LauncherCases::oneLineExit2);
            add("dissect -q, " + e.getKey(), Call.of("dissect", "-r", f, "-q"), LauncherCases::oneLineExit2);
            add("analyze, " + e.getKey(), Call.of("analyze", "-r", f), LauncherCases::oneLineExit2);
            add("validate, " + e.getKey(), Call.of("validate", f), LauncherCases::oneLineExit2);
            // index names the file's problem in analyze's words (a file named on its command line is no directory's
            // stray file to skip), indexes what was readable of a damaged capture, and exits 2 as the others do.
            String idx = tmp.resolve("bad-" + e.getValue().getFileName() + ".idx").toString();
            add("index, " + e.getKey(), Call.of("index", f, "--index", idx), r -> {
                oneLineExit2(r);
                assertFalse(r.err().contains("skipped") || r.err().contains("internal error"), r.show());
                if (e.getKey().equals("text file")) assertTrue(r.err().contains(f + ": not a pcap or pcapng file (first bytes 68 65 6c 6c)"), r.show());
                if (e.getKey().equals("empty file")) assertTrue(r.err().contains(f + ": empty file"), r.show());
                if (e.getKey().equals("named pipe")) assertTrue(r.err().contains(f + ": not a regular file"), r.show());
                if (e.getKey().startsWith("capture cut")) assertTrue(r.err().contains("truncated ") && r.err().strip().endsWith("(indexed what was readable)"), r.show());
            });
        }
        String sample = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
        add("dissect, bad filter", Call.of("dissect", "-r", sample, "-Y", "bth.psm == 1"), r -> {
            oneLineExit2(r);
            assertTrue(r.err().contains("\"bth.psm\" is not a valid protocol or protocol field"), r.show());
        });
        add("dissect, filter syntax error", Call.of("dissect", "-r", sample, "-Y", "bth.psn = 1"), LauncherCases::oneLineExit2);
        // An output that cannot be written is found before the run (the interface is not even opened), in plain words.
        String noDir = tmp.resolve("no-such-dir").resolve("out").toString();
        add("validate -o, a missing directory", Call.of("validate", sample, "-T", "json", "-o", noDir + ".json"), r -> {
            oneLineExit2(r);
            assertEquals("metaroce validate: cannot write " + noDir + ".json: no such directory: " + tmp.resolve("no-such-dir"), r.err().strip(), r.show());
            assertEquals("", r.out(), "nothing validated: " + r.show());
        });
        add("validate --report, a directory", Call.of("validate", sample, "--report", tmp.toString()), r -> {
            oneLineExit2(r);
            assertEquals("metaroce validate: cannot write " + tmp + ": it is a directory", r.err().strip(), r.show());
            assertEquals("", r.out(), "nothing validated: " + r.show());
        });
        add("capture -w, a missing directory", Call.of("capture", "-i", "lo", "-a", "duration:1", "-w", noDir + ".pcapng"), r -> {
            oneLineExit2(r);
            assertEquals("metaroce capture: cannot write " + noDir + ".pcapng: no such directory: " + tmp.resolve("no-such-dir"), r.err().strip(), r.show());
        });
        // A directory with a capture, a text file named like a capture, and a note: the three commands that take
        // directories agree that the second is an error (exit 2, the capture still done); index skips the note.
        Path mixed = Files.createDirectories(tmp.resolve("mixed"));
        Files.copy(Path.of(sample), mixed.resolve("a.pcapng"));
        Files.writeString(mixed.resolve("b.pcap"), "not a capture\n");
        Files.writeString(mixed.resolve("c.txt"), "notes\n");
        String notCapture = "metaroce %s: " + mixed.resolve("b.pcap") + ": not a pcap or pcapng file (first bytes 6e 6f 74 20)";
        add("analyze, a directory with a text file named .pcap", Call.of("analyze", "-r", mixed.toString()), r -> {
            oneLineExit2(r);
            assertEquals(notCapture.formatted("analyze"), r.err().strip(), r.show());
            assertTrue(r.out().contains("a.pcapng"), r.show());
        });
        add("validate, a directory with a text file named .pcap", Call.of("validate", mixed.toString()), r -> {
            oneLineExit2(r);
            assertEquals(notCapture.formatted("validate"), r.err().strip(), r.show());
            assertTrue(r.out().contains("a.pcapng: PASS"), r.show());
        });
        add("index, a directory with a text file named .pcap", Call.of("index", mixed.toString(), "--index", tmp.resolve("mixed.idx").toString()), r -> {
            assertEquals(2, r.exit(), r.show());
            assertEquals(List.of(notCapture.formatted("index"), "metaroce index: skipped " + mixed.resolve("c.txt") + ": not a pcap or pcapng capture"),
                    r.errLines(), r.show());
            assertTrue(r.out().startsWith("indexed " + mixed.resolve("a.pcapng").toAbsolutePath()), r.show());
        });
        String brokenConfig = Files.writeString(tmp.resolve("broken.yaml"), "rules: [\n").toString();
        add("validate, --config with a YAML syntax error", Call.of("validate", "--config", brokenConfig, sample), r -> {
            oneLineExit2(r);
            assertTrue(r.err().startsWith("metaroce validate: " + brokenConfig + ": line 2, column 1: expected the node content"), r.show());
        });
        add("dissect, unknown field", Call.of("dissect", "-r", sample, "-T", "fields", "-e", "bth.nosuch"), LauncherCases::oneLineExit2);
    }

    /** Bad input: exit 2, exactly one line on stderr naming the tool, no stack trace (DissectStatsIT's check). */
    static void oneLineExit2(Run r) { LauncherCases.oneLineExit2(r); }

    // ------------------------------------------------------------------ helpers

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(name, call, check); }

    /** A case whose run, of the bundled samples only, other tests may check too ({@link Launcher#runAllReusing}). */
    private static void addShared(String name, Call call, Consumer<Run> check) { CASES.addShared(name, call, check); }

    /** Success: exit 0 and nothing on stderr. */
    static void ok(Run r) {
        assertEquals(0, r.exit(), r.show());
        assertEquals("", r.err(), r.show());
    }

    static JsonNode parse(String text, Run r) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError("does not parse as JSON (" + e.getMessage() + "): " + r.show(), e);
        }
    }
}
