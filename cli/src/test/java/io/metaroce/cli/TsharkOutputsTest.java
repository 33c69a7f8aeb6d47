package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.testsupport.Tools;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * dissect's tshark output layouts and options beyond -T fields/json: -T ek, pdml, psml, tabs; _ws.col.* and
 * frame.time with -e; -j/-J, -l, -u, -Q, -R with -2. In-process, plus tshark as the second opinion on EK, PDML
 * and the summary's columns (skipped only where tshark is not installed and not on CI).
 */
class TsharkOutputsTest {
    private static final String GBN = "../samples/captures/rocev2-gbn-loss.pcapng";
    private static final String ORACLE = "../samples/reference/roce_v4_oracle.pcap";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void ekIsTsharksBulkLayoutWithWiresharkKeys() throws Exception {
        CliRun r = CliRun.of("dissect", "-r", GBN, "-T", "ek", "-c", "6");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(12, lines.size(), "an index line and a document per frame");
        List<String> psns = CliRun.of("dissect", "-r", GBN, "-T", "fields", "-e", "bth.psn", "-c", "6").out().lines().toList();
        List<String> sources = CliRun.of("dissect", "-r", GBN, "-T", "fields", "-e", "ip.src", "-c", "6").out().lines().toList();
        for (int i = 0; i < 6; i++) {
            assertEquals("{\"index\":{\"_index\":\"packets-2026-01-01\",\"_type\":\"doc\"}}", lines.get(2 * i));
            JsonNode doc = JSON.readTree(lines.get(2 * i + 1));
            assertEquals("1767225600000", doc.get("timestamp").asText(), "milliseconds since the epoch, as a string");
            JsonNode layers = doc.get("layers");
            assertEquals(List.of("frame", "eth", "ip", "udp", "infiniband"), names(layers).subList(0, 5), "tshark's layers, in its order");
            assertEquals(Integer.toString(i + 1), layers.get("frame").get("frame_frame_number").asText());
            assertEquals(psns.get(i), layers.get("infiniband").get("infiniband_infiniband_bth_psn").asText());
            assertTrue(layers.get("infiniband").get("infiniband_infiniband_bth_se").isBoolean(), "flags as JSON booleans, as tshark's");
            assertEquals(sources.get(i), layers.get("ip").get("ip_ip_src").asText());
            assertTrue(layers.get("udp").get("udp_udp_srcport").isTextual(), "numbers as strings, as tshark's");
        }
    }

    @Test
    void ekWithFieldsAndProtocolFilter() throws Exception {
        CliRun r = CliRun.of("dissect", "-r", GBN, "-T", "ek", "-c", "1", "-e", "frame.number", "-e", "infiniband.bth.psn",
                "-e", "_ws.col.Info", "-e", "ip.flags.df");
        assertEquals(0, r.exit(), r.err());
        JsonNode layers = JSON.readTree(r.out().lines().toList().get(1)).get("layers");
        assertEquals(List.of("frame_number", "infiniband_bth_psn", "_ws_col_Info", "ip_flags_df"), names(layers));
        assertEquals("1", layers.get("frame_number").get(0).asText());
        assertEquals("1136741", layers.get("infiniband_bth_psn").get(0).asText());
        assertTrue(layers.get("_ws_col_Info").get(0).asText().contains("ConnectRequest"));

        CliRun j = CliRun.of("dissect", "-r", GBN, "-T", "ek", "-c", "5", "-j", "bth udp");
        assertEquals(0, j.exit(), j.err());
        JsonNode l = JSON.readTree(j.out().lines().toList().get(9)).get("layers");
        assertEquals("frame", l.get("frame").get("filtered").asText(), "a layer left out is marked, as tshark's");
        assertEquals("ip", l.get("ip").get("filtered").asText());
        assertTrue(l.get("udp").has("udp_udp_srcport"));
        assertTrue(l.get("infiniband").has("infiniband_infiniband_bth_psn"));
        assertFalse(l.get("infiniband").has("infiniband_infiniband_reth_va"), "-j bth: the BTH of the infiniband layer only");

        CliRun json = CliRun.of("dissect", "-r", GBN, "-T", "jsonl", "-c", "1", "-J", "bth");
        for (String k : names(JSON.readTree(json.out()).get("fields"))) assertTrue(k.startsWith("bth."), k);
    }

