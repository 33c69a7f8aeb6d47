package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** metaroce dissect as a user runs it: output formats, fields, filters, limits, and bad input. */
class DissectCommandTest {
    private static final String ORACLE = "../samples/reference/roce_v4_oracle.pcap";
    private static final String EDGE = "../samples/reference/roce_edge.pcap";
    private static final String V6 = "../samples/reference/roce_v6.pcap";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void jsonlHasExactlyTheDocumentedShapePerFrame() throws Exception {
        CliRun r = CliRun.of("dissect", "-r", V6, "-T", "jsonl");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(2, lines.size());
        JsonNode f = JSON.readTree(lines.get(0));
        Set<String> keys = new TreeSet<>();
        f.fieldNames().forEachRemaining(keys::add);
        assertEquals(new TreeSet<>(List.of("frame", "time_ns", "len", "cap_len", "protocols", "fields", "expert")), keys);
        assertEquals(1, f.get("frame").asInt());
        assertTrue(f.get("time_ns").isTextual(), "beyond 2^53: a string, so jq and JavaScript keep every digit");
        assertEquals(1700000100000000000L, Long.parseLong(f.get("time_ns").asText()));
        assertEquals("eth:ipv6:udp:bth:reth", f.get("protocols").asText());
        JsonNode fields = f.get("fields");
        assertEquals("fd00::10", fields.get("ipv6.src").asText(), "IPv6 in RFC 5952 form");
        assertEquals(300, fields.get("bth.psn").asInt());
        assertTrue(fields.get("bth.se").isBoolean());
        assertTrue(fields.get("bth.dest_qp").isIntegralNumber());
        assertEquals("02:00:00:00:00:0a", fields.get("eth.src").asText());
        assertEquals(0x00042d4aL, fields.get("icrc.value").asLong());
        assertEquals("good", fields.get("icrc.status").asText());
        assertTrue(f.get("expert").isArray());
    }

    @Test
    void jsonIsOneArrayOfTheSameObjects() throws Exception {
        CliRun r = CliRun.of("dissect", "-r", ORACLE, "-T", "json", "-c", "3");
        assertEquals(0, r.exit(), r.err());
        JsonNode a = JSON.readTree(r.out());
        assertTrue(a.isArray());
        assertEquals(3, a.size());
        assertEquals(200, a.get(1).get("fields").get("bth.psn").asInt());
        assertEquals(2560, a.get(1).get("fields").get("reth.dma_length").asInt());
    }

