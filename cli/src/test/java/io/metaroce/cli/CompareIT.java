package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code metaroce compare} through the shipped launcher, against the simulator's ground truth: one run of a
 * scenario captured at the sender ({@code --tap sender}) and at the receiver ({@code --tap receiver}) is the same
 * traffic at two points; the truth's {@code lost_after_tap} frames at each tap are exactly the packets the network
 * dropped on their way from that host, so the packets compare calls "lost between" must be those, per flow.
 */
class CompareIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    @BeforeAll
    static void simulate() {
        Launcher.requireJar();
        List<Launcher.Call> calls = new ArrayList<>();
        for (String scenario : List.of("rocev2-gbn-loss", "metaroce-spray-lossy-path")) {
            for (String tap : List.of("sender", "receiver")) {
                calls.add(Launcher.Call.of("simulate", "--scenario", scenario, "--tap", tap, "--out",
                        tmp.resolve(scenario + "-" + tap + ".pcapng").toString(), "--truth",
                        tmp.resolve(scenario + "-" + tap + ".json").toString()));
            }
        }
        for (Run r : Launcher.runAll(calls)) assertEquals(0, r.exit(), r.show());
    }

    private static Path capture(String scenario, String tap) { return tmp.resolve(scenario + "-" + tap + ".pcapng"); }

    private static JsonNode compare(String... args) throws IOException {
        List<String> a = new ArrayList<>(List.of("compare", "-T", "json"));
        a.addAll(List.of(args));
        Run r = Launcher.run(a.toArray(String[]::new));
        assertEquals(0, r.exit(), r.show());
        assertEquals("", r.err(), r.show());
        return JSON.readTree(r.stdout());
    }

    /** flow -> the PSNs the network lost after the tap (truth), in frame order. */
    private static Map<String, List<Long>> truthLost(String scenario, String tap) throws IOException {
        Map<String, List<Long>> m = new TreeMap<>();
        for (JsonNode f : JSON.readTree(tmp.resolve(scenario + "-" + tap + ".json").toFile()).get("frames")) {
            if (f.path("labels").path("lost_after_tap").asBoolean(false)) {
                m.computeIfAbsent(f.get("flow").asText(), k -> new ArrayList<>()).add(f.get("psn").asLong());
            }
        }
        return m;
    }

    /** flow -> the PSNs compare found lost between the points, upstream being the point of the given direction. */
    private static Map<String, List<Long>> comparedLost(JsonNode report, String direction) throws IOException {
        Map<String, List<Long>> m = new TreeMap<>();
        for (JsonNode f : report.get("flows")) {
            JsonNode lost = f.get("lost_between");
            if (!f.get("direction").asText().equals(direction) || lost.get("count").asLong() == 0) continue;
            List<Long> psns = new ArrayList<>();
            for (JsonNode p : lost.get("psns")) {
                if (p.isArray()) for (long x = p.get(0).asLong(); x <= p.get(1).asLong(); x++) psns.add(x);
                else psns.add(p.asLong());
            }
            m.put(f.get("flow").asText(), psns);
        }
        return m;
    }

    private static long lostTotal(JsonNode report) {
        long n = 0;
        for (JsonNode d : report.get("summary").get("directions")) n += d.get("lost_between").asLong();
        return n;
    }

    /** How many packets compare found lost between the points in one direction, against the truth's count. */
    private static void sameCount(Map<String, List<Long>> truth, JsonNode report, String direction) {
        long n = 0, t = 0;
        for (JsonNode f : report.get("flows")) {
            if (f.get("direction").asText().equals(direction)) n += f.get("lost_between").get("count").asLong();
        }
        for (List<Long> l : truth.values()) t += l.size();
        assertEquals(t, n, direction);
    }

    /** Duplicate PSNs in the truth (two lost copies of PSN 0 of a MetaRoCE probe reply) are counted, not listed twice. */
    private static Map<String, List<Long>> distinct(Map<String, List<Long>> m) {
        Map<String, List<Long>> d = new TreeMap<>();
        m.forEach((k, v) -> {
            List<Long> l = new ArrayList<>();
            for (Long x : v) if (l.isEmpty() || !l.get(l.size() - 1).equals(x)) l.add(x);
            d.put(k, l);
        });
        return d;
    }

    @Test
    void goBackNLossesAreTheTruthsPerFlowAndDirection() throws IOException {
        String s = "rocev2-gbn-loss";
        JsonNode r = compare(capture(s, "sender").toString(), capture(s, "receiver").toString());
        assertEquals(distinct(truthLost(s, "sender")), comparedLost(r, "1>2"), r.toPrettyString());
        assertEquals(distinct(truthLost(s, "receiver")), comparedLost(r, "2>1"), r.toPrettyString());
        sameCount(truthLost(s, "sender"), r, "1>2");
        sameCount(truthLost(s, "receiver"), r, "2>1");
        long truth = 0;
        for (JsonNode p : JSON.readTree(tmp.resolve(s + "-sender.json").toFile()).get("fabric_paths")) truth += p.get("lost").asLong();
        assertEquals(truth, lostTotal(r));
        assertTrue(truth > 0);
        // Go-back-N resends packets the receiver already had after each gap.
        long resent = 0;
        for (JsonNode f : r.get("flows")) resent += f.get("resent_already_downstream").asLong();
        assertTrue(resent > 0, r.toPrettyString());
        // Both hosts' captures come from one simulated clock: the offset is the paths' asymmetry at most.
        assertTrue(Math.abs(r.get("clock").get("offset_ns").asLong()) < 1000, r.get("clock").toString());
    }

    @Test
    void sprayLossesAreThePerPathTruth() throws IOException {
        String s = "metaroce-spray-lossy-path";
        JsonNode r = compare(capture(s, "sender").toString(), capture(s, "receiver").toString());
        assertEquals(distinct(truthLost(s, "sender")), comparedLost(r, "1>2"));
        assertEquals(distinct(truthLost(s, "receiver")), comparedLost(r, "2>1"));
        sameCount(truthLost(s, "sender"), r, "1>2");
        sameCount(truthLost(s, "receiver"), r, "2>1");
        Map<Integer, Long> truth = new TreeMap<>(), found = new TreeMap<>();
        for (JsonNode p : JSON.readTree(tmp.resolve(s + "-sender.json").toFile()).get("fabric_paths")) {
            truth.put(p.get("path").asInt(), p.get("lost").asLong());
        }
        for (JsonNode p : r.get("summary").get("paths")) found.merge(p.get("path_id").asInt(), p.get("lost_between").asLong(), Long::sum);
        for (int path : truth.keySet()) found.putIfAbsent(path, 0L);
        assertEquals(truth, found, r.get("summary").toPrettyString());
    }

    @Test
    void aShiftedClockIsEstimatedAndChangesNoLoss() throws Exception {
        String s = "rocev2-gbn-loss";
        Path shifted = tmp.resolve("receiver-shifted.pcapng");
        Process p = new ProcessBuilder("editcap", "-t", "2.5", capture(s, "receiver").toString(), shifted.toString())
                .redirectErrorStream(true).start();
        assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes()));
        JsonNode plain = compare(capture(s, "sender").toString(), capture(s, "receiver").toString());
        JsonNode r = compare(capture(s, "sender").toString(), shifted.toString());
        long offset = r.get("clock").get("offset_ns").asLong();
        assertEquals(2_500_000_000L + plain.get("clock").get("offset_ns").asLong(), offset, 2_000, r.get("clock").toString());
        assertEquals(comparedLost(plain, "1>2"), comparedLost(r, "1>2"));
        assertEquals(comparedLost(plain, "2>1"), comparedLost(r, "2>1"));
        assertEquals(lostTotal(plain), lostTotal(r));
        // The known offset given instead of estimated: the same losses, and the offset as given (point 2 is 2.5 s ahead).
        JsonNode given = compare(capture(s, "sender").toString(), shifted.toString(), "--time-shift", "-2.5");
        assertEquals(2_500_000_000L, given.get("clock").get("offset_ns").asLong());
        assertTrue(given.get("clock").get("how").asText().startsWith("given"));
        assertEquals(comparedLost(plain, "1>2"), comparedLost(given, "1>2"));
        assertEquals(lostTotal(plain), lostTotal(given));
    }

    @Test
    void theSameCaptureTwiceLosesNothingInNoTime() throws IOException {
        Path c = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng");
        JsonNode r = compare(c.toString(), c.toString());
        assertEquals(0, lostTotal(r));
        assertEquals(0, r.get("clock").get("offset_ns").asLong());
        for (JsonNode f : r.get("flows")) {
            assertEquals(f.get("upstream_packets"), f.get("matched"), f.toString());
            assertEquals(0, f.get("appeared_downstream_only").get("count").asLong());
            assertEquals(0, f.get("one_way_delay_ns").get("max").asLong());
            assertEquals(0, f.get("one_way_delay_ns").get("median").asLong());
        }
    }

    @Test
    void textReportNamesTheLossesAndTheOffset() {
        String s = "rocev2-gbn-loss";
        Run r = Launcher.run("compare", capture(s, "sender").toString(), capture(s, "receiver").toString());
        assertEquals(0, r.exit(), r.show());
        assertTrue(r.out().contains("Clock offset (point 2 - point 1): "), r.show());
        assertTrue(r.out().contains("lost between"), r.show());
        assertTrue(r.out().contains("Lost between the points"), r.show());
    }

    @Test
    void unrelatedCapturesAreOneLine() {
        Run r = Launcher.run("compare", Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString(),
                Launcher.CAPTURES.resolve("rocev2-read-atomic.pcapng").toString());
        assertEquals(2, r.exit(), r.show());
        assertEquals(1, r.errLines().size(), r.show());
        assertTrue(r.err().startsWith("metaroce compare: ") && r.err().contains("no RoCE flow in common"), r.show());
        assertEquals("", r.out());
    }

    @Test
    void aCutCaptureIsComparedUpToTheCutThenExitTwo() throws IOException {
        String s = "rocev2-gbn-loss";
        byte[] all = Files.readAllBytes(capture(s, "receiver"));
        Path cut = tmp.resolve("receiver-cut.pcapng");
        Files.write(cut, java.util.Arrays.copyOf(all, all.length / 2 + 7));
        Run r = Launcher.run("compare", "-T", "json", capture(s, "sender").toString(), cut.toString());
        assertEquals(2, r.exit(), r.show());
        assertEquals(1, r.errLines().size(), r.show());
        assertTrue(r.err().startsWith("metaroce compare: " + cut), r.show());
        JsonNode j = JSON.readTree(r.stdout());
        assertTrue(j.get("points").get(1).get("frames").asLong() > 50, r.show());
        // The sender's packets after the receiver's capture ended are outside it, not lost.
        long outside = 0;
        for (JsonNode f : j.get("flows")) outside += f.get("outside_other_capture").asLong();
        assertTrue(outside > 50, r.show());
        assertTrue(lostTotal(j) <= 4, r.show());
    }

    @Test
    void badCommandLinesAreOneLine() {
        String a = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
        record Bad(List<String> args, String message) {}
        List<Bad> bad = List.of(
                new Bad(List.of("compare", a), "metaroce compare: two captures are needed, one per point (got 1)"),
                new Bad(List.of("compare", a, a, "--window", "0"), "metaroce compare: --window must be a number of seconds above 0, not 0.0"),
                new Bad(List.of("compare", a, a, "--time-shift", "NaN"), "metaroce compare: --time-shift must be a number of seconds, not NaN"),
                new Bad(List.of("compare", a, a, "-T", "xml"), "metaroce compare: -T must be json or text, not 'xml'"),
                new Bad(List.of("compare", a, tmp.resolve("nosuch.pcap").toString()), null));
        List<Run> runs = Launcher.runAll(bad.stream().map(b -> Launcher.Call.of(b.args())).toList());
        for (int i = 0; i < bad.size(); i++) {
            Run r = runs.get(i);
            assertEquals(2, r.exit(), r.show());
            assertEquals(1, r.errLines().size(), r.show());
            if (bad.get(i).message() != null) assertEquals(bad.get(i).message(), r.errLines().get(0), r.show());
            else assertTrue(r.err().startsWith("metaroce compare: ") && r.err().contains("nosuch.pcap"), r.show());
            assertFalse(r.err().contains("Exception"), r.show());
        }
    }
}