    @Test
    void pdmlIsXmlWithAFieldPerValue() throws Exception {
        CliRun r = CliRun.of("dissect", "-r", ORACLE, "-T", "pdml");
        assertEquals(0, r.exit(), r.err());
        Document doc = xml(r.out());
        NodeList packets = doc.getDocumentElement().getElementsByTagName("packet");
        assertEquals(CliRun.of("dissect", "-r", ORACLE).out().lines().count(), packets.getLength());
        Element second = (Element) packets.item(1);
        Map<String, Element> fields = fieldsByName(second);
        assertEquals("2", fields.get("num").getAttribute("show"));
        assertEquals("200", fields.get("infiniband.bth.psn").getAttribute("show"));
        Element psn = fields.get("infiniband.bth.psn");
        assertEquals("3", psn.getAttribute("size"));
        assertEquals("0000c8", psn.getAttribute("value"), "the field's bytes at pos, in hex");
        assertEquals(42 + 9, Integer.parseInt(psn.getAttribute("pos")), "the PSN: bytes 9-11 of the BTH at 42");
        assertTrue(fields.get("infiniband.reth.dmalen").getAttribute("showname").endsWith(": 2560"));
        List<String> protos = new ArrayList<>();
        NodeList p = second.getElementsByTagName("proto");
        for (int i = 0; i < p.getLength(); i++) protos.add(((Element) p.item(i)).getAttribute("name"));
        assertEquals(List.of("geninfo", "frame", "eth", "ip", "udp", "infiniband", "payload"), protos,
                "the analysis layer only with -A (or an analysis field)");
    }

    @Test
    void psmlAndTabsAndWsColumnsAreTheSummaryLine() throws Exception {
        List<String> text = CliRun.of("dissect", "-r", ORACLE).out().lines().toList();
        List<String> tabs = CliRun.of("dissect", "-r", ORACLE, "-T", "tabs").out().lines().toList();
        assertEquals(text.size(), tabs.size());
        for (int i = 0; i < text.size(); i++) {
            assertEquals(8, tabs.get(i).split("\t").length, tabs.get(i));
            assertEquals(text.get(i), tabs.get(i).replace("\t\u2192\t", " \u2192 ").replace('\t', ' '));
        }
        CliRun cols = CliRun.of("dissect", "-r", ORACLE, "-T", "fields", "-e", "_ws.col.No.", "-e", "_ws.col.Time", "-e",
                "_ws.col.Source", "-e", "_ws.col.Destination", "-e", "_ws.col.Protocol", "-e", "_ws.col.Length", "-e", "_ws.col.info");
        assertEquals(0, cols.exit(), cols.err());
        List<String> c = cols.out().lines().toList();
        Document psml = xml(CliRun.of("dissect", "-r", ORACLE, "-T", "psml").out());
        NodeList packets = psml.getDocumentElement().getElementsByTagName("packet");
        assertEquals(text.size(), packets.getLength());
        for (int i = 0; i < text.size(); i++) {
            String[] f = c.get(i).split("\t");
            assertEquals(text.get(i).strip(), (f[0] + " " + f[1] + " " + f[2] + " \u2192 " + f[3] + " " + f[4] + " " + f[5] + " " + f[6]));
            NodeList sections = ((Element) packets.item(i)).getElementsByTagName("section");
            for (int k = 0; k < 7; k++) assertEquals(f[k], sections.item(k).getTextContent());
        }
        CliRun t = CliRun.of("dissect", "-r", GBN, "-c", "1", "-T", "fields", "-e", "frame.time", "-e", "frame.time_utc",
                "-e", "frame.encap_type", "-e", "_ws.col.Time", "-t", "ud");
        assertEquals("Jan  1, 2026 00:00:00.000001000 UTC\tJan  1, 2026 00:00:00.000001000 UTC\t1\t2026-01-01 00:00:00.000001000",
                t.out().strip(), "tshark's frame.time layout; _ws.col.Time as -t formats it");
    }