    @Test
    void fieldsOutputWithHeaderAliasesAndFilter() {
        CliRun r = CliRun.of("dissect", "-r", ORACLE, "-T", "fields", "-E", "header=y", "-e", "frame.number", "-e",
                "infiniband.bth.psn", "-e", "aeth.syndrome.code", "-Y", "bth.opcode == 0x11 && aeth.syndrome.kind == nak");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("frame.number\tinfiniband.bth.psn\taeth.syndrome.code",
                "11\t207\t0", "21\t214\t1", "22\t214\t2", "23\t214\t3"), r.out().lines().toList(),
                "the same frames tshark selects with infiniband.aeth.syndrome.opcode == 3; the header names the columns as asked, as tshark's");
    }

    @Test
    void displayFilterOnIcrcAndHexFields() {
        CliRun bad = CliRun.of("dissect", "-r", EDGE, "-T", "fields", "-e", "frame.number", "-e", "icrc.value", "-Y", "icrc.status == \"bad\"");
        assertEquals(List.of("4\t0xefbeadde"), bad.out().lines().toList());
        CliRun qp = CliRun.of("dissect", "-r", ORACLE, "-T", "fields", "-e", "frame.number", "-Y", "infiniband.bth.destqp == 0x11 and not aeth");
        assertEquals(List.of("8", "13"), qp.out().lines().toList());
    }

    @Test
    void manyBatchesOnTwoWorkersComeOutWholeAndInOrder(@TempDir Path tmp) throws Exception {
        // 7 batches of 2,048 frames: each worker renders into buffers that go round between it and the writer,
        // which writes a whole batch at once; a reused buffer's stale or missing bytes break a line or the order.
        Path cap = tmp.resolve("many.pcap");
        CliRun sim = CliRun.of("simulate", "--scenario", "rocev2-clean", "--frames", "13000", "--format", "pcap",
                "--out", cap.toString(), "--no-progress");
        assertEquals(0, sim.exit(), sim.err());
        CliRun two = CliRun.of("dissect", "-r", cap.toString(), "-T", "jsonl", "--threads", "2");
        assertEquals(0, two.exit(), two.err());
        List<String> lines = two.out().lines().toList();
        assertEquals(13000, lines.size());
        for (int i = 0; i < lines.size(); i++) {
            assertEquals(i + 1, JSON.readTree(lines.get(i)).get("frame").asInt(), "line " + (i + 1));
        }
        assertEquals(two.out(), CliRun.of("dissect", "-r", cap.toString(), "-T", "jsonl", "--threads", "1").out());
        // -c ending inside a batch: the writer's frame-by-frame path for that batch.
        List<String> cut = CliRun.of("dissect", "-r", cap.toString(), "-T", "jsonl", "--threads", "2", "-c", "5000")
                .out().lines().toList();
        assertEquals(lines.subList(0, 5000), cut);
    }

    @Test
    void countStopsAfterNMatchingFrames() {
        CliRun r = CliRun.of("dissect", "-r", ORACLE, "-c", "4", "-Y", "reth");
        assertEquals(4, r.out().lines().count());
        assertTrue(r.out().contains("RC RDMA WRITE First"));
    }

    @Test
    void verboseTreeShowsEveryHeaderAndTheIcrcVerdict() {
        CliRun r = CliRun.of("dissect", "-r", EDGE, "-V", "-Y", "frame.number == 4");
        assertTrue(r.out().contains("Base Transport Header (BTH)"));
        assertTrue(r.out().contains("Opcode: RC RDMA WRITE Only (0x0a)  [bth.opcode]"), r.out());
        assertTrue(r.out().contains("Invariant CRC: 0xefbeadde [bad, computed 0x"), r.out());
        assertTrue(r.out().contains("Expert (error/checksum): bad ICRC"), r.out());
    }

    @Test
    void quietSummaryCountsFramesProtocolsIcrcAndExpertItems() {
        CliRun r = CliRun.of("dissect", "-r", EDGE, "-q");
        assertEquals(0, r.exit());
        assertTrue(r.out().contains("Frames: 6, bytes: "), r.out());
        assertTrue(r.out().contains("ICRC: good 4, bad 1, unchecked 0"), r.out());
        assertTrue(r.out().contains("error (checksum) x1, first in frame 4: bad ICRC 0xefbeadde"), r.out());
        assertTrue(r.out().contains("warn (undecoded) x1, first in frame 1: opcode 0x80: CNP class"), r.out());
    }

    @Test
    void decodeAsAddsARocePort() {
        CliRun r = CliRun.of("dissect", "-r", EDGE, "-d", "udp.port==4792,infiniband", "-T", "fields", "-e", "bth.psn", "-Y", "udp.dstport == 4792");
        assertEquals(List.of("503"), r.out().lines().toList());
    }

    @Test
    void badFilterIsAClearErrorPointingAtTheColumn() {
        CliRun r = CliRun.of("dissect", "-r", ORACLE, "-Y", "bth.psn == 1 && bth.nosuch");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("\"bth.nosuch\" is not a valid protocol or protocol field"), r.err());
        assertTrue(r.err().contains("(column 17)"), "the column of the problem: " + r.err());
        assertEquals(1, r.err().lines().count(), "one line (the caret picture only on a terminal): " + r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void unknownFieldAndMissingFileAreClearErrors(@TempDir Path tmp) throws Exception {
        CliRun f = CliRun.of("dissect", "-r", ORACLE, "-T", "fields", "-e", "bth.nosuch");
        assertEquals(2, f.exit());
        assertTrue(f.err().contains("'bth.nosuch' is not a valid field"), f.err());
        Path text = Files.writeString(tmp.resolve("notes.txt"), "Hello, this is not a capture\n");
        CliRun g = CliRun.of("dissect", "-r", text.toString());
        assertEquals(2, g.exit());
        assertTrue(g.err().contains("not a pcap or pcapng file"), g.err());
        assertFalse(g.err().contains("\tat "), "no stack trace");
        CliRun m = CliRun.of("dissect", "-r", tmp.resolve("missing.pcap").toString());
        assertEquals(2, m.exit());
        assertFalse(m.err().contains("\tat "), m.err());
    }

    @Test
    void cutCaptureYieldsEveryCompleteFrameAndNamesTheOffset(@TempDir Path tmp) throws Exception {
        byte[] all = Files.readAllBytes(Path.of(ORACLE));
        int cutAt = all.length / 2;
        // Complete records before the cut: 24-byte file header, then 16-byte record headers with incl_len at +8 (little-endian).
        int complete = 0, recordStart = 0;
        for (int p = 24; p + 16 <= all.length; complete++) {
            int incl = java.nio.ByteBuffer.wrap(all, p + 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
            if (p + 16 + incl > cutAt) { recordStart = p; break; }
            p += 16 + incl;
        }
        Path cut = Files.write(tmp.resolve("cut.pcap"), java.util.Arrays.copyOf(all, cutAt));
        CliRun r = CliRun.of("dissect", "-r", cut.toString(), "-T", "fields", "-e", "frame.number");
        assertEquals(2, r.exit(), "a damaged capture exits 2, as in tshark: " + r.err());
        assertEquals(complete, r.out().lines().count(), "every complete frame before the cut");
        assertTrue(r.err().contains("at byte " + recordStart), r.err());
    }

    @Test
    void everyFieldIsListedWithItsType() {
        CliRun r = CliRun.of("dissect", "--list-fields");
        for (String f : List.of("bth.psn", "mrth.path_id", "sacketh.bitmap", "nacketh.reason", "crediteth.granted_psn",
                "mrcnpeth.rate_hint", "probeeth.probe_seq", "cm_req.local_qpn", "icrc.status", "analysis.retransmission")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(f + "\t")), f);
        }
        assertTrue(r.out().contains("(alias: infiniband.bth.psn)"));
    }

    @Test
    void analysisFieldsAreFilterableAndPrintedNextToTheDissection() throws Exception {
        // rocev2-gbn-loss: go-back-N after NAKs; the simulator's truth labels those frames retransmission/nak.
        CliRun r = CliRun.of("dissect", "-r", "../samples/captures/rocev2-gbn-loss.pcapng", "-T", "fields", "-e", "frame.number",
                "-e", "analysis.retransmission_cause", "-Y", "analysis.retransmission == true");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertFalse(lines.isEmpty());
        JsonNode truth = JSON.readTree(Path.of("../samples/captures/rocev2-gbn-loss.truth.json").toFile());
        Set<String> expected = new TreeSet<>();
        for (JsonNode f : truth.get("frames")) {
            JsonNode labels = f.get("labels");
            if (labels != null && labels.has("retransmission")) {
                String cause = labels.get("retransmission").isTextual() ? labels.get("retransmission").asText()
                        : labels.get("retransmission").path("cause").asText();
                expected.add(f.get("n").asInt() + "\t" + cause);
            }
        }
        assertEquals(expected, new TreeSet<>(lines), "frames and causes the ground truth gives");
        CliRun j = CliRun.of("dissect", "-r", "../samples/captures/rocev2-gbn-loss.pcapng", "-A", "-T", "jsonl", "-c", "5");
        assertTrue(JSON.readTree(j.out().lines().toList().get(4)).get("fields").has("analysis.flow"), j.out());
    }

    /**
     * -z follow,roce: a QP connection's payload (rocev2-read-atomic's stream 1: WRITEs one way, READ responses the
     * other), in raw, hex, ascii and yaml, compared with the payload.data of the frames its own Filter line selects,
     * read by -T fields: both nodes, capture order, node 1 after a tab; the flow id names the same stream; a stream
     * that does not exist prints tshark's empty frame and says why on stderr; bad modes and streams say tshark's words.
     */
    @Test
    void followRoceStreamPrintsTheConnectionsPayloadInEachMode() {
        String cap = "../samples/captures/rocev2-read-atomic.pcapng";
        CliRun raw = CliRun.of("dissect", "-r", cap, "-q", "-z", "follow,roce,raw,1");
        assertEquals(0, raw.exit(), raw.err());
        List<String> l = raw.out().lines().toList();
        String rule = "=".repeat(67);
        assertEquals(List.of("", rule, "Follow: roce,raw"), l.subList(0, 3), "tshark's opening lines");
        assertEquals(rule, l.get(l.size() - 1));
        String filter = l.get(3).substring("Filter: ".length());
        assertTrue(l.get(4).startsWith("Node 0: ") && l.get(5).startsWith("Node 1: "), raw.out());
        String node0 = filter.split("\"")[1];
        CliRun ref = CliRun.of("dissect", "-r", cap, "-T", "fields", "-e", "frame.number", "-e", "analysis.flow", "-e",
                "payload.data", "-Y", filter);
        List<String> expected = new java.util.ArrayList<>(), frames = new java.util.ArrayList<>();
        java.util.Map<Integer, StringBuilder> perNode = new java.util.HashMap<>(java.util.Map.of(0, new StringBuilder(), 1, new StringBuilder()));
        for (String row : ref.out().lines().toList()) {
            String[] f = row.split("\t");
            if (f.length < 3) continue; // no payload (ACKs, READ requests): no block, as tshark skips empty ones
            int node = f[1].equals(node0) ? 0 : 1;
            expected.add((node == 1 ? "\t" : "") + f[2]);
            frames.add(f[0]);
            perNode.get(node).append(f[2]);
        }
        assertTrue(expected.stream().anyMatch(e -> e.startsWith("\t")) && expected.stream().anyMatch(e -> !e.startsWith("\t")),
                "both directions carry payload: " + expected.size() + " blocks");
        assertEquals(expected, l.subList(6, l.size() - 1), "each frame's payload.data, in capture order, node 1 after a tab");

        CliRun hex = CliRun.of("dissect", "-r", cap, "-q", "-z", "follow,roce,hex,1");
        StringBuilder[] dumped = {new StringBuilder(), new StringBuilder()};
        for (String line : hex.out().lines().toList()) {
            if (!line.matches("\t?[0-9A-F]{8}  .*")) continue;
            int node = line.startsWith("\t") ? 1 : 0;
            String bytes = line.strip().substring(10, Math.min(line.strip().length(), 59));
            dumped[node].append(bytes.replaceAll("[^0-9a-f]", ""));
        }
        assertEquals(perNode.get(0).toString(), dumped[0].toString(), "node 0's bytes in the hex dump");
        assertEquals(perNode.get(1).toString(), dumped[1].toString(), "node 1's bytes in the hex dump");

        CliRun ascii = CliRun.of("dissect", "-r", cap, "-q", "-z", "follow,roce,ascii,1");
        List<String> counts = ascii.out().lines().filter(x -> x.matches("\t?[0-9]+")).toList();
        assertEquals(expected.stream().map(e -> (e.startsWith("\t") ? "\t" : "") + e.strip().length() / 2).toList(), counts,
                "ascii: each block's length line, node 1's after a tab");

        CliRun yaml = CliRun.of("dissect", "-r", cap, "-q", "-z", "follow,roce,yaml," + node0);
        assertTrue(yaml.out().startsWith("peers:\n  - peer: 0\n"), yaml.out());
        assertEquals(frames, yaml.out().lines().filter(x -> x.startsWith("  - packet: ")).map(x -> x.substring(12)).toList(),
                "yaml: the frames with payload; the flow id names stream 1");
        StringBuilder decoded = new StringBuilder();
        for (String part : yaml.out().split("data: !!binary \\|\n")) {
            if (part.startsWith("peers:")) continue;
            String b64 = part.lines().takeWhile(x -> x.startsWith("      ")).map(String::strip).reduce("", String::concat);
            decoded.append(java.util.HexFormat.of().formatHex(java.util.Base64.getDecoder().decode(b64)));
        }
        assertEquals(String.join("", expected).replace("\t", ""), decoded.toString(), "yaml: base64 of the same bytes");

        CliRun both = CliRun.of("dissect", "-r", cap, "-q", "-z", "follow,roce,hex,1", "-z", "follow,roce,raw,1,2-3");
        assertTrue(both.out().indexOf("Follow: roce,raw") < both.out().indexOf("Follow: roce,hex"), "the last -z first, as tshark");
        List<String> ranged = both.out().lines().toList();
        assertEquals(expected.subList(1, 3), ranged.subList(6, 8), "RANGE 2-3: the second and third blocks");
        assertEquals(rule, ranged.get(8));

        CliRun none = CliRun.of("dissect", "-r", cap, "-q", "-z", "follow,roce,hex,99");
        assertEquals(0, none.exit(), none.err());
        assertTrue(none.out().contains("Node 0: :0\nNode 1: :0\n" + rule), "tshark's empty frame: " + none.out());
        assertTrue(none.err().contains("no stream 99 (the capture has "), none.err());
        CliRun mode = CliRun.of("dissect", "-r", cap, "-q", "-z", "follow,roce,ebcdic,1");
        assertEquals(2, mode.exit());
        assertTrue(mode.err().startsWith("metaroce dissect: follow - Invalid display mode."), mode.err());
        CliRun stream = CliRun.of("dissect", "-r", cap, "-q", "-z", "follow,roce,hex,abc");
        assertEquals(2, stream.exit());
        assertTrue(stream.err().startsWith("metaroce dissect: follow - Invalid address."), stream.err());
        CliRun udp = CliRun.of("dissect", "-r", cap, "-q", "-z", "follow,udp,hex,0");
        assertEquals(2, udp.exit());
        assertTrue(udp.err().contains("UDP port 4791 carries every QP") && !udp.err().contains("Exception"), udp.err());
    }

    /**
     * -z roce,srt: per operation, the calls and times agree with the requests' analysis.ack_rtt_ns read with -T fields
     * (each request's Last/Only packet, retransmissions left out), the open requests with those the analysis found no
     * response for; a FILTER picks requests; several tables in one run print the last first; an empty capture still
     * prints tshark's header and footer.
     */
    @Test
    void srtAddsUpTheRequestsAnalysisTimes(@TempDir Path tmp) throws Exception {
        Map<Integer, String> procedures = new java.util.HashMap<>();
        for (int op : new int[] {0x02, 0x03, 0x04, 0x05, 0x16, 0x17}) procedures.put(op, "0 SEND");
        for (int op = 0x08; op <= 0x0b; op++) procedures.put(op, "1 RDMA WRITE");
        procedures.put(0x0c, "2 RDMA READ");
        procedures.put(0x13, "3 Compare & Swap");
        procedures.put(0x14, "4 Fetch & Add");
        for (String sample : List.of("rocev2-read-atomic", "rocev2-hang")) {
            String capture = "../samples/captures/" + sample + ".pcapng";
            CliRun f = CliRun.of("dissect", "-r", capture, "-T", "fields", "-e", "bth.opcode", "-e", "analysis.flow",
                    "-e", "analysis.retransmission", "-e", "analysis.acked_by_frame", "-e", "analysis.ack_rtt_ns");
            assertEquals(0, f.exit(), f.err());
            Map<String, List<Long>> times = new java.util.TreeMap<>();
            long open = 0, openReads = 0;
            for (String line : f.out().lines().toList()) {
                String[] c = line.split("\t", -1);
                String proc = c[0].isEmpty() ? null : procedures.get(Integer.decode(c[0]));
                if (proc == null || c[1].isEmpty() || !c[2].isEmpty()) continue;
                if (!c[4].isEmpty()) times.computeIfAbsent(proc, k -> new java.util.ArrayList<>()).add(Long.parseLong(c[4]));
                else if (c[3].isEmpty()) {
                    open++;
                    if (proc.endsWith("READ")) openReads++;
                }
            }
            assertFalse(times.isEmpty(), sample);
            StringBuilder rows = new StringBuilder();
            for (var e : times.entrySet()) {
                List<Long> ns = e.getValue();
                long sum = ns.stream().mapToLong(Long::longValue).sum();
                String[] p = e.getKey().split(" ", 2);
                rows.append(String.format(java.util.Locale.ROOT, "%5s  %-22s %6d %s %s %s %s\n", p[0], p[1], ns.size(),
                        secs(java.util.Collections.min(ns)), secs(java.util.Collections.max(ns)), secs(sum / ns.size()), secs(sum)));
            }
            CliRun z = CliRun.of("dissect", "-r", capture, "-q", "-z", "roce,srt", "-z", "roce,srt,bth.opcode == 0x0c");
            assertEquals(0, z.exit(), z.err());
            String header = "\n===================================================================\nRoCE SRT Statistics:\nFilter: bth.opcode\n"
                    + "Index  Procedure              Calls    Min SRT    Max SRT    Avg SRT    Sum SRT\n";
            String footer = "==================================================================\n";
            String reads = rows.toString().lines().filter(l -> l.contains("RDMA READ")).map(l -> l + "\n").collect(java.util.stream.Collectors.joining());
            // The last -z first (tshark's order): the READs alone, then every operation.
            assertEquals(header + reads + "Open requests: " + openReads + "\n" + footer
                    + header + rows + "Open requests: " + open + "\n" + footer, z.out(), sample);
            if (sample.equals("rocev2-hang")) assertTrue(open > 0, "a hang leaves requests unanswered");
        }
        Path empty = Files.write(tmp.resolve("empty.pcap"), new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1, 2, 0, 4, 0,
                0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 0, 0, 1, 0, 0, 0});
        CliRun e = CliRun.of("dissect", "-r", empty.toString(), "-q", "-z", "roce,srt");
        assertEquals(0, e.exit(), e.err());
        assertEquals("\n===================================================================\nRoCE SRT Statistics:\nFilter: bth.opcode\n"
                + "Index  Procedure              Calls    Min SRT    Max SRT    Avg SRT    Sum SRT\nOpen requests: 0\n"
                + "==================================================================\n", e.out());
    }

    /**
     * --disable-protocol: RoCE (bth, any of its names) off leaves no bth.* field and analyze no QP; MetaRoCE (mrth) off
     * reads tver 1 frames as a BTH and data; --enable-protocol undoes it; unknown or unswitchable names are one line.
     */
    @Test
    void disabledProtocolsAreDataAndNamesAreChecked() throws Exception {
        String spray = "../samples/captures/metaroce-spray-lossy-path.pcapng";
        CliRun on = CliRun.of("dissect", "-r", spray, "-T", "fields", "-e", "frame.protocols", "-e", "bth.psn");
        CliRun off = CliRun.of("dissect", "-r", spray, "-T", "fields", "-e", "frame.protocols", "-e", "bth.psn", "--disable-protocol", "roce");
        assertEquals(0, off.exit(), off.err());
        assertTrue(on.out().contains(":bth"), on.out());
        assertEquals(on.out().lines().count(), off.out().lines().count());
        assertTrue(off.out().lines().allMatch(l -> l.equals("eth:ip:udp\t")), off.out());
        CliRun again = CliRun.of("dissect", "-r", spray, "-T", "fields", "-e", "frame.protocols", "-e", "bth.psn",
                "--disable-protocol", "infiniband", "--enable-protocol", "bth");
        assertEquals(on.out(), again.out(), "enabled again");
        CliRun analyze = CliRun.of("analyze", "-r", spray, "--disable-protocol", "bth", "-T", "json");
        assertEquals(0, analyze.exit(), analyze.err());
        assertEquals(0, JSON.readTree(analyze.out()).get("flows").size(), "no QP without RoCE");
        assertTrue(JSON.readTree(CliRun.of("analyze", "-r", spray, "-T", "json").out()).get("flows").size() > 0);

        CliRun meta = CliRun.of("dissect", "-r", spray, "--disable-protocol", "metaroce", "-T", "fields", "-e", "frame.protocols",
                "-e", "bth.tver", "-e", "_ws.col.protocol", "-Y", "bth.tver == 1");
        assertEquals(0, meta.exit(), meta.err());
        List<String> lines = meta.out().lines().toList();
        assertTrue(lines.size() > 300, meta.out());
        assertTrue(lines.stream().allMatch(l -> l.equals("eth:ip:udp:bth\t1\tRoCEv2")), meta.out());

        for (String[] bad : new String[][] {{"nosuch", "--disable-protocol nosuch: no such protocol"},
                {"reth", "--disable-protocol reth: cannot be switched off alone here"}}) {
            CliRun r = CliRun.of("dissect", "-r", spray, "--disable-protocol", bad[0]);
            assertEquals(2, r.exit(), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("metaroce dissect: " + bad[1]), r.err());
            assertTrue(r.err().contains("the protocols that can: bth (roce, infiniband), mrth (metaroce)"), r.err());
        }
        CliRun a = CliRun.of("analyze", "-r", spray, "--disable-protocol", "metaroce");
        assertEquals(2, a.exit(), a.err());
        assertTrue(a.err().contains("MetaRoCE (mrth, metaroce) can be switched off in dissect and the GUI only"), a.err());
    }

    /** ns as tshark's srt column: seconds with 6 decimals, rounded to the microsecond. */
    private static String secs(long ns) {
        long us = (ns + 500) / 1000;
        return String.format(java.util.Locale.ROOT, "%3d.%06d", us / 1_000_000L, us % 1_000_000L);
    }

    static Iterator<String> lines(String s) { return s.lines().iterator(); }
}
