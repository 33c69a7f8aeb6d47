package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapngWriter;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code metaroce compare}, through the shipped launcher, where {@link CompareIT} does not go: two captures whose clocks
 * differ by an hour and whose second point started long after the first (no --time-shift needed), the loss list as
 * tshark users read it (repeats, relative and UTC times), and the inputs the other commands take (standard input,
 * gzip-compressed pcap and pcapng).
 */
class CompareMoreIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long HOUR_NS = 3_600_000_000_000L;

    @TempDir
    static Path tmp;

    private static Path sender, receiver, late, lateAhead, lateBehind, gbnSender, gbnReceiver;

    @BeforeAll
    static void simulate() throws Exception {
        Launcher.requireJar();
        List<Call> calls = new ArrayList<>();
        // More than the 4,096 RoCE packets compare first reads of each capture to estimate the clock offset.
        for (String tap : List.of("sender", "receiver")) {
            calls.add(Call.of("simulate", "--scenario", "metaroce-spray-lossy-path", "--tap", tap, "--frames", "14000", "--out",
                    tmp.resolve("spray-" + tap + ".pcapng").toString()));
            calls.add(Call.of("simulate", "--scenario", "rocev2-gbn-loss", "--tap", tap, "--out",
                    tmp.resolve("gbn-" + tap + ".pcap").toString()));
        }
        for (Run r : Launcher.runAll(calls)) assertEquals(0, r.exit(), r.show());
        sender = tmp.resolve("spray-sender.pcapng");
        receiver = tmp.resolve("spray-receiver.pcapng");
        gbnSender = tmp.resolve("gbn-sender.pcap");
        gbnReceiver = tmp.resolve("gbn-receiver.pcap");
        // The receiver's capture started after 6,000 of its frames had passed, on its own clock (editcap -t 3600, -3600).
        late = rewrite(receiver, tmp.resolve("late.pcapng"), 6000, 0);
        lateAhead = rewrite(receiver, tmp.resolve("late-ahead.pcapng"), 6000, HOUR_NS);
        lateBehind = rewrite(receiver, tmp.resolve("late-behind.pcapng"), 6000, -HOUR_NS);
    }

    /** The capture without its first {@code skip} frames and with {@code shiftNs} added to every time (editcap -t). */
    private static Path rewrite(Path in, Path out, long skip, long shiftNs) throws Exception {
        try (PacketSource src = CaptureFiles.open(in); PcapngWriter w = PcapngWriter.create(out)) {
            int iface = -1;
            while (src.next()) {
                if (src.frameNumber() <= skip) continue;
                if (iface < 0) iface = w.addInterface(src.linkType(), 0, null, src.fcsLength() < 0 ? -1 : src.fcsLength());
                w.write(iface, src.timestampNanos() + shiftNs, src.data(), 0, src.capturedLength(), src.originalLength(), null);
            }
        }
        return out;
    }

    private static Path gzip(Path from) throws Exception {
        Path to = tmp.resolve(from.getFileName() + ".gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(to))) {
            Files.copy(from, o);
        }
        return to;
    }

    private static JsonNode json(Run r) throws Exception {
        assertEquals(0, r.exit(), r.show());
        assertEquals("", r.err(), r.show());
        return JSON.readTree(r.stdout());
    }

    /** What the report found per flow (the counts and PSNs; the delays depend on the offset's last nanosecond). */
    private static List<String> losses(JsonNode report) {
        List<String> l = new ArrayList<>();
        for (JsonNode f : report.get("flows")) {
            l.add(f.get("flow").asText() + " " + f.get("direction").asText() + " up " + f.get("upstream_packets") + " down "
                    + f.get("downstream_packets") + " matched " + f.get("matched") + " lost " + f.get("lost_between").get("psns")
                    + " appeared " + f.get("appeared_downstream_only").get("psns") + " outside " + f.get("outside_other_capture"));
        }
        return l;
    }

    @Test
    void anHourOfClockOffsetAndALateStartAreFoundWithoutTimeShift() throws Exception {
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("compare", "-T", "json", sender.toString(), late.toString()),                                  // 0
                Call.of("compare", "-T", "json", sender.toString(), lateAhead.toString()),                             // 1
                Call.of("compare", "-T", "json", sender.toString(), lateAhead.toString(), "--time-shift", "-3600"),    // 2
                Call.of("compare", "-T", "json", sender.toString(), lateBehind.toString()),                            // 3
                Call.of("compare", "-T", "json", sender.toString(), lateBehind.toString(), "--time-shift", "3600"),    // 4
                Call.of("compare", "-T", "json", lateAhead.toString(), sender.toString())));                           // 5
        JsonNode plain = json(runs.get(0));
        assertTrue(plain.get("flows").size() >= 2, plain.toPrettyString());
        long lost = 0;
        for (JsonNode d : plain.get("summary").get("directions")) lost += d.get("lost_between").asLong();
        assertTrue(lost > 0, plain.get("summary").toPrettyString());
        for (int[] pair : new int[][] {{1, 2}, {3, 4}}) {
            JsonNode found = json(runs.get(pair[0])), given = json(runs.get(pair[1]));
            assertEquals(losses(given), losses(found), runs.get(pair[0]).show());
            assertEquals(losses(plain), losses(found));
            long expected = pair[0] == 1 ? HOUR_NS : -HOUR_NS;
            assertTrue(Math.abs(found.get("clock").get("offset_ns").asLong() - expected) < 1_000, found.get("clock").toString());
            assertTrue(found.get("clock").get("how").asText().startsWith("estimated"), found.get("clock").toString());
        }
        // The late capture as point 1: the same losses, the points swapped.
        JsonNode swapped = json(runs.get(5));
        assertTrue(Math.abs(swapped.get("clock").get("offset_ns").asLong() + HOUR_NS) < 1_000, swapped.get("clock").toString());
        assertEquals(plain.get("summary").get("directions").get(0).get("lost_between"),
                swapped.get("summary").get("directions").get(1).get("lost_between"));
    }

    @Test
    void lossTimesAreRelativeToTheFirstFrameAndInUtcAndRepeatsShow() throws Exception {
        Path s = tmp.resolve("spray-small-sender.pcapng"), r = tmp.resolve("spray-small-receiver.pcapng");
        List<Call> sim = new ArrayList<>();
        for (String tap : List.of("sender", "receiver")) {
            sim.add(Call.of("simulate", "--scenario", "metaroce-spray-lossy-path", "--tap", tap, "--out",
                    tmp.resolve("spray-small-" + tap + ".pcapng").toString()));
        }
        for (Run x : Launcher.runAll(sim)) assertEquals(0, x.exit(), x.show());
        List<Run> runs = Launcher.runAll(List.of(Call.of("compare", "-T", "json", s.toString(), r.toString()),
                Call.of("compare", s.toString(), r.toString())));
        JsonNode report = json(runs.get(0));
        long repeats = 0;
        for (JsonNode f : report.get("flows")) {
            JsonNode l = f.get("lost_between");
            if (l.get("count").asLong() == 0) continue;
            int point = f.get("direction").asText().equals("1>2") ? 0 : 1;
            long first = report.get("points").get(point).get("first_frame_ns").asLong();
            assertEquals((l.get("first_ns").asLong() - first) / 1e9, l.get("first_s").asDouble(), 1e-12, l.toString());
            assertEquals((l.get("last_ns").asLong() - first) / 1e9, l.get("last_s").asDouble(), 1e-12, l.toString());
            // Every lost packet is in the list: the PSNs of psns, and once more per further loss of a repeated one.
            long listed = 0;
            for (JsonNode p : l.get("psns")) listed += p.isArray() ? p.get(1).asLong() - p.get(0).asLong() + 1 : 1;
            for (JsonNode p : l.get("psn_repeats")) {
                listed += p.get("times").asLong() - 1;
                repeats++;
            }
            assertEquals(l.get("count").asLong(), listed, l.toString());
        }
        // The sample loses the two copies of PSN 0 of a probe reply: the text says so.
        assertTrue(repeats > 0, report.toPrettyString());
        String text = runs.get(1).out();
        assertEquals(0, runs.get(1).exit(), runs.get(1).show());
        assertTrue(text.contains(",0 (x2)  "), text);
        assertTrue(text.contains("First(s)     Last(s)      First (UTC)"), text);
        assertTrue(text.matches("(?s).*lost between .* 0\\.0000\\d{5}  0\\.0000\\d{5}  2026-01-01 00:00:00\\.0000\\d{5}\n.*"), text);
    }

    @Test
    void standardInputAndGzipCapturesCompareAsTheFiles() throws Exception {
        Path gzSender = gzip(gbnSender), gzReceiverNg = gzip(late);
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("compare", "-T", "json", gbnSender.toString(), gbnReceiver.toString()),                        // 0
                Call.of("compare", "-T", "json", gzSender.toString(), "-").stdin(gbnReceiver),                         // 1: .pcap.gz, stdin
                Call.of("compare", "-T", "json", "-", gbnReceiver.toString()).stdin(gzSender),                         // 2: gzip on stdin
                Call.of("compare", "-T", "json", sender.toString(), late.toString()),                                  // 3
                Call.of("compare", "-T", "json", sender.toString(), gzReceiverNg.toString()),                          // 4: .pcapng.gz
                Call.of("compare", "-", "-").stdin(gbnReceiver)));                                                     // 5
        JsonNode plain = json(runs.get(0));
        assertEquals(strip(plain), strip(json(runs.get(1))));
        assertEquals(strip(plain), strip(json(runs.get(2))));
        assertEquals(strip(json(runs.get(3))), strip(json(runs.get(4))));
        // Both points on standard input: one capture for two points. Before, the one copy was compared with itself.
        Run both = runs.get(5);
        assertEquals(2, both.exit(), both.show());
        assertEquals(List.of("metaroce compare: - given for both points; standard input holds one capture (give the other as a "
                + "file)"), both.errLines());
        assertEquals("", both.out());
    }

    /** The report less the file names. */
    private static JsonNode strip(JsonNode report) {
        ObjectNode c = report.deepCopy();
        for (JsonNode p : c.get("points")) ((ObjectNode) p).remove("file");
        return c;
    }
}
