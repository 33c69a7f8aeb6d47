package io.metaroce.cli;

import static io.metaroce.testsupport.LauncherCases.oneLineExit2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tshark user's output habits (issue 10 items 3, 4 and 7) through the shipped launcher: tshark's generic and
 * infiniband names in -Y and -e, the -e / -T contract and JSON numbers, bare analysis flags, SARIF locations and
 * the HTML report. The in-process tests (TsharkNamesTest, OutputContractsTest, validate OutputsTest) cover the
 * details; these catch what only the shipped command can get wrong (the jar, the script, the real exit codes).
 */
class OutputHabitsIT {
    private static final String ORACLE = Launcher.ROOT.resolve("samples/reference/roce_v4_oracle.pcap").toString();
    private static final String EDGE = Launcher.ROOT.resolve("samples/reference/roce_edge.pcap").toString();
    private static final String GBN = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString();
    private static final String SPRAY = Launcher.CAPTURES.resolve("metaroce-spray-lossy-path.pcapng").toString();
    private static final String GAPS = Launcher.CAPTURES.resolve("capture-gaps-truncated.pcapng").toString();
    private static final String VIOLATIONS = Launcher.CAPTURES.resolve("conformance-violations.pcapng").toString();

    @TempDir
    static Path tmp;

    /** {@code dissect -r FILE -T fields -e frame.number -Y FILTER}: the frames a filter selects. */
    private static Call frames(String file, String filter) {
        return Call.of("dissect", "-r", file, "-T", "fields", "-e", "frame.number", "-Y", filter);
    }

    private static List<String> lines(Run r) {
        LauncherIT.ok(r);
        return r.out().lines().toList();
    }

    // ------------------------------------------------------------------ 3. tshark's names

    /**
     * Every frame of roce_v4_oracle goes between 192.168.1.10 (MAC ...:0a) and 192.168.1.20 (MAC ...:14), UDP
     * 49458 to 4791: a name that matches either end selects every frame, a name that read only one end (ip.addr
     * as ip.src, udp.port as udp.dstport) would select about half or none.
     */
    @Test
    void tsharksGenericNamesSlicesAndContainsSelectTheRightFrames() throws Exception {
        List<String> filters = List.of(
                "ip.addr == 192.168.1.20",
                "ip.src == 192.168.1.20 || ip.dst == 192.168.1.20",
                "ip.src == 192.168.1.20",
                "ip.addr == 192.168.1.99",
                "udp.port == 49458 && udp.port == 4791 && eth.addr == 02:00:00:00:00:0a && eth.addr == 02:00:00:00:00:14",
                "eth.src[0:3] == 02:00:00 && eth.src[-1] == 0x14 && len(eth.src) == 6",
                "frame contains c0:a8:01:0a:c0:a8:01:14");
        List<Call> calls = new ArrayList<>();
        for (String f : filters) calls.add(frames(ORACLE, f));
        List<Run> runs = Launcher.runAll(calls);
        List<String> all = new ArrayList<>();
        for (int i = 1; i <= 25; i++) all.add(Integer.toString(i));
        List<String> fromB = lines(runs.get(2));
        assertEquals(12, fromB.size(), "frames sent by 192.168.1.20: " + runs.get(2).show());
        assertEquals(all, lines(runs.get(0)), "ip.addr is either end: " + runs.get(0).show());
        assertEquals(lines(runs.get(1)), lines(runs.get(0)), "ip.addr == X is ip.src == X || ip.dst == X");
        assertEquals(List.of(), lines(runs.get(3)), runs.get(3).show());
        assertEquals(all, lines(runs.get(4)), "udp.port and eth.addr are either end: " + runs.get(4).show());
        assertEquals(fromB, lines(runs.get(5)), "the MAC ...:14 sends what 192.168.1.20 sends: " + runs.get(5).show());
        List<String> fromA = new ArrayList<>(all);
        fromA.removeAll(fromB);
        assertEquals(fromA, lines(runs.get(6)), "the bytes 'src .10, dst .20' are in the frames from .10: " + runs.get(6).show());
        List<List<String>> tsharkArgs = new ArrayList<>();
        for (String f : filters) tsharkArgs.add(List.of("-r", ORACLE, "-T", "fields", "-e", "frame.number", "-Y", f));
        List<List<String>> t = tshark(tsharkArgs);
        for (int i = 0; t != null && i < filters.size(); i++) assertEquals(t.get(i), lines(runs.get(i)), "as tshark: " + filters.get(i));
    }

