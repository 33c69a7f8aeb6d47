package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.PcapWriter;
import io.metaroce.dissector.Icrc;
import io.metaroce.testsupport.Launcher;
import java.io.BufferedReader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile capture (issue 14, part 3): a million distinct QPs, one packet each (about 90 MB). The shipped
 * launcher must analyze it in a 1 GB heap: the flow table keeps at most its bound of flows and evicts the least
 * recently active, whose totals stay in the capture summary. Before the bound, every QP kept several KB of
 * state and the run died in garbage collection.
 */
class ManyQpsIT {
    private static final int QPS = 1_000_000;
    private static final int ROWS_MAX = 1 << 16; // AnalysisSettings.DEFAULT_MAX_FLOWS

    @TempDir
    static Path tmp;

    @Test
    void aMillionSinglePacketQpsFitInOneGigabyte() throws Exception {
        Path cap = tmp.resolve("million-qps.pcap");
        writeCapture(cap, QPS);
        Path out = tmp.resolve("out.json"), err = tmp.resolve("err.txt");
        ProcessBuilder pb = new ProcessBuilder(Launcher.SCRIPT.toString(), "analyze", "-T", "json", "-r", cap.toString())
                .directory(Launcher.ROOT.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.environment().put("METAROCE_NO_BUILD", "1");
        pb.environment().put("METAROCE_JAVA_OPTS", "-Xmx1g");
        Process p = pb.start();
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("analyze still running after 10 minutes");
        }
        String stderr = Files.readString(err);
        assertEquals(0, p.exitValue(), "exit code; stderr: " + stderr);
        assertTrue(stderr.isBlank(), "stderr: " + stderr);

        // The pretty JSON has the capture summary on its second line and one flow per line after it.
        JsonNode capture;
        long rows = 0;
        try (BufferedReader r = Files.newBufferedReader(out, StandardCharsets.UTF_8)) {
            r.readLine();
            String line = r.readLine().trim();
            capture = new ObjectMapper().readTree("{" + line.substring(0, line.length() - 1) + "}").get("capture");
            while ((line = r.readLine()) != null) if (line.startsWith("    {\"id\":")) rows++;
        }
        assertEquals(QPS, capture.get("frames").asLong());
        assertEquals(QPS, capture.get("flows").asLong(), "every QP counted, evicted or not");
        long evicted = capture.get("evicted_flows").asLong();
        assertTrue(rows > 0 && rows <= ROWS_MAX, "rows kept: " + rows);
        assertEquals(QPS, rows + evicted, "rows + evicted");
        assertEquals(0, capture.get("network_losses").asLong());
        assertEquals(0, capture.get("capture_gaps").asLong());
    }

    /**
     * validate keeps more per QP than analyze (its rule state and PSN columns: about 10 KB a flow with the engine's),
     * so the flow bound is taken from the heap (FlowBudget): 100,000 single-packet QPs under {@code -Xmx128m} run to
     * the report, the flows beyond the bound evicted with a note. Before, this run ended out of memory (exit 2, the
     * heap watch's line, 3.5 s): the rule state of every QP stayed to the end of the pass, and 65,536 flows of it did
     * not fit in the heap (neither in -Xmx1g).
     */
    @Test
    void validateInASmallHeapEvictsWithANote() throws Exception {
        int qps = 100_000;
        Path cap = tmp.resolve("100k-qps.pcap");
        writeCapture(cap, qps);
        Launcher.Run r = Launcher.run(Launcher.Call.of("validate", "-T", "json", cap.toString())
                .env(java.util.Map.of("METAROCE_JAVA_OPTS", "-Xmx128m")));
        assertEquals(0, r.exit(), r.show());
        assertEquals("", r.err(), r.show());
        JsonNode summary = new ObjectMapper().readTree(r.out()).get("files").get(0).get("summary");
        long bound = summary.get("flow_bound").asLong(), evicted = summary.get("evicted_flows").asLong();
        assertTrue(bound >= 1024 && bound < ROWS_MAX, "bound from the heap: " + bound);
        assertTrue(evicted >= qps - bound && evicted < qps, "evicted: " + evicted + " of " + qps + ", bound " + bound);
        assertEquals(0, summary.get("errors").asLong(), r.show());
    }

    /**
     * index keeps no evicted flow on the heap: each goes to a scratch file as it is evicted, and a capture's documents
     * go to Lucene in blocks that its buffer can flush. 100,000 single-packet QPs under {@code -Xmx128m}: every flow
     * gets its document, the first QP's (evicted early) with its packet. Before, this run ended out of memory (exit 2,
     * the heap watch's line, 21 full collections, 97 % full): the evicted flows' results (2.3 KB each) stayed to the
     * commit, and the capture's documents were one Lucene block.
     */
    @Test
    void indexInASmallHeapDocumentsEveryFlow() throws Exception {
        int qps = 100_000;
        Path cap = tmp.resolve("100k-qps-index.pcap");
        writeCapture(cap, qps);
        Path idx = tmp.resolve("100k.idx");
        Launcher.Run r = Launcher.run(Launcher.Call.of("index", cap.toString(), "--index", idx.toString())
                .env(java.util.Map.of("METAROCE_JAVA_OPTS", "-Xmx128m")));
        assertEquals(0, r.exit(), r.show());
        assertEquals("", r.err(), r.show());
        assertTrue(r.out().contains(": " + qps + " flows, " + (qps + 1) + " documents"), r.show());
        Launcher.Run all = Launcher.run("search", "--index", idx.toString(), "*:*", "-n", "0", "-T", "json");
        assertEquals(qps, new ObjectMapper().readTree(all.out()).get("total").asLong(), all.show());
        Path out = tmp.resolve("qp1.pcapng");
        Launcher.Run ex = Launcher.run("extract", "--index", idx.toString(), "dest_qp:0x000001", "-w", out.toString());
        assertEquals(0, ex.exit(), ex.show());
        Launcher.Run back = Launcher.run("dissect", "-r", out.toString(), "-T", "fields", "-e", "bth.dest_qp", "-e", "bth.psn");
        assertEquals(java.util.List.of("0x000001\t0"), back.out().lines().toList(), back.show());
    }

