package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FieldFormat;
import io.metaroce.protocol.Display;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.ValueType;
import io.metaroce.testsupport.Tools;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tshark's own names, checked against tshark 4: every name of its infiniband protocol is an alias here or is
 * listed in the spec file (ws-unmapped) with a reason; under those names -e prints what tshark prints; the generic
 * fields (ip.addr, udp.port, eth.addr, frame.time_relative, ...) print and filter as in tshark. Skipped with a
 * message when tshark is not installed (CI installs it: there a missing tshark fails).
 */
class TsharkNamesTest {
    private static final String REF = "../samples/reference/";
    private static final List<String> CAPTURES = List.of("roce_v4_oracle.pcap", "roce_v6.pcap", "roce_vlan.pcap", "roce_cm.pcap",
            "roce_edge.pcap", "roce_write_only_icrc.pcap");
    /** tshark -G fields rows of protocol infiniband: name -> {type, base}. */
    private static final Map<String, String[]> TSHARK = new LinkedHashMap<>();

    @TempDir
    static Path tmp;

    @BeforeAll
    static void tsharkFields() {
        List<String> out = Tools.lines(tmp, List.of("tshark", "-G", "fields"));   // null when not installed, fails on CI
        assumeTrue(out != null, "tshark is not installed: the tshark name checks are skipped");
        for (String line : out) {
            String[] c = line.split("\t", -1);
            if (c.length >= 7 && c[0].equals("F") && c[4].equals("infiniband")) TSHARK.put(c[2], new String[] {c[3], c[5]});
            if (c.length >= 3 && c[0].equals("P") && c[2].equals("infiniband")) TSHARK.put(c[2], new String[] {"FT_PROTOCOL", ""});
        }
    }

    @Test
    void everyInfinibandNameMapsOrIsListedAsHavingNoEquivalent() {
        assertTrue(TSHARK.size() > 400, "tshark 4 lists about 530 infiniband names, got " + TSHARK.size());
        List<String> neither = new ArrayList<>(), both = new ArrayList<>();
        for (String name : TSHARK.keySet()) {
            boolean mapped = FieldCatalog.get().resolve(name) != null;
            String why = FieldCatalog.unmappedReason(name);
            if (!mapped && why == null) neither.add(name);
            if (mapped && why != null) both.add(name);
        }
        assertEquals(List.of(), neither, "tshark names that neither map to a field nor are listed in ws-unmapped");
        assertEquals(List.of(), both, "names both mapped and listed as having no equivalent");
        for (String pattern : Spec.WS_UNMAPPED.keySet()) {
            String prefix = pattern.endsWith("*") ? pattern.substring(0, pattern.length() - 1) : null;
            assertTrue(TSHARK.keySet().stream().anyMatch(n -> prefix == null ? n.equals(pattern) : n.startsWith(prefix)),
                    "ws-unmapped entry " + pattern + " matches no tshark name (stale)");
        }
        for (FieldDef f : Spec.FIELDS) {
            for (String a : f.aliases()) {
                if (a.startsWith("infiniband")) assertTrue(TSHARK.containsKey(a), f.name() + ": alias " + a + " is not a tshark name");
            }
        }
        for (String protocol : List.of("infiniband", "infiniband.bth", "infiniband.aeth", "infiniband.reth", "infiniband.deth")) {
            assertTrue(FieldCatalog.get().resolve(protocol) != null, protocol);
        }
    }