    /** -e under tshark's names prints what tshark prints (infiniband.bth.opcode in decimal); our own bth.opcode is hex. */
    @Test
    void tsharksFieldNamesPrintAsTsharkAndOursInHex() throws Exception {
        Run r = Launcher.run("dissect", "-r", ORACLE, "-T", "fields", "-e", "frame.number", "-e", "frame.time_relative",
                "-e", "infiniband.bth.opcode", "-e", "ip.addr", "-e", "udp.port", "-e", "eth.addr", "-e", "bth.opcode");
        List<String> ours = lines(r);
        assertEquals(25, ours.size(), r.show());
        List<String> withoutOurs = new ArrayList<>();
        for (String l : ours) {
            String[] c = l.split("\t", -1);
            assertEquals(7, c.length, l);
            assertEquals(String.format("0x%02x", Integer.parseInt(c[2])), c[6], "bth.opcode is the same opcode in hex: " + l);
            assertTrue(c[1].matches("\\d+\\.\\d{9}"), "frame.time_relative in seconds: " + l);
            withoutOurs.add(l.substring(0, l.lastIndexOf('\t')));
        }
        assertEquals("0.000000000", ours.get(0).split("\t")[1], "relative to the first frame");
        String[] first = ours.get(0).split("\t");
        assertEquals(List.of("192.168.1.10,192.168.1.20", "49458,4791", "02:00:00:00:00:14,02:00:00:00:00:0a"),
                List.of(first[3], first[4], first[5]), "both ends, in tshark's order");
        List<List<String>> t = tshark(List.of(List.of("-r", ORACLE, "-T", "fields", "-e", "frame.number", "-e", "frame.time_relative",
                "-e", "infiniband.bth.opcode", "-e", "ip.addr", "-e", "udp.port", "-e", "eth.addr")));
        if (t != null) assertEquals(t.get(0), withoutOurs, "as tshark prints them");
    }

    /** tshark's protocol and CRC names work in -Y and select what our own names select (and what tshark selects). */
    @Test
    void tsharksInfinibandNamesFilterAsOurOwn() throws Exception {
        List<Run> runs = Launcher.runAll(List.of(frames(ORACLE, "infiniband.aeth"), frames(ORACLE, "aeth"),
                frames(EDGE, "infiniband.invariant.crc == 0xdeadbeef"), frames(EDGE, "icrc.wire == 0xdeadbeef")));
        List<String> aeth = lines(runs.get(0));
        assertFalse(aeth.isEmpty(), runs.get(0).show());
        assertTrue(aeth.size() < 25, "some frames only: " + runs.get(0).show());
        assertEquals(lines(runs.get(1)), aeth);
        assertEquals(List.of("4"), lines(runs.get(2)), "roce_edge frame 4 carries the ICRC bytes de ad be ef: " + runs.get(2).show());
        assertEquals(lines(runs.get(3)), lines(runs.get(2)));
        List<List<String>> t = tshark(List.of(List.of("-r", ORACLE, "-T", "fields", "-e", "frame.number", "-Y", "infiniband.aeth"),
                List.of("-r", EDGE, "-T", "fields", "-e", "frame.number", "-Y", "infiniband.invariant.crc == 0xdeadbeef")));
        if (t != null) {
            assertEquals(t.get(0), aeth, "as tshark");
            assertEquals(t.get(1), lines(runs.get(2)), "as tshark");
        }
    }

    // ------------------------------------------------------------------ 4. output contracts

    @Test
    void fieldsNeedAFieldsOrJsonOutputAndNarrowJson() throws Exception {
        List<Run> runs = Launcher.runAll(List.of(Call.of("dissect", "-r", ORACLE, "-e", "frame.number"),
                Call.of("dissect", "-r", GBN, "-T", "jsonl", "-e", "frame.number", "-e", "bth.psn", "-c", "3")));
        oneLineExit2(runs.get(0));
        assertEquals("", runs.get(0).out(), runs.get(0).show());
        assertTrue(runs.get(0).err().contains("Output fields were specified with \"-e\""), runs.get(0).show());
        List<String> jsonl = lines(runs.get(1));
        assertEquals(3, jsonl.size(), runs.get(1).show());
        for (String line : jsonl) {
            JsonNode frame = LauncherIT.parse(line, runs.get(1));
            List<String> names = new ArrayList<>();
            frame.get("fields").fieldNames().forEachRemaining(names::add);
            assertEquals(List.of("frame.number", "bth.psn"), names, "-e narrows the fields, in -e order: " + line);
            // The samples' times are nanoseconds since 1970, beyond 2^53: a JSON number would lose digits.
            JsonNode t = frame.get("time_ns");
            assertTrue(t.isTextual(), "time_ns beyond 2^53 is a string: " + line);
            assertTrue(Long.parseLong(t.asText()) > 1L << 53, line);
            assertTrue(frame.get("frame").isNumber(), "small integers stay numbers: " + line);
        }
        assertEquals("1767225600000009373", LauncherIT.parse(jsonl.get(2), runs.get(1)).get("time_ns").asText(), "every digit");
    }