    /**
     * A QP evicted and then sending again is a second flow of its id, with documents of its own ({@code <id>~2}):
     * 3,000 QPs send twice under a bound of 1,024 flows, so every QP's first flow is evicted (spilled) before its
     * second comes. The occurrences are counted by hash with the ids of repeated hashes by name (FlowOccurrences).
     */
    @Test
    void aQpEvictedAndBackGetsASecondFlow() throws Exception {
        int qps = 3_000;
        Path cap = tmp.resolve("twice.pcap");
        writeCapture(cap, qps, 2);
        Path idx = tmp.resolve("twice.idx");
        Launcher.Run r = Launcher.run(Launcher.Call.of("index", cap.toString(), "--index", idx.toString())
                .env(java.util.Map.of("METAROCE_JAVA_OPTS", "-Dmetaroce.maxFlows=1024")));
        assertEquals(0, r.exit(), r.show());
        assertTrue(r.out().contains(": " + 2 * qps + " flows, " + (2 * qps + 1) + " documents"), r.show());
        for (String qp : java.util.List.of("0x000001", "0x000bb8")) {
            Launcher.Run one = Launcher.run("search", "--index", idx.toString(), "dest_qp:" + qp, "-T", "json");
            JsonNode flows = new ObjectMapper().readTree(one.out()).get("flows");
            assertEquals(2, flows.size(), one.show());
            java.util.Set<String> roots = new java.util.TreeSet<>();
            for (JsonNode f : flows) roots.add(f.get("root_id").asText().replaceAll("^[^/]*/", ""));
            assertEquals(java.util.Set.of("10.0.0.1>10.0.0.2/" + qp, "10.0.0.1>10.0.0.2/" + qp + "~2"), roots, one.show());
        }
    }

    static void writeCapture(Path file, int qps) throws Exception { writeCapture(file, qps, 1); }

    /**
     * QP i + 1 sends one SEND Only with PSN i, 1 us after QP i (IPv4 10.0.0.1 to 10.0.0.2, a correct ICRC); then, for
     * each further round, all of them again with the next PSN.
     */
    static void writeCapture(Path file, int qps, int rounds) throws Exception {
        byte[] b = new byte[14 + 20 + 8 + 12 + 16 + 4];
        MemorySegment s = MemorySegment.ofArray(b);
        // Ethernet.
        b[5] = 2; b[11] = 1; b[0] = 2; b[6] = 2;
        b[12] = 0x08;
        // IPv4: ECT(0), DF, TTL 64, UDP.
        int ip = 14, ipLen = 20;
        b[ip] = 0x45;
        b[ip + 1] = 0x02;
        put16(b, ip + 2, b.length - ip);
        b[ip + 6] = 0x40;
        b[ip + 8] = 64;
        b[ip + 9] = 17;
        b[ip + 12] = 10; b[ip + 15] = 1;
        b[ip + 16] = 10; b[ip + 19] = 2;
        put16(b, ip + 10, ipChecksum(b, ip));
        // UDP to 4791.
        int udp = ip + ipLen;
        put16(b, udp, 49152);
        put16(b, udp + 2, 4791);
        put16(b, udp + 4, b.length - udp);
        // BTH: SEND Only, P_Key 0xFFFF.
        int bth = udp + 8;
        b[bth] = 0x04;
        b[bth + 2] = (byte) 0xFF;
        b[bth + 3] = (byte) 0xFF;
        int icrcOff = b.length - 4;
        Icrc icrc = new Icrc();
        ValueLayout.OfInt le = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        try (PcapWriter w = PcapWriter.create(file, CaptureFormat.PCAP_NS, 1, 0)) {
            for (long k = 0; k < (long) qps * rounds; k++) {
                int i = (int) (k % qps);
                put24(b, bth + 5, i + 1);
                put24(b, bth + 9, (int) (i + k / qps) & 0xFFFFFF);
                s.set(le, icrcOff, (int) icrc.overIp(s, ip, ipLen, false, bth, icrcOff));
                w.write(1_000_000_000_000L + k * 1_000L, b);
            }
        }
    }

    private static void put16(byte[] b, int o, int v) {
        b[o] = (byte) (v >>> 8);
        b[o + 1] = (byte) v;
    }

    private static void put24(byte[] b, int o, int v) {
        b[o] = (byte) (v >>> 16);
        b[o + 1] = (byte) (v >>> 8);
        b[o + 2] = (byte) v;
    }

    private static int ipChecksum(byte[] b, int o) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) sum += ((b[o + i] & 0xFF) << 8) | (b[o + i + 1] & 0xFF);
        while ((sum >>> 16) != 0) sum = (sum & 0xFFFF) + (sum >>> 16);
        return ~sum & 0xFFFF;
    }
}
