package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.testsupport.Tools;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Name resolution: dissect's -N, -n and -H against tshark's (the *_resolved and *_host fields and the Destination
 * column, PFC's MAC names included, on two samples, an external IPv6 capture and frames built here with vendors'
 * MACs), -V's address lines, the errors; analyze -H's Hosts column and JSON names. In-process; the four tshark runs
 * go at once in the background.
 */
class NameResolutionTest {
    private static final String GBN = "../samples/captures/rocev2-gbn-loss.pcapng";
    private static final String PFC = "../samples/captures/rocev2-pfc-storm.pcapng";
    private static final String V6 = "../samples/reference/roce_v6.pcap";
    private static final String[] FIELDS = {"-T", "fields", "-e", "eth.src_resolved", "-e", "eth.dst_resolved", "-e", "eth.addr_resolved",
            "-e", "ip.src_host", "-e", "ip.dst_host", "-e", "ip.host", "-e", "ipv6.src_host", "-e", "ipv6.dst_host", "-e", "ipv6.host",
            "-e", "_ws.col.Destination"};

    @TempDir
    Path tmp;

    private Path hosts() throws Exception {
        return Files.writeString(tmp.resolve("hosts"), String.join("\n", "# the fabric", "10.0.0.1 gpu-node-01 gpu01",
                "10.0.0.2\tgpu-node-02   # comment", "fd00::10 v6-node-a", "FD00:0:0::20 v6-node-b", "not-an-address name", ""));
    }

    /** Ethernet/IPv4/UDP frames from vendors' MACs (an OUI, /28 and /36 blocks, a group address, PFC's and broadcast). */
    private Path vendorFrames() throws Exception {
        String[][] macs = {{"00:02:c9:12:34:56", "b8:59:9f:ab:cd:ef"}, {"00:55:da:a1:23:45", "00:1b:c5:00:00:05"},
                {"02:00:00:00:01:10", "01:80:c2:00:00:01"}, {"aa:bb:cc:dd:ee:ff", "ff:ff:ff:ff:ff:ff"},
                {"01:02:c9:00:00:01", "03:02:c9:00:00:02"}, {"00:1b:c5:00:01:23", "00:00:0c:07:ac:07"}};
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        for (int i = 0; i < macs.length; i++) {
            b.putInt(i + 1).putInt(0).putInt(42).putInt(42);
            for (String m : new String[] {macs[i][1], macs[i][0]}) for (String x : m.split(":")) b.put((byte) Integer.parseInt(x, 16));
            b.order(ByteOrder.BIG_ENDIAN).putShort((short) 0x0800)
                    .put(new byte[] {0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2})
                    .putShort((short) 1000).putShort((short) 2000).putShort((short) 8).putShort((short) 0).order(ByteOrder.LITTLE_ENDIAN);
        }
        Path p = tmp.resolve("vendors.pcap");
        Files.write(p, java.util.Arrays.copyOf(b.array(), b.position()));
        return p;
    }

    private static List<String> args(String capture, String... flags) {
        List<String> a = new ArrayList<>(List.of(flags));
        a.addAll(List.of("-r", capture));
        a.addAll(List.of(FIELDS));
        return a;
    }

    @Test
    void fieldsAndColumnsAgreeWithTshark() throws Exception {
        String hosts = hosts().toString(), vendors = vendorFrames().toString();
        // MAC names come from Wireshark's manuf and wka files, which tshark 4.2 and later build in: compare them
        // where the system has the files (here and on CI's Debian tshark 4.0), else only the host names.
        boolean macFiles = Files.isReadable(Path.of("/usr/share/wireshark/manuf")) && Files.isReadable(Path.of("/usr/share/wireshark/wka"));
        String flags = macFiles ? "mn" : "n";
        List<List<String>> runs = new ArrayList<>();
        for (String c : List.of(GBN, PFC, V6, vendors)) runs.add(args(c, "-N", flags, "-H", hosts));
        List<CompletableFuture<List<String>>> started = new ArrayList<>();
        for (List<String> run : runs) {
            started.add(CompletableFuture.supplyAsync(() -> Tools.tshark(tmp, List.of(), run.toArray(String[]::new))));
        }
        List<List<String>> theirs = new ArrayList<>();
        for (var f : started) theirs.add(f.get());
        assumeTrue(theirs.get(0) != null, "tshark not installed (CI installs it)");
        int named = 0, vendorNamed = 0;
        for (int i = 0; i < runs.size(); i++) {
            List<String> dissect = new ArrayList<>(List.of("dissect"));
            dissect.addAll(runs.get(i));
            CliRun ours = CliRun.of(dissect.toArray(String[]::new));
            assertEquals(0, ours.exit(), ours.err());
            assertEquals(theirs.get(i), ours.out().lines().toList(), String.join(" ", runs.get(i)));
            for (String line : theirs.get(i)) {
                if (line.contains("gpu-node-01") || line.contains("v6-node-a")) named++;
                if (line.contains("Mellanox_") || line.contains("MAC-specific-ctrl-proto-01")) vendorNamed++;
            }
        }
        assertTrue(named > 100, "host names were compared, not only addresses: " + named);
        assertTrue(!macFiles || vendorNamed > 3, "vendor names were compared: " + vendorNamed);
        // -n: the columns and fields as without any flag (tshark's own, compared in TsharkOutputsTest).
        List<String> n = new ArrayList<>(List.of("dissect"));
        n.addAll(args(PFC, "-n", "-H", hosts));
        List<String> none = new ArrayList<>(List.of("dissect"));
        none.addAll(args(PFC));
        assertEquals(CliRun.of(none.toArray(String[]::new)).out(), CliRun.of(n.toArray(String[]::new)).out());
    }