    @Test
    void aBareAnalysisFlagIsTheFlagEqualToTrue() {
        List<Run> runs = Launcher.runAll(List.of(frames(SPRAY, "analysis.spurious"), frames(SPRAY, "analysis.spurious == true"),
                frames(SPRAY, "analysis.spurious == false")));
        List<String> bare = lines(runs.get(0));
        assertFalse(bare.isEmpty(), "the sample has spurious retransmissions: " + runs.get(0).show());
        assertEquals(lines(runs.get(1)), bare);
        assertEquals(List.of(), lines(runs.get(2)), "a flag is present only when true: " + runs.get(2).show());
    }

    /** GitHub code scanning places a result only with a region: each one is its frame's bytes in the capture. */
    @Test
    void sarifResultsPointAtTheirFramesBytes() throws IOException {
        Run r = Launcher.run("validate", "-T", "sarif", VIOLATIONS);
        assertEquals(1, r.exit(), "the sample has errors: " + r.show());
        JsonNode results = LauncherIT.parse(r.out(), r).get("runs").get(0).get("results");
        assertTrue(results.size() > 10, r.show());
        byte[] file = Files.readAllBytes(Path.of(VIOLATIONS));
        for (JsonNode res : results) {
            JsonNode loc = res.get("locations").get(0).get("physicalLocation");
            assertTrue(loc.get("artifactLocation").get("uri").asText().endsWith("conformance-violations.pcapng"), res.toString());
            // A finding about a field points at its bytes (region) inside its frame (contextRegion).
            JsonNode region = loc.has("contextRegion") ? loc.get("contextRegion") : loc.get("region");
            assertTrue(region != null && region.has("byteOffset") && region.has("byteLength"), res.toString());
            int off = region.get("byteOffset").asInt(), len = region.get("byteLength").asInt();
            assertTrue(off > 0 && len >= 54 && off + len <= file.length, "inside the capture: " + region);
            int etherType = (file[off + 12] & 0xFF) << 8 | (file[off + 13] & 0xFF);
            assertEquals(0x0800, etherType, "an Ethernet frame (IPv4, as every frame of the sample) starts at byteOffset " + off);
        }
    }

    // ------------------------------------------------------------------ 7. the HTML report

    @Test
    void htmlReportSaysNoProblemsForNotesAndDrawsEveryQp() throws IOException {
        Path notes = tmp.resolve("notes.html"), all = tmp.resolve("all.html");
        List<Run> runs = Launcher.runAll(List.of(Call.of("validate", "--report", notes.toString(), GAPS),
                Call.of("validate", "--report", all.toString(), VIOLATIONS)));
        LauncherIT.ok(runs.get(0));
        assertTrue(runs.get(0).out().contains("3 notes"), "the sample has notes only: " + runs.get(0).show());
        String n = Files.readString(notes, StandardCharsets.UTF_8);
        assertTrue(n.contains("No errors or warnings."), "notes only: said, not an empty table");
        assertNotEquals(0, runs.get(1).exit(), runs.get(1).show());
        String a = Files.readString(all, StandardCharsets.UTF_8);
        assertFalse(a.contains("not drawn"), "every QP is drawn");
        assertTrue(a.contains("more QPs, drawn small"), "conformance-violations has more QPs than the large charts");
        assertFalse(a.contains("No errors or warnings."), "that sample has errors");
    }

    // ------------------------------------------------------------------ tshark, when installed

    /**
     * tshark's -T fields lines for each argument list (the runs side by side: tshark starts slowly), its RDMA
     * heuristics off (Tools), or null when tshark is not installed: then the comparisons with our own names above are
     * the reference.
     */
    private static List<List<String>> tshark(List<List<String>> argLists) {
        List<List<String>> results = argLists.parallelStream().map(a -> Tools.tshark(tmp, List.of(), a.toArray(String[]::new))).toList();
        return results.contains(null) ? null : results;
    }
}