    /** tshark's declared base and width (from -G fields) is how -e prints an integer under its name here. */
    @Test
    void integersPrintInTsharksBaseAndWidthUnderItsNames() {
        List<String> wrong = new ArrayList<>();
        for (var e : TSHARK.entrySet()) {
            FieldDef f = FieldCatalog.get().field(e.getKey());
            String type = e.getValue()[0], base = e.getValue()[1];
            if (f == null || !type.startsWith("FT_UINT")) continue;
            String expected = base.equals("BASE_HEX") ? "hex" + Integer.parseInt(type.substring(7)) / 4 : "dec";
            String ours = FieldCatalog.tsharkDisplay(e.getKey());
            if (ours == null) ours = f.type() == ValueType.UINT && f.display() == Display.HEX ? "hex" + FieldFormat.hexWidth(f) : "dec";
            if (f.type() == ValueType.UINT || f.type() == ValueType.BOOL) {
                if (!ours.equals(expected)) wrong.add(e.getKey() + ": tshark " + expected + ", ours " + ours);
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** The mapped names tshark fills on the reference captures print the same text, frame by frame. */
    @Test
    void mappedNamesPrintWhatTsharkPrints() throws Exception {
        List<String> names = new ArrayList<>();
        for (String n : TSHARK.keySet()) {
            FieldDef f = FieldCatalog.get().field(n);
            // ImmDt and IETH are header bytes in tshark (and printed twice, rocev2-facts.md §9); ours are numbers.
            if (f != null && !n.equals("infiniband.immdt") && !n.equals("infiniband.ieth")) names.add(n);
        }
        compareAll(CAPTURES.stream().map(c -> new Check(c, names, null)).toList());
    }

    @Test
    void genericFieldsPrintAndFilterAsInTshark() throws Exception {
        List<String> names = List.of("frame.number", "frame.len", "frame.cap_len", "frame.time_epoch", "frame.time_relative",
                "frame.time_delta", "eth.addr", "ip.addr", "ip.host", "ip.dsfield", "ipv6.addr", "ipv6.host", "ipv6.tclass", "udp.port");
        List<Check> checks = new ArrayList<>();
        for (String capture : CAPTURES) checks.add(new Check(capture, names, null));
        // Each filter on a capture where it selects some frames but not all (one tshark run each: they are slow).
        Map<String, String> filters = Map.of("ip.addr == 192.168.1.20 && udp.port == 4791", "roce_edge.pcap",
                "eth.addr == 02:00:00:00:00:0a", "roce_v6.pcap", "ipv6.addr == fd00::10 && ipv6.tclass == 0x6a", "roce_v6.pcap",
                "ip.host == \"192.168.1.20\" && frame.time_relative >= 0.005", "roce_v4_oracle.pcap",
                "infiniband.bth.psn >= 210 && !infiniband.aeth", "roce_v4_oracle.pcap", "infiniband && frame.time_delta > 0", "roce_edge.pcap",
                "infiniband.invariant.crc == 0xdeadbeef", "roce_edge.pcap");
        for (var f : filters.entrySet()) checks.add(new Check(f.getValue(), List.of("frame.number"), f.getKey()));
        checks.add(new Check("roce_v4_oracle.pcap", List.of("frame.number", "frame.time_delta_displayed", "frame.time_delta"), "infiniband.aeth"));
        compareAll(checks);
    }

    private static boolean bthOnly(String opcode) {
        if (opcode.isEmpty()) return false;
        int op = Integer.parseInt(opcode);
        return op >= 0x80 || (op >= 0x40 && op < 0x60) || (op >= 0xA0 && op < 0xC0) || op == 0x1C || op == 0x1D;
    }

    /** One comparison: a capture of samples/reference, the names printed under -e, a display filter (or null). */
    private record Check(String capture, List<String> names, String filter) {
        List<String> args() {
            List<String> args = new ArrayList<>(List.of("-r", REF + capture, "-T", "fields"));
            if (filter != null) args.addAll(List.of("-Y", filter));
            for (String n : names) args.addAll(List.of("-e", n));
            return args;
        }
    }

    /**
     * The checks in order, their tshark runs made ahead, one per core: tshark spends most of its 0.5-1 s a run
     * starting, and one after the other the 20 runs took most of this class's 13.8 s in the CI run of 2026-12-03.
     */
    private static void compareAll(List<Check> checks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
        try {
            List<Future<List<String>>> runs = checks.stream()
                    .map(c -> pool.submit(() -> Tools.tshark(tmp, List.of(), c.args().toArray(String[]::new)))).toList();
            for (int i = 0; i < checks.size(); i++) {
                List<String> t;
                try {
                    t = runs.get(i).get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception x ? x : e;
                }
                compare(checks.get(i), t);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Our dissect -T fields against tshark's lines (its exit 0 checked by Tools). */
    private static void compare(Check check, List<String> expected) throws Exception {
        String capture = check.capture(), filter = check.filter();
        List<String> names = check.names(), args = check.args();
        List<String> cli = new ArrayList<>(List.of("dissect"));
        cli.addAll(args);
        CliRun r = CliRun.of(cli.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        List<String> actual = r.out().lines().toList();
        int opcodeColumn = names.indexOf("infiniband.bth.opcode");
        assertEquals(expected.size(), actual.size(), capture + " " + filter + ": frame count");
        for (int i = 0; i < expected.size(); i++) {
            String[] e = expected.get(i).split("\t", -1), a = actual.get(i).split("\t", -1);
            for (int k = 0; k < names.size(); k++) {
                // tshark names the 5 code bits of the AETH syndrome by its kind (credit_count, timer, error_code,
                // reserved_value); aeth.syndrome.code answers to all four names on every AETH.
                if (e[k].isEmpty() && names.get(k).startsWith("infiniband.aeth.syndrome.") && !names.get(k).endsWith(".opcode")) continue;
                // tshark decodes only the BTH of CNPs, XRC, FLUSH and ATOMIC WRITE, and RD as Mellanox DC (rocev2-facts.md §9).
                if (opcodeColumn >= 0 && !names.get(k).startsWith("infiniband.bth") && bthOnly(a[opcodeColumn])) continue;
                // tshark shows an IPv4-mapped GID or IP CM address under its *_ipv4 / sip4 / dip4 name (listed as unmapped).
                if (e[k].isEmpty() && a[k].startsWith("::ffff:")) continue;
                // tshark reports the AtomicETH's VA and R_Key as infiniband.reth.* (the alias stays with RETH here).
                if (a[k].isEmpty() && names.get(k).startsWith("infiniband.reth.") && opcodeColumn >= 0
                        && Set.of("19", "20").contains(a[opcodeColumn])) continue;
                assertEquals(e[k], a[k], capture + " frame " + (i + 1) + " " + names.get(k) + (filter == null ? "" : " with -Y " + filter));
            }
        }
    }
}
