package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.testsupport.VethPair;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Live capture end to end, as root, over a veth pair between two network namespaces made for this run: a
 * sender JVM replays a simulator capture raw in one namespace, {@code metaroce capture / analyze -i} runs
 * in the other. Skips (saying why) without root or without {@code ip netns}.
 */
class LiveCaptureTest {
    private static final Path CAPTURES = Path.of("..", "samples", "captures");
    // pcapng option codes
    private static final int IF_NAME = 2, IF_DESCRIPTION = 3, IF_TSRESOL = 9, IF_FILTER = 11, SHB_OS = 3, SHB_USERAPPL = 4;
    private static final int ISB_START = 2, ISB_END = 3, ISB_IFRECV = 4, ISB_IFDROP = 5, ISB_FILTERACCEPT = 6, ISB_OSDROP = 7,
            ISB_USRDELIV = 8;
    private static VethPair net;

    @TempDir
    Path tmp;

    @BeforeAll
    static void setUp() throws IOException {
        String why = VethPair.unavailable();
        assumeTrue(why == null, () -> "skipped: " + why);
        net = VethPair.betweenNamespaces("live");
    }

    @AfterAll
    static void tearDown() {
        if (net != null) net.close();
    }

    private static List<byte[]> frames(Path file) throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (PacketSource src = CaptureFiles.open(file)) {
            while (src.next()) out.add(src.data().toArray(ValueLayout.JAVA_BYTE));
        }
        return out;
    }

    private static LiveProcess metaroceInB(boolean readStdout, String... args) throws IOException {
        return LiveProcess.start(VethPair.javaIn(net.nsB, "io.metaroce.cli.Main", args), readStdout);
    }

    /** Replays {@code file} from namespace A, {@code loops} times, at full speed; returns the frames sent. */
    private static long send(Path file, int loops) throws Exception {
        try (LiveProcess s = LiveProcess.start(VethPair.javaIn(net.nsA, "io.metaroce.cli.LiveReplay", net.ifA,
                file.toString(), "0", Integer.toString(loops)), true)) {
            assertEquals(0, s.await(60), s.stderr());
            return Long.parseLong(new String(s.stdout()).trim());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocev2-gbn-loss", "metaroce-spray-lossy-path"})
    void everyFrameArrivesByteForByteAndTheStatisticsAddUp(String scenario) throws Exception {
        Path sent = CAPTURES.resolve(scenario + ".pcapng");
        List<byte[]> expected = frames(sent);
        Path out = tmp.resolve("live.pcapng");
        try (LiveProcess cap = metaroceInB(true, "capture", "-i", net.ifB, "-c", Integer.toString(expected.size()),
                "-a", "duration:40", "-w", out.toString())) {
            assertTrue(cap.awaitCapturing(), cap.stderr());
            assertEquals(expected.size(), send(sent, 1));
            assertEquals(0, cap.await(45), cap.stderr());
            PcapngBlocks b = PcapngBlocks.parse(Files.readAllBytes(out));
            assertEquals(expected.size(), b.packets().size(), cap.stderr());
            for (int i = 0; i < expected.size(); i++) assertArrayEquals(expected.get(i), b.packets().get(i), "frame " + (i + 1));
            assertTrue(b.shb().get(SHB_OS).startsWith("Linux"), b.shb().toString());
            assertTrue(b.shb().get(SHB_USERAPPL).startsWith("metaroce"), b.shb().toString());
            assertEquals(1, b.idbs().size());
            assertEquals(net.ifB, b.idbs().get(0).get(IF_NAME));
            assertEquals("\0udp port 4791", b.idbs().get(0).get(IF_FILTER));
            assertEquals(9L, b.idbs().get(0).get(IF_TSRESOL));
            assertEquals(1, b.idbHeader().get(0)[0], "LINKTYPE_ETHERNET");
            assertEquals(1, b.isbs().size(), "one ISB per interface at close");
            long recv = b.isb(0, ISB_FILTERACCEPT), osdrop = b.isb(0, ISB_OSDROP), deliv = b.isb(0, ISB_USRDELIV);
            assertEquals(0, osdrop, "isb_osdrop");
            assertEquals(expected.size(), osdrop + deliv, "captured + dropped == sent");
            assertReceived(expected.size(), recv);
            assertEquals(0, b.isb(0, ISB_IFDROP));
            assertTrue(b.isb(0, ISB_IFRECV) >= expected.size(), "isb_ifrecv counts every frame the interface got");
            assertTrue(b.isb(0, ISB_START) > 0 && b.isb(0, ISB_END) >= b.isb(0, ISB_START));
            assertTrue(cap.stderr().contains("received " + expected.size() + ", captured " + expected.size()
                    + ", dropped by kernel 0, by interface 0, by metaroce 0"), cap.stderr());
        }
    }

    @Test
    void analyzeLiveGivesTheFlowsAndCountersOfTheFile() throws Exception {
        Path sent = CAPTURES.resolve("rocev2-gbn-loss.pcapng");
        int n = frames(sent).size();
        Path written = tmp.resolve("same-time.pcapng");
        ObjectMapper json = new ObjectMapper();
        JsonNode live;
        // analyze -i and capture -w see the same frames with the same kernel time stamps.
        try (LiveProcess an = metaroceInB(true, "analyze", "-i", net.ifB, "-c", Integer.toString(n), "-a", "duration:40", "-T", "json");
             LiveProcess cap = metaroceInB(true, "capture", "-i", net.ifB, "-c", Integer.toString(n), "-a", "duration:40",
                     "-w", written.toString());
             LiveProcess pcap = metaroceInB(true, "capture", "-P", "-i", net.ifB, "-c", Integer.toString(n), "-a", "duration:40",
                     "-b", "filesize:60", "-w", tmp.resolve("ring.pcap").toString())) {
            assertTrue(an.awaitCapturing(), an.stderr());
            assertTrue(cap.awaitCapturing(), cap.stderr());
            assertTrue(pcap.awaitCapturing(), pcap.stderr());
            send(sent, 1);
            assertEquals(0, an.await(45), an.stderr());
            assertEquals(0, cap.await(45), cap.stderr());
            assertEquals(0, pcap.await(45), pcap.stderr());
            live = json.readTree(an.stdout());
        }
        assertPcapRingHoldsThePcapngFrames(written);
        // 1. Same code path: analyze -i equals analyze -r of what was captured at the same time, field for field.
        JsonNode ofWritten = json.readTree(CliRun.of("analyze", "-r", written.toString(), "-T", "json").out());
        ((ObjectNode) live.get("capture")).remove(List.of("file", "format"));
        ((ObjectNode) ofWritten.get("capture")).remove(List.of("file", "format"));
        assertEquals(ofWritten, live);
        // 2. Same flows and counters as the sent file (times, and what depends on them, differ on the wire).
        JsonNode ofSent = json.readTree(CliRun.of("analyze", "-r", sent.toString(), "-T", "json").out());
        for (String f : List.of("frames", "roce_frames", "bytes", "flows", "network_losses", "capture_gaps", "cm_frames",
                "connections_from_cm")) {
            assertEquals(ofSent.get("capture").get(f), live.get("capture").get(f), f);
        }
        assertEquals(ofSent.get("capture").get("tap").get("resolved"), live.get("capture").get("tap").get("resolved"));
        assertEquals(ofSent.get("flows").size(), live.get("flows").size());
        for (int i = 0; i < ofSent.get("flows").size(); i++) {
            JsonNode a = ofSent.get("flows").get(i), b = live.get("flows").get(i);
            for (String f : List.of("id", "peer", "paired_by", "packets", "bytes", "data_packets", "payload_bytes", "messages",
                    "messages_completed", "retransmitted_packets", "out_of_order", "duplicates", "psn_gaps", "network_losses",
                    "acks", "naks", "sacks", "nacks", "cnps", "ce_marks")) {
                assertEquals(a.get(f), b.get(f), a.get("id") + " " + f);
            }
        }
    }

    @Test
    void analyzeLiveOnATerminalRedrawsTheQpTableAndEndsWithTheReport() throws Exception {
        Path sent = CAPTURES.resolve("metaroce-spray-lossy-path.pcapng");
        // METAROCE_PROGRESS: stderr counts as a terminal; COLUMNS wide enough that no row is cut. The tap is given:
        // --tap auto holds the frames of a burst until the next frame comes after a pause, and none comes here.
        List<String> cmd = new ArrayList<>(VethPair.javaIn(net.nsB, "io.metaroce.cli.Main", "analyze", "-i", net.ifB,
                "-a", "duration:4", "--tap", "host:10.0.0.1"));
        cmd.addAll(4, List.of("env", "METAROCE_PROGRESS=1", "COLUMNS=200"));
        String err, out;
        try (LiveProcess an = LiveProcess.start(cmd, true)) {
            assertTrue(an.awaitCapturing(), an.stderr());
            send(sent, 1);
            assertEquals(0, an.await(45), an.stderr());
            err = an.stderr();
            out = new String(an.stdout(), java.nio.charset.StandardCharsets.UTF_8);
        }
        // Redrawn in place (cursor up over the last table), then erased before the report.
        assertTrue(err.contains("\033[7A"), err); // (LiveProcess reads stderr by lines: the \\r is gone)
        String last = err.substring(err.lastIndexOf("analyzed "));
        List<String> rows = last.lines().map(l -> l.replace("\033[K", "")).toList();
        assertTrue(rows.get(0).startsWith("analyzed 365 frames, 4 QP flows"), last);
        assertTrue(rows.get(1).startsWith("FLOW "), last);
        JsonNode ofSent = new ObjectMapper().readTree(CliRun.of("analyze", "-r", sent.toString(), "-T", "json").out());
        for (JsonNode f : ofSent.get("flows")) {
            String row = rows.stream().filter(l -> l.startsWith(f.get("id").asText() + " ")).findFirst().orElseThrow(() -> new AssertionError(last));
            String[] c = row.trim().split(" +");
            List<String> want = new ArrayList<>();
            for (String k : List.of("packets", "retransmitted_packets", "naks", "cnps", "ce_marks", "network_losses")) want.add(f.get(k).asText());
            assertEquals(want, List.of(c).subList(1, 7), row);
        }
        assertTrue(rows.stream().anyMatch(l -> l.startsWith("10.0.0.1>10.0.0.2/0x000013 ")
                && l.endsWith("p0 0.0% p1 0.0% p2 10.2% p3 0.0%")), last);
        assertTrue(out.contains("MetaRoCE paths"), out);
        assertTrue(out.contains("Capture: " + net.ifB + " "), out);
    }

    @Test
    void validateLiveJudgesLikeValidateOfTheSameTraffic() throws Exception {
        Path sent = CAPTURES.resolve("conformance-violations.pcapng");
        int n = frames(sent).size();
        Path written = tmp.resolve("violations.pcapng");
        ObjectMapper json = new ObjectMapper();
        JsonNode live;
        int liveExit;
        String liveErr;
        try (LiveProcess val = metaroceInB(true, "validate", "-i", net.ifB, "-c", Integer.toString(n), "-a", "duration:40", "-T", "json");
             LiveProcess cap = metaroceInB(true, "capture", "-i", net.ifB, "-c", Integer.toString(n), "-a", "duration:40",
                     "-w", written.toString())) {
            assertTrue(val.awaitCapturing(), val.stderr());
            assertTrue(cap.awaitCapturing(), cap.stderr());
            send(sent, 1);
            liveExit = val.await(45);
            assertEquals(0, cap.await(45), cap.stderr());
            live = json.readTree(val.stdout()).get("files").get(0);
            liveErr = val.stderr();
        }
        CliRun file = CliRun.of("validate", "-T", "json", written.toString());
        JsonNode ofFile = json.readTree(file.out()).get("files").get(0);
        assertEquals(file.exit(), liveExit, "validate's exit code");
        assertEquals(1, liveExit, "the planted violations are errors");
        assertTrue(ofFile.get("findings").size() > 0);
        // The diagnoses (MR-DIAG) are decided at the end, when a live capture's frames are gone: no byte anchor live.
        for (JsonNode f : ofFile.get("findings")) {
            if (io.metaroce.validate.RuleCatalog.isDiagnosis(f.get("rule").asText())) ((com.fasterxml.jackson.databind.node.ObjectNode) f).remove("anchor");
        }
        assertEquals(ofFile.get("findings"), live.get("findings"));
        assertEquals(ofFile.get("summary"), live.get("summary"));
        assertEquals(n, live.get("frames").asInt());
        // Streamed as decided (on stderr, the JSON document being stdout): the same findings as the end report.
        assertEquals(findingLines(ofFile.get("findings")), streamed(liveErr));
    }

    /** The findings of a JSON report as {@code validate -i} streams them, in the report's (frame) order. */
    private static List<String> findingLines(JsonNode findings) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : findings) {
            out.add(String.format(java.util.Locale.ROOT, "frame %-7d %-12s %-5s %s%s", f.get("frame").asLong(),
                    f.get("rule").asText(), f.get("severity").asText(), f.get("flow").isNull() ? "" : f.get("flow").asText() + ": ",
                    f.get("message").asText()));
        }
        return out;
    }

    /** The finding lines streamed into {@code text}, sorted as the report sorts them (frame, then rule). */
    private static List<String> streamed(String text) {
        return text.lines().filter(l -> l.startsWith("frame ")).sorted(java.util.Comparator
                .comparingLong((String l) -> Long.parseLong(l.substring(6, 14).trim())).thenComparing(l -> l.substring(14, 27)))
                .toList();
    }

    @Test
    void validateLivePrintsEachFindingBeforeTheSummary() throws Exception {
        Path sent = CAPTURES.resolve("conformance-violations.pcapng");
        int n = frames(sent).size();
        try (LiveProcess val = metaroceInB(true, "validate", "-i", net.ifB, "-c", Integer.toString(n), "-a", "duration:40")) {
            assertTrue(val.awaitCapturing(), val.stderr());
            send(sent, 1);
            assertEquals(1, val.await(45), val.stderr());
            List<String> lines = new String(val.stdout(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
            int summary = -1;
            for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(": FAIL ")) summary = summary < 0 ? i : summary;
            assertTrue(summary > 0, String.join("\n", lines));
            List<String> before = lines.subList(0, summary);
            assertTrue(before.stream().allMatch(l -> l.startsWith("frame ")), String.join("\n", before));
            assertTrue(before.stream().anyMatch(l -> l.contains(" error ")), String.join("\n", before));
            // The report's own detail lines (after the summary) are the same findings, with any frames added later.
            List<String> details = lines.subList(summary, lines.size()).stream().filter(d -> d.startsWith("  frame ")).toList();
            assertEquals(before.size(), details.size(), String.join("\n", lines));
            for (String l : before) assertTrue(details.stream().anyMatch(d -> d.trim().startsWith(l)), l);
        }
    }

    @Test
    void aPausedConsumerLosesFramesAndSaysExactlyHowMany() throws Exception {
        Path sent = CAPTURES.resolve("metaroce-spray-lossy-path.pcapng");
        // stdout is not read while the sender runs: the writer blocks on the pipe, the 32-frame queue fills.
        try (LiveProcess cap = metaroceInB(false, "capture", "-i", net.ifB, "-B", "1", "--queue", "32", "-a", "duration:40",
                "-w", "-")) {
            assertTrue(cap.awaitCapturing(), cap.stderr());
            long total = send(sent, 8);
            Thread.sleep(300);
            cap.terminate();
            Thread.sleep(500);
            cap.readStdout();
            assertEquals(0, cap.await(45), cap.stderr());
            PcapngBlocks b = PcapngBlocks.parse(cap.stdout());
            assertEquals(1, b.isbs().size(), () -> cap.stdout().length + " bytes; " + cap.stderr());
            long recv = b.isb(0, ISB_FILTERACCEPT), osdrop = b.isb(0, ISB_OSDROP), deliv = b.isb(0, ISB_USRDELIV);
            assertEquals(total, osdrop + deliv, "captured + kernel drops == sent");
            assertReceived(total, recv);
            String comment = (String) b.isbs().get(0).get(1);
            long ours = Long.parseLong(comment.replaceAll(".*dropped by metaroce \\(consumer fell behind\\): (\\d+).*", "$1"));
            assertTrue(ours > 0, "the paused consumer must cause drops: " + comment);
            assertEquals(deliv, b.packets().size() + ours, "written + dropped by us == delivered");
            assertTrue(cap.stderr().contains("by metaroce " + ours), cap.stderr());
            assertTrue(cap.stderr().contains(ours + " frames dropped because processing fell behind"), cap.stderr());
        }
    }

    @Test
    void aFullDiskEndsTheCaptureWithAValidFileAndItsStatistics() throws Exception {
        Path disk = Files.createDirectories(tmp.resolve("small"));
        assumeTrue(new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", disk.toString()).start().waitFor() == 0,
                "skipped: cannot mount a small tmpfs");
        try {
            Path out = disk.resolve("full.pcapng");
            try (LiveProcess cap = metaroceInB(true, "capture", "-i", net.ifB, "-a", "duration:40", "-w", out.toString())) {
                assertTrue(cap.awaitCapturing(), cap.stderr());
                send(CAPTURES.resolve("metaroce-spray-lossy-path.pcapng"), 4); // about 1 MB: four times the disk
                assertEquals(2, cap.await(45), cap.stderr());
                List<String> messages = cap.stderr().lines().filter(l -> l.startsWith("metaroce capture:")).toList();
                assertEquals(1, messages.size(), cap.stderr());
                assertTrue(messages.get(0).contains("No space left on device"), messages.get(0));
                PcapngBlocks b = PcapngBlocks.parse(Files.readAllBytes(out)); // strict: complete blocks only
                assertTrue(b.packets().size() > 100, "frames before the disk filled: " + b.packets().size());
                assertTrue(messages.get(0).contains("cut back to the " + b.packets().size() + " frames"), messages.get(0));
                assertEquals(1, b.isbs().size(), "statistics written after the cut");
                assertReceived(b.isb(0, ISB_OSDROP) + b.isb(0, ISB_USRDELIV), b.isb(0, ISB_FILTERACCEPT));
            }
        } finally {
            new ProcessBuilder("umount", disk.toString()).start().waitFor();
        }
    }

    /**
     * capture -P (dumpcap's "use pcap format instead of pcapng"), run beside a pcapng capture of the same traffic
     * (ng): a ring of pcap files (-b filesize) whose every file starts with pcap's magic (microseconds, as dumpcap -P
     * writes), holding together the pcapng run's frames byte for byte, in order, with its times cut to microseconds;
     * capinfos reads a pcap file as pcap. -P with -n is refused.
     */
    private void assertPcapRingHoldsThePcapngFrames(Path ng) throws Exception {
        List<Path> files;
        try (var l = Files.list(tmp)) {
            files = l.filter(p -> p.getFileName().toString().startsWith("ring_")).sorted().toList();
        }
        assertTrue(files.size() >= 2, "a ring of files: " + files);
        List<byte[]> got = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (Path f : files) {
            byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(f), 4);
            assertArrayEquals(new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1}, head, "pcap's magic 0xa1b2c3d4: " + f);
            try (PacketSource src = CaptureFiles.open(f)) {
                assertEquals(io.metaroce.capture.CaptureFormat.PCAP_US, src.format());
                while (src.next()) {
                    got.add(src.data().toArray(ValueLayout.JAVA_BYTE));
                    times.add(src.timestampNanos());
                }
            }
        }
        List<byte[]> want = frames(ng);
        assertEquals(want.size(), got.size());
        for (int i = 0; i < want.size(); i++) assertArrayEquals(want.get(i), got.get(i), "frame " + (i + 1));
        try (PacketSource src = CaptureFiles.open(ng)) {
            for (int i = 0; src.next(); i++) assertEquals(src.timestampNanos() / 1000, times.get(i) / 1000, "frame " + (i + 1) + "'s time");
        }
        Process capinfos = new ProcessBuilder("capinfos", "-t", files.getFirst().toString()).redirectErrorStream(true).start();
        String type = new String(capinfos.getInputStream().readAllBytes());
        assertEquals(0, capinfos.waitFor(), type);
        assertTrue(type.contains("File type:") && type.contains("- pcap") && !type.contains("pcapng"), type);
        CliRun both = CliRun.of("capture", "-P", "-n", "-i", net.ifB, "-w", tmp.resolve("x.pcap").toString());
        assertEquals(2, both.exit(), both.err());
        assertEquals("metaroce capture: -P (pcap) and -n (pcapng) ask for two formats: give one", both.err().strip());
    }

    /**
     * libpcap's ps_recv (isb_filteraccept) equals the frames sent; in about one run in ten on this kernel
     * (6.18, TPACKET_V3) it was one higher although every sent frame was captured or counted as dropped, so
     * one extra count is tolerated here (and reported in docs/benchmarks.md), never a missing one.
     */
    private static void assertReceived(long sent, long received) {
        assertTrue(received == sent || received == sent + 1, "isb_filteraccept " + received + " for " + sent + " frames sent");
    }

    @Test
    void anUnknownInterfaceIsOneLineAndExit2() {
        CliRun r = CliRun.of("capture", "-i", "mrnosuch0", "-w", tmp.resolve("x.pcapng").toString());
        assertEquals(2, r.exit());
        assertEquals("metaroce capture: no such interface 'mrnosuch0' (list them with: metaroce capture -D)\n", r.err());
        CliRun a = CliRun.of("analyze", "-i", "mrnosuch0");
        assertEquals(2, a.exit());
        assertEquals(1, a.err().lines().count(), a.err());
    }

    @Test
    void aBadCaptureFilterIsLibpcapsMessageOnOneLine() {
        CliRun r = CliRun.of("capture", "-i", "lo", "-f", "udp port", "-w", tmp.resolve("x.pcapng").toString());
        assertEquals(2, r.exit());
        assertEquals("metaroce capture: bad capture filter 'udp port': can't parse filter expression: syntax error\n", r.err());
    }
}
