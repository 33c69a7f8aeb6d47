package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Closing test of issue 9: dissect, analyze and validate on every capture of the external folder
 * (../shared/reference/external-pcaps, read in place; skipped with a message when absent): no crash, ICRC
 * verdicts as SOURCES.md states, no retransmission of a PSN whose request appears once. Field-by-field
 * agreement with tshark is TsharkDifferentialTest's (dissector module), which covers this folder too.
 */
class ExternalCapturesTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static Path dir() {
        String p = System.getProperty("metaroce.external");
        for (String c : p != null && !p.isBlank() ? new String[] {p}
                : new String[] {"../../shared/reference/external-pcaps", "../shared/reference/external-pcaps"}) {
            if (Files.isRegularFile(Path.of(c, "SOURCES.md"))) return Path.of(c);
        }
        return null;
    }

    static List<Path> files() throws Exception {
        Path d = dir();
        Assumptions.assumeTrue(d != null, "external captures not found (../shared/reference/external-pcaps or -Dmetaroce.external)");
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> p.toString().matches(".*\\.pcap(ng)?$")).sorted().toList();
        }
    }

    /** ICRC verdicts SOURCES.md states: the 10.22.116.x captures are bad (rewritten port), rdma-nccl2 cut, the rest good. */
    static final Map<String, String> ICRC = Map.ofEntries(
            Map.entry("m3_rc-small.pcap", "good 0, bad 21, unchecked 0"),
            Map.entry("m3_uc-sg.pcap", "good 0, bad 17, unchecked 0"),
            Map.entry("m3_dc-small.pcap", "good 0, bad 19, unchecked 0"),
            Map.entry("m3_dc-small2.pcap", "good 0, bad 29, unchecked 0"),
            Map.entry("m3_rdma-nccl2.pcap", "good 0, bad 20, unchecked 489"),
            Map.entry("scapy_cx4lx_cnp.pcap", "good 1, bad 0, unchecked 0"));
    static final Pattern ICRC_LINE = Pattern.compile("ICRC: good (\\d+), bad (\\d+), unchecked (\\d+)");

    @TestFactory
    Stream<DynamicTest> dissectAnalyzeValidateEveryCapture() throws Exception {
        return files().stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
    }

    private static void check(Path f) throws Exception {
        String name = f.getFileName().toString();
        CliRun q = CliRun.of("dissect", "-r", f.toString(), "-q");
        assertEquals(0, q.exit(), name + " dissect -q: " + q.err());
        assertFalse(q.err().contains("Exception"), q.err());
        Matcher m = ICRC_LINE.matcher(q.out());
        assertTrue(m.find(), q.out());
        String verdicts = m.group(0).substring("ICRC: ".length());
        if (ICRC.containsKey(name)) assertEquals(ICRC.get(name), verdicts, name);
        else if (name.equals("m3_ib2.pcap")) assertEquals("good 0, bad 0, unchecked 127", verdicts, name + ": native IB ICRC not checked");
        else assertTrue(verdicts.matches("good \\d+, bad 0, unchecked 0"), name + ": " + verdicts);
        for (String bad : List.of("m3_rc-small.pcap", "m3_uc-sg.pcap", "m3_dc-small.pcap", "m3_rdma-nccl2.pcap")) {
            if (name.equals(bad)) assertTrue(q.out().contains("the port was rewritten after the sender"), name);
        }

        // Requests per (flow, PSN), from the dissection with the analysis fields.
        CliRun j = CliRun.of("dissect", "-r", f.toString(), "-T", "jsonl", "-A");
        assertEquals(0, j.exit(), name + " dissect -A: " + j.err());
        Map<String, Integer> copies = new HashMap<>();
        Map<Long, String> keyOf = new HashMap<>();
        for (String line : j.out().lines().toList()) {
            JsonNode fr = JSON.readTree(line);
            JsonNode fields = fr.get("fields");
            if (!fields.has("bth.psn") || !fields.has("analysis.flow")) continue;
            int op = fields.get("bth.opcode").asInt();
            boolean request = (op & 0x1F) <= 0x0C || (op & 0x1F) == 0x13 || (op & 0x1F) == 0x14 || (op & 0x1F) == 0x16 || (op & 0x1F) == 0x17;
            if (!request || op >= 0x80) continue;
            String key = fields.get("analysis.flow").asText() + "#" + fields.get("bth.psn").asLong();
            copies.merge(key, 1, Integer::sum);
            keyOf.put(fr.get("frame").asLong(), key);
        }
        CliRun a = CliRun.of("analyze", "-r", f.toString(), "--events", "jsonl");
        assertEquals(0, a.exit(), name + " analyze: " + a.err());
        for (String line : a.out().lines().toList()) {
            JsonNode e = JSON.readTree(line);
            String type = e.get("type").asText();
            if (!type.contains("retransmission") || e.has("inferred")) continue;
            String key = keyOf.get(e.get("frame").asLong());
            assertTrue(key != null && copies.get(key) >= 2, name + ": retransmission of a PSN whose request appears once: " + line);
        }
        CliRun v = CliRun.of("validate", f.toString());
        assertTrue(v.exit() == 0 || v.exit() == 1, name + " validate exit " + v.exit() + ": " + v.err());
        if (name.startsWith("m3_dc-small")) {
            // Item 4: DC decoded as tshark does, so no misaligned reserved fields and no missing RDETH.
            assertFalse(v.out().contains("MR-HDR-003") || v.out().contains("MR-HDR-005"), name + ": " + v.out());
        }
        assertFalse(v.err().contains("Exception") || v.out().contains("Exception"), name + ": " + v.err());
    }

    /** Item 3: RoCEv1 is labelled RoCEv1 and shows its GIDs; IPv4-mapped GIDs pair with their RoCEv2 peer. */
    @Test
    void roceV1IsLabelledAndPairsWithItsRoceV2Peer() throws Exception {
        files();
        Path f = dir().resolve("m3_rocev1_test.pcap");
        Assumptions.assumeTrue(Files.isRegularFile(f), "m3_rocev1_test.pcap absent");
        CliRun lines = CliRun.of("dissect", "-r", f.toString(), "-c", "1");
        assertTrue(lines.out().contains("GID: ::ffff:172.17.242.47 \u2192 GID: ::ffff:172.17.242.56 RoCEv1 1094 RC SEND First"), lines.out());
        CliRun q = CliRun.of("dissect", "-r", f.toString(), "-q");
        assertTrue(q.out().matches("(?s).*RoCEv1 +RC SEND First +70\n.*"), q.out()); // counts are right-aligned in a column
        assertTrue(q.out().matches("(?s).*RoCEv2 +RC Acknowledge +76\n.*"), q.out());
        CliRun a = CliRun.of("analyze", "-r", f.toString(), "-T", "json");
        assertEquals(0, a.exit(), a.err());
        JsonNode flows = JSON.readTree(a.out()).get("flows");
        int v1 = 0;
        for (JsonNode fl : flows) {
            if (!"rocev1".equals(fl.path("transport").asText()) || fl.path("data_packets").asLong() == 0) continue;
            v1++;
            assertTrue(fl.hasNonNull("peer"), fl.toString());
            assertTrue(fl.path("acks").asLong() > 0, "a RoCEv1 flow gets the ACKs its RoCEv2 peer sends: " + fl);
        }
        assertEquals(16, v1);
    }
}