    @Test
    void summaryTreeAndErrors() throws Exception {
        String hosts = hosts().toString();
        CliRun plain = CliRun.of("dissect", "-r", GBN, "-c", "3", "-H", hosts);
        assertEquals(0, plain.exit(), plain.err());
        assertTrue(plain.out().contains("10.0.0.2 \u2192 10.0.0.1"), "-H alone shows no names, as tshark's: " + plain.out());
        CliRun named = CliRun.of("dissect", "-r", GBN, "-c", "3", "-N", "n", "-H", hosts);
        assertTrue(named.out().contains("gpu-node-02 \u2192 gpu-node-01"), named.out());
        assertEquals(named.out().lines().count(), plain.out().lines().count());
        assertTrue(named.err().contains("1 line skipped (not ADDRESS NAME), the first line 6"), "the bad line is counted: " + named.err());
        CliRun off = CliRun.of("dissect", "-r", GBN, "-c", "3", "-N", "n", "-n", "-H", hosts);
        assertEquals(plain.out(), off.out(), "-n: no names");

        CliRun tree = CliRun.of("dissect", "-r", V6, "-c", "1", "-V", "-N", "n", "-H", hosts);
        assertTrue(tree.out().contains("v6-node-a (fd00::10)  [ipv6.src]"), "tshark's NAME (ADDRESS) in the tree: " + tree.out());
        assertTrue(CliRun.of("dissect", "-r", V6, "-c", "1", "-V").out().contains(": fd00::10  [ipv6.src]"));

        CliRun bad = CliRun.of("dissect", "-r", GBN, "-N", "mq");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().startsWith("metaroce dissect: -N specifies unknown resolving option 'q'"), bad.err());
        CliRun missing = CliRun.of("dissect", "-r", GBN, "-H", tmp.resolve("none").toString());
        assertEquals(2, missing.exit());
        assertEquals("metaroce dissect: Can't read host entries from \"" + tmp.resolve("none") + "\"", missing.err().strip());
        CliRun json = CliRun.of("dissect", "-r", GBN, "-c", "1", "-N", "n", "-H", hosts, "-T", "json", "-e", "ip.host");
        assertEquals(0, json.exit(), "-T json keeps the catalogue's ip.host: " + json.err());
    }

    @Test
    void analyzeShowsHostNamesBesideTheFlows() throws Exception {
        Path one = Files.writeString(tmp.resolve("one"), "10.0.0.1 gpu-node-01\n");
        CliRun text = CliRun.of("analyze", "-r", GBN, "-H", one.toString());
        assertEquals(0, text.exit(), text.err());
        String header = text.out().lines().filter(l -> l.startsWith("Flow ")).findFirst().orElseThrow();
        assertTrue(header.endsWith("Hosts"), header);
        assertTrue(text.out().contains("gpu-node-01>10.0.0.2") && text.out().contains("10.0.0.2>gpu-node-01"), text.out());
        assertFalse(CliRun.of("analyze", "-r", GBN).out().contains("Hosts"), "without -H, the table as it was");

        JsonNode flows = new ObjectMapper().readTree(CliRun.of("analyze", "-r", GBN, "-H", one.toString(), "-T", "json").out()).get("flows");
        int checked = 0;
        for (JsonNode f : flows) {
            assertEquals(f.get("src").asText().equals("10.0.0.1"), f.has("src_name"), f.toString());
            assertEquals(f.get("dst").asText().equals("10.0.0.1"), f.has("dst_name"), f.toString());
            if (f.has("src_name")) assertEquals("gpu-node-01", f.get("src_name").asText());
            List<String> keys = new ArrayList<>();
            f.fieldNames().forEachRemaining(keys::add);
            assertEquals(keys.indexOf("dst") + 1, keys.indexOf(f.has("src_name") ? "src_name" : "dst_name"), "the names after the addresses");
            checked++;
        }
        assertEquals(6, checked);
        CliRun many = CliRun.of("analyze", "-r", GBN, "-r", PFC, "-H", one.toString());
        assertEquals(2, many.exit());
        assertTrue(many.err().contains("-H names the hosts of one capture's report"), many.err());
    }
}