    @Test
    void secondsAsHoursMinutesAndSeconds() throws Exception {
        // Three frames of the oracle, moved to 0 s, 65 s and 3725 s.
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(Path.of(ORACLE))).order(ByteOrder.LITTLE_ENDIAN);
        int pos = 24;
        int base = b.getInt(pos);
        int[] shift = {0, 65, 3725};
        for (int s : shift) {
            b.putInt(pos, base + s);
            pos += 16 + b.getInt(pos + 8);
        }
        Path f = tmp.resolve("hms.pcap");
        Files.write(f, java.util.Arrays.copyOf(b.array(), pos));
        List<String> hms = CliRun.of("dissect", "-r", f.toString(), "-u", "hms").out().lines().toList();
        assertTrue(hms.get(0).startsWith("     1 0.000000000s "), hms.get(0));
        // The oracle's frames are 1 ms apart before the shift.
        assertTrue(hms.get(1).startsWith("     2 1m  5.001000000s "), hms.get(1));
        assertTrue(hms.get(2).startsWith("     3 1h  2m  5.002000000s "), hms.get(2));
        List<String> delta = CliRun.of("dissect", "-r", f.toString(), "-u", "hms", "-t", "d.3").out().lines().toList();
        assertTrue(delta.get(2).startsWith("     3 1h  1m  0.001s "), delta.get(2));
        assertEquals(CliRun.of("dissect", "-r", f.toString()).out(), CliRun.of("dissect", "-r", f.toString(), "-u", "s").out());
    }

    @Test
    void readFilterQuietAndFlushOptions() {
        CliRun alone = CliRun.of("dissect", "-r", ORACLE, "-R", "bth");
        assertEquals(2, alone.exit());
        assertEquals("metaroce dissect: -R without -2 is deprecated. For single-pass filtering use -Y.", alone.err().strip());
        CliRun r = CliRun.of("dissect", "-r", ORACLE, "-2", "-R", "bth.opcode == 0x11", "-T", "fields", "-e", "frame.number");
        CliRun y = CliRun.of("dissect", "-r", ORACLE, "-Y", "bth.opcode == 0x11", "-T", "fields", "-e", "frame.number");
        assertEquals(0, r.exit(), r.err());
        assertEquals(y.out(), r.out());
        CliRun both = CliRun.of("dissect", "-r", ORACLE, "-2", "-R", "bth.opcode == 0x11", "-Y", "aeth.syndrome.kind == nak",
                "-T", "fields", "-e", "frame.number");
        assertEquals(List.of("11", "21", "22", "23"), both.out().lines().toList(), "-R and -Y both apply");

        CliRun q = CliRun.of("dissect", "-r", ORACLE, "-Q");
        assertEquals(0, q.exit(), q.err());
        assertEquals("", q.out() + q.err(), "-Q: nothing but errors");
        CliRun qz = CliRun.of("dissect", "-r", ORACLE, "-Q", "-z", "io,phs");
        assertTrue(qz.out().contains("Protocol Hierarchy Statistics"), qz.out());

        assertEquals(CliRun.of("dissect", "-r", GBN).out(), CliRun.of("dissect", "-r", GBN, "-l").out());
        assertEquals(CliRun.of("dissect", "-r", GBN, "-T", "ek").out(), CliRun.of("dissect", "-r", GBN, "-T", "ek", "-l", "--threads", "3").out());
    }

    @Test
    void mistakesAreOneLine() {
        assertEquals("metaroce dissect: Invalid seconds type \"x\"; it must be one of: s (seconds), hms (hours, minutes and seconds)",
                CliRun.of("dissect", "-r", ORACLE, "-u", "x").err().strip());
        assertEquals("metaroce dissect: -j and -J select the protocols of -T json, jsonl, ek or pdml, not of -T text",
                CliRun.of("dissect", "-r", ORACLE, "-j", "ip").err().strip());
        assertTrue(CliRun.of("dissect", "-r", ORACLE, "-T", "ek", "-j", "ipx").err().startsWith("metaroce dissect: -j ipx: no such protocol here (one of "));
        assertEquals("metaroce dissect: -e _ws.col.Info is for -T fields and -T ek (-T json has the fields only)",
                CliRun.of("dissect", "-r", ORACLE, "-T", "json", "-e", "_ws.col.Info").err().strip());
        CliRun pdmlE = CliRun.of("dissect", "-r", ORACLE, "-T", "pdml", "-e", "bth.psn");
        assertEquals(2, pdmlE.exit());
        assertTrue(pdmlE.err().contains("\"-T ek\" was not specified"), pdmlE.err());
    }

    // --- tshark as the second opinion -------------------------------------------------------------------------

    /**
     * -z follow: our hex and ascii blocks are tshark's own layout. tshark follows the UDP stream of the CM MADs
     * (both directions); its raw section gives each block's bytes and node, which our formatter renders again: the
     * hex dump (per-node offsets, node 1 after a tab) and ascii text must equal tshark's, and the opening and closing
     * lines must match ours. One tshark run, three -z.
     */
    @Test
    void followLayoutIsTsharksFollowUdp() {
        List<String> t = Tools.lines(tmp, List.of("tshark", "-r", GBN, "-q", "-z", "follow,udp,hex,0", "-z", "follow,udp,raw,0",
                "-z", "follow,udp,ascii,0"));
        assumeTrue(t != null, "tshark not installed (CI installs it)");
        String rule = "=".repeat(67);
        java.util.Map<String, List<String>> body = new java.util.HashMap<>();
        for (int i = 0; i < t.size(); i++) {
            if (!t.get(i).startsWith("Follow: udp,")) continue;
            assertEquals(List.of("", rule), t.subList(i - 2, i));
            assertTrue(t.get(i + 1).startsWith("Filter: ") && t.get(i + 2).startsWith("Node 0: ") && t.get(i + 3).startsWith("Node 1: "));
            int end = t.subList(i, t.size()).indexOf(rule) + i;
            body.put(t.get(i).substring(12), t.subList(i + 4, end));
        }
        List<io.metaroce.analysis.QpFollow.Block> blocks = new ArrayList<>();
        for (String line : body.get("raw")) {
            blocks.add(new io.metaroce.analysis.QpFollow.Block(blocks.size(), line.startsWith("\t") ? 1 : 0, 0,
                    java.util.HexFormat.of().parseHex(line.strip())));
        }
        assertTrue(blocks.stream().anyMatch(b -> b.node() == 1) && blocks.stream().anyMatch(b -> b.node() == 0), "both nodes");
        for (io.metaroce.analysis.QpFollow.Mode mode : List.of(io.metaroce.analysis.QpFollow.Mode.HEX, io.metaroce.analysis.QpFollow.Mode.ASCII)) {
            StringBuilder ours = new StringBuilder();
            long[] offset = new long[2];
            for (io.metaroce.analysis.QpFollow.Block b : blocks) {
                io.metaroce.analysis.QpFollow.block(ours, mode, b, offset[b.node()], 0);
                offset[b.node()] += b.data().length;
            }
            assertEquals(String.join("\n", body.get(mode.word)) + "\n", ours.toString(), mode.word);
        }
        List<String> mine = CliRun.of("dissect", "-r", GBN, "-q", "-z", "follow,roce,hex,0").out().lines().toList();
        assertEquals(List.of("", rule, "Follow: roce,hex"), mine.subList(0, 3));
        assertTrue(mine.get(3).startsWith("Filter: ") && mine.get(4).startsWith("Node 0: ") && mine.get(5).startsWith("Node 1: "));
        assertEquals(rule, mine.get(mine.size() - 1));
    }

    /**
     * Fields both tools name whose values differ on purpose, each with why: frame.protocols names our headers
     * (eth:ip:udp:bth:reth) where tshark names dissectors (eth:ethertype:ip:udp:infiniband); ip.hdr_len is in
     * 32-bit words here (its label says so), bytes in tshark; tshark has ImmDt and the IETH's R_Key as bytes
     * (ca:fe:f0:0d), we as a number (0xcafef00d).
     */
    private static final Set<String> DIFFERENT = Set.of("frame.protocols", "ip.hdr_len", "infiniband.immdt", "infiniband.ieth");

    /**
     * EK and PDML: every value of a field both tools name is equal, frame by frame (but {@link #DIFFERENT}). The
     * summary's columns on RoCEv2 frames that are not CM MADs (tshark's Source of a MAD is "LID: 65535"): Source,
     * Destination and Length equal; Protocol is RoCEv2 here where tshark says RRoCE. Info differs in its words:
     * ours names the operation in the IBTA's capitals (RDMA WRITE First) and adds the PSN. The four tshark runs
     * go at once (each is mostly tshark's start-up).
     */
    @Test
    void ekPdmlAndColumnsAgreeWithTshark() throws Exception {
        String[] cols = {"-e", "_ws.col.Source", "-e", "_ws.col.Destination", "-e", "_ws.col.Protocol", "-e", "_ws.col.Length"};
        List<String> columns = new ArrayList<>(List.of("tshark", "-r", GBN, "-Y", "infiniband && !infiniband.mad", "-T", "fields"));
        columns.addAll(List.of(cols));
        List<List<String>> runs = List.of(List.of("tshark", "-r", GBN, "-T", "ek"), List.of("tshark", "-r", ORACLE, "-T", "ek"),
                List.of("tshark", "-r", ORACLE, "-T", "pdml"), columns);
        List<java.util.concurrent.CompletableFuture<List<String>>> started = new ArrayList<>();
        for (List<String> run : runs) started.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> Tools.lines(tmp, run)));
        List<List<String>> out = new ArrayList<>();
        for (var f : started) out.add(f.get());
        assumeTrue(out.get(0) != null, "tshark not installed (CI installs it)");

        for (int c = 0; c < 2; c++) {
            String capture = c == 0 ? GBN : ORACLE;
            List<JsonNode> ours = ekDocs(CliRun.of("dissect", "-r", capture, "-T", "ek").out());
            List<JsonNode> theirs = ekDocs(String.join("\n", out.get(c)));
            assertEquals(theirs.size(), ours.size(), capture);
            Set<String> compared = new java.util.TreeSet<>();
            for (int i = 0; i < ours.size(); i++) {
                assertEquals(theirs.get(i).get("timestamp"), ours.get(i).get("timestamp"));
                JsonNode o = ours.get(i).get("layers"), t = theirs.get(i).get("layers");
                for (String layer : names(o)) {
                    if (!t.has(layer)) continue;
                    for (String key : names(o.get(layer))) {
                        String ws = key.substring(layer.length() + 1).replace('_', '.');
                        if (!t.get(layer).has(key) || DIFFERENT.stream().anyMatch(d -> d.replace('_', '.').equals(ws))) continue;
                        assertEquals(t.get(layer).get(key), o.get(layer).get(key), capture + " frame " + (i + 1) + " " + key);
                        compared.add(key);
                    }
                }
            }
            assertTrue(compared.containsAll(List.of("frame_frame_number", "frame_frame_len", "frame_frame_cap_len", "ip_ip_src",
                    "ip_ip_dst", "ip_ip_ttl", "udp_udp_srcport", "udp_udp_dstport", "infiniband_infiniband_bth_opcode",
                    "infiniband_infiniband_bth_destqp", "infiniband_infiniband_bth_psn", "infiniband_infiniband_bth_a")), capture + ": " + compared);
        }

        Document pdml = xml(CliRun.of("dissect", "-r", ORACLE, "-T", "pdml").out());
        Document tpdml = xml(String.join("\n", out.get(2)));
        NodeList op = pdml.getElementsByTagName("packet"), tp = tpdml.getElementsByTagName("packet");
        assertEquals(tp.getLength(), op.getLength());
        int shows = 0;
        for (int i = 0; i < op.getLength(); i++) {
            Map<String, Element> t = fieldsByName((Element) tp.item(i));
            for (Element f : fieldsByName((Element) op.item(i)).values()) {
                Element g = t.get(f.getAttribute("name"));
                if (g == null || DIFFERENT.contains(f.getAttribute("name"))) continue;
                assertEquals(g.getAttribute("show"), f.getAttribute("show"), "frame " + (i + 1) + " " + f.getAttribute("name"));
                shows++;
            }
        }
        assertTrue(shows > op.getLength() * 20, shows + " values compared");

        List<String> args = new ArrayList<>(List.of("dissect", "-r", GBN, "-Y", "bth && !mad", "-T", "fields"));
        args.addAll(List.of(cols));
        List<String> ours = CliRun.of(args.toArray(String[]::new)).out().lines().toList();
        assertTrue(ours.size() > 100, "frames: " + ours.size());
        assertEquals(out.get(3).stream().map(l -> l.replace("\tRRoCE\t", "\tRoCEv2\t")).toList(), ours);
    }

    /**
     * -o gui.column.format: Wireshark's default columns give the default line byte for byte (text and -T tabs); custom
     * field columns (Wireshark names, an occurrence, "a||b", a flag) equal tshark's own, on the reference vectors
     * and a sample (tshark's second opinion); -o infiniband.rroce.port moves RoCEv2 off 4791 as in tshark and -d
     * brings it back; a bad or unknown flag is a usage error in tshark's words; every format -G column-formats lists
     * is taken; -G currentprefs shows what -o set.
     */
    @Test
    void columnFormatAndRocePortPreferencesAsTshark() throws Exception {
        String wiresharkDefault = "gui.column.format:\"No.\",\"%m\",\"Time\",\"%t\",\"Source\",\"%s\",\"Destination\",\"%d\","
                + "\"Protocol\",\"%p\",\"Length\",\"%L\",\"Info\",\"%i\"";
        assertEquals(CliRun.of("dissect", "-r", GBN).out(), CliRun.of("dissect", "-r", GBN, "-o", wiresharkDefault).out());
        assertEquals(CliRun.of("dissect", "-r", GBN, "-T", "tabs", "-t", "ad").out(),
                CliRun.of("dissect", "-r", GBN, "-T", "tabs", "-t", "ad", "-o", wiresharkDefault).out());
        assertEquals(CliRun.of("dissect", "-r", GBN, "-T", "psml").out(), CliRun.of("dissect", "-r", GBN, "-T", "psml", "-o", wiresharkDefault).out());

        String custom = "gui.column.format:\"QP\",\"%Cus:infiniband.bth.destqp\",\"PSN\",\"%Cus:infiniband.bth.psn\","
                + "\"Last\",\"%Cus:ip.addr:-1\",\"Both\",\"%Cus:ip.src||ip.dst\",\"Len\",\"%Cus:frame.len\",\"SE\",\"%Cus:infiniband.bth.se\"";
        String[] captures = {GBN, "../samples/reference/roce_v6.pcap"};
        List<java.util.concurrent.CompletableFuture<List<String>>> started = new ArrayList<>();
        for (String c : captures) {
            started.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> Tools.tshark(tmp, List.of(), "-r", c, "-T", "tabs", "-o", custom)));
        }
        String psml = "gui.column.format:\"No.\",\"%m\",\"QP\",\"%Cus:infiniband.bth.destqp\",\"Src\",\"%s\",\"Dst\",\"%d\"";
        started.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> Tools.tshark(tmp, List.of(), "-r", ORACLE, "-T", "psml", "-o", psml)));
        started.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> Tools.tshark(tmp, List.of(), "-r", GBN, "-c", "3", "-o", "infiniband.rroce.port:4792",
                "-T", "fields", "-e", "_ws.col.Protocol")));
        List<String> ours = CliRun.of("dissect", "-r", GBN, "-T", "tabs", "-o", custom).out().lines().toList();
        assertTrue(ours.get(0).startsWith("0x000001\t1136741\t10.0.0.2\t10.0.0.1,10.0.0.2\t322\tFalse"), ours.get(0));
        List<String> udp = CliRun.of("dissect", "-r", GBN, "-c", "3", "-o", "infiniband.rroce.port:4792", "-T", "fields", "-e", "_ws.col.Protocol").out().lines().toList();
        assertEquals(List.of("UDP", "UDP", "UDP"), udp, "4791 is no longer RoCEv2");
        assertEquals(List.of("RoCEv2", "RoCEv2", "RoCEv2"), CliRun.of("dissect", "-r", GBN, "-c", "3", "-o", "infiniband.rroce.port:4792",
                "-d", "udp.port==4791,roce", "-T", "fields", "-e", "_ws.col.Protocol").out().lines().toList(), "-d adds to the preference");
        List<String> tsharkUdp = started.get(captures.length + 1).get();
        if (tsharkUdp != null) {
            assertEquals(tsharkUdp, udp);
            List<String> ourPsml = CliRun.of("dissect", "-r", ORACLE, "-T", "psml", "-o", psml).out().lines().toList();
            assertTrue(ourPsml.size() > 20 && ourPsml.contains("<section>QP</section>") && ourPsml.contains("<section>0x000012</section>"), String.join("\n", ourPsml));
            assertEquals(started.get(captures.length).get().subList(2, ourPsml.size()), ourPsml.subList(2, ourPsml.size()), "psml after its creator line");
            for (int i = 0; i < captures.length; i++) {
                assertEquals(started.get(i).get(), CliRun.of("dissect", "-r", captures[i], "-T", "tabs", "-o", custom).out().lines().toList(), captures[i]);
            }
        }

        CliRun unknown = CliRun.of("dissect", "-r", GBN, "-o", "tcp.analyze_sequence_numbers:FALSE");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("-o flag \"tcp.analyze_sequence_numbers:FALSE\" specifies unknown preference"), unknown.err());
        for (String bad : List.of("foo", "gui.column.format:\"X\"", "gui.column.format:\"X\",\"%zz\"", "infiniband.rroce.port:x",
                "gui.column.format:\"X\",\"%Cus:bth.psn:x\"")) {
            CliRun r = CliRun.of("dissect", "-r", GBN, "-o", bad);
            assertEquals(2, r.exit(), bad);
            assertTrue(r.err().contains("Invalid -o flag \"" + bad + "\""), r.err());
            assertEquals("", r.out());
        }

        // Every format -G column-formats lists, in one line of columns (tabs between them: one more than formats).
        StringBuilder all = new StringBuilder("gui.column.format:");
        int listed = 0;
        for (String line : CliRun.of("dissect", "-G", "column-formats").out().lines().toList()) {
            if (!line.startsWith("%")) continue;
            String format = line.substring(0, line.indexOf('\t'));
            all.append(listed++ == 0 ? "" : ",").append("\"C").append(listed).append("\",\"").append(format.equals("%Cus") ? "%Cus:bth.psn" : format).append('"');
        }
        assertTrue(listed >= 40, "formats listed: " + listed);
        CliRun everyFormat = CliRun.of("dissect", "-r", ORACLE, "-c", "2", "-T", "tabs", "-o", all + ",\"Last\",\"%m\"");
        assertEquals(0, everyFormat.exit(), everyFormat.err());
        List<String> rows = everyFormat.out().lines().toList();
        assertEquals(2, rows.size(), everyFormat.out());
        for (int i = 0; i < 2; i++) {
            String row = rows.get(i);
            assertEquals(Integer.toString(i + 1), row.substring(row.lastIndexOf('\t') + 1).strip(), "the last column, after every format's: " + row);
            assertTrue(row.chars().filter(ch -> ch == '\t').count() >= listed, "a column per format: " + row);
        }
        String current = CliRun.of("dissect", "-G", "currentprefs", "-o", "infiniband.rroce.port:4792", "-o", "gui.column.format:\"No.\",\"%m\"").out();
        assertTrue(current.contains("\ninfiniband.rroce.port: 4792\n") && current.contains("\ngui.column.format: \n\t\"No.\", \"%m\"\n"), current);
        String defaults = CliRun.of("dissect", "-G", "defaultprefs", "-o", "infiniband.rroce.port:4792").out();
        assertTrue(defaults.contains("\n#infiniband.rroce.port: 4791\n") && defaults.contains("\n#\t\"Info\", \"%i\"\n"), defaults);
    }

    private static List<JsonNode> ekDocs(String out) throws Exception {
        List<JsonNode> l = new ArrayList<>();
        for (String line : out.lines().toList()) if (line.startsWith("{\"timestamp\"")) l.add(JSON.readTree(line));
        return l;
    }

    private static List<String> names(JsonNode n) {
        List<String> l = new ArrayList<>();
        n.fieldNames().forEachRemaining(l::add);
        return l;
    }

    private static Document xml(String text) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** A packet's field elements by name, the first of each. */
    private static Map<String, Element> fieldsByName(Element packet) {
        Map<String, Element> m = new HashMap<>();
        NodeList l = packet.getElementsByTagName("field");
        for (int i = 0; i < l.getLength(); i++) m.putIfAbsent(((Element) l.item(i)).getAttribute("name"), (Element) l.item(i));
        return m;
    }
}
