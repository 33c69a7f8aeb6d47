package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.dissector.FieldCatalog;
import io.metaroce.protocol.FieldDef;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * tshark's other -z statistics and -G on {@code dissect}, through the shipped launcher: the conversation and endpoint
 * tables byte for byte as tshark's (both print the -z tables in the reverse order of the arguments), io,phs with a filter counted as tshark counts it, -z expert in tshark's layout, -G's glossary (every name
 * it prints is one -e and -Y take), and the bad command lines (one line, exit 2).
 */
class DissectStatsIT {
    @TempDir
    static Path tmp;

    private record Case(String name, Call call, Consumer<Run> check) {}

    private static final List<Case> CASES = new ArrayList<>();
    private static final Map<String, Run> RUNS = new LinkedHashMap<>();
    private static final String SPRAY = Launcher.CAPTURES.resolve("metaroce-spray-lossy-path.pcapng").toString();
    private static final String V6 = Launcher.CAPTURES.resolve("rocev2-read-atomic.pcapng").toString();
    private static final String ORACLE = Launcher.ROOT.resolve("samples/reference/roce_v4_oracle.pcap").toString();
    private static final String VLAN = Launcher.ROOT.resolve("samples/reference/roce_vlan.pcap").toString();
    private static final String BROKEN = Launcher.CAPTURES.resolve("conformance-violations.pcapng").toString();
    private static final List<String> TABLES = List.of("conv,eth", "conv,ip", "conv,ipv6", "conv,udp", "endpoints,eth",
            "endpoints,ip", "endpoints,ipv6", "endpoints,udp", "conv,udp,udp.srcport > 50000", "endpoints,ip,frame.number <= 10");

    @BeforeAll
    static void runEveryCase() throws IOException {
        // conv and endpoints: tshark's tables, byte for byte (pcapng, pcap, IPv6, VLAN, damaged frames), every table
        // and two with a filter of their own in one run each.
        for (String sample : List.of(SPRAY, V6, ORACLE, VLAN, BROKEN)) {
            String name = Path.of(sample).getFileName().toString();
            add("conv and endpoints " + name, Call.of(zArgs("dissect", "-r", sample, "-q")), r -> {
                assertEquals(0, r.exit(), r.show());
                List<String> t = tshark(zArgs("-r", sample, "-q"));
                if (t != null) assertEquals(String.join("\n", t), String.join("\n", r.out().lines().toList()), "as tshark's tables");
                assertTrue(r.out().contains("Conversations\nFilter:<No Filter>\n"), r.show());
            });
        }
        // Standard input: the same tables as from the file.
        add("conv and endpoints from stdin", Call.of(zArgs("dissect", "-r", "-", "-q")).stdin(Path.of(SPRAY)), r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> t = tshark(zArgs("-r", SPRAY, "-q"));
            if (t != null) assertEquals(String.join("\n", t), String.join("\n", r.out().lines().toList()), "as tshark's tables");
            assertTrue(r.out().contains("\n10.0.0.1             <-> 10.0.0.2                 135 13 kB         230 225 kB        365 238 kB        0.000000000         0.0002\n"), r.show());
        });
        // With -Y, every frame read all the same: tshark's taps count the frames -Y hides (DissectStatsMoreIT).
        add("conv,ip with -Y", Call.of("dissect", "-r", SPRAY, "-q", "-Y", "frame.number <= 10", "-z", "conv,ip"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("\n10.0.0.1             <-> 10.0.0.2                 135 13 kB         230 225 kB        365 238 kB        0.000000000         0.0002\n"), r.show());
        });
        // A cut capture: every readable frame counts, then one line and exit 2.
        byte[] whole = Files.readAllBytes(Path.of(SPRAY));
        Path cut = write("cut.pcapng", Arrays.copyOf(whole, whole.length - 500));
        add("conv,ip on a cut capture", Call.of("dissect", "-r", cut.toString(), "-q", "-z", "conv,ip", "-z", "expert"), r -> {
            assertEquals(2, r.exit(), r.show());
            assertEquals(1, r.errLines().size(), r.show());
            assertTrue(r.err().startsWith("metaroce dissect: "), r.show());
            long frames = frames(cut);
            assertTrue(frames > 300 && frames < 365, "frames read: " + frames);
            String row = r.out().lines().filter(l -> l.startsWith("10.0.0.1 ")).findFirst().orElseThrow();
            String[] cells = row.trim().split("\\s+");
            assertEquals(Long.toString(frames), cells[9], "every readable frame in the total: " + row);
        });

        // io,phs,FILTER: only the frames that match count, as tshark counts them (tshark's infiniband is our bth).
        for (String f : List.of("udp.srcport > 50000", "frame.number <= 10")) {
            add("io,phs," + f, Call.of("dissect", "-r", SPRAY, "-q", "-z", "io,phs," + f), r -> {
                assertEquals(0, r.exit(), r.show());
                assertTrue(r.out().contains("\nProtocol Hierarchy Statistics\nFilter: " + f + "\n\n"), r.show());
                List<String> t = tshark("-r", SPRAY, "-q", "-z", "io,phs," + f);
                if (t == null) return;
                // tshark 4.0 puts its frame protocol at the top when the filter names a frame field: one level deeper.
                String deeper = t.stream().anyMatch(l -> l.startsWith("frame ")) ? "  " : "";
                for (String[] p : new String[][] {{"eth", "eth"}, {"  ip", "  ip"}, {"    udp", "    udp"}, {"      bth", "      infiniband"}}) {
                    assertEquals(phsCounts(t, deeper + p[1]), phsCounts(r.out().lines().toList(), p[0]), p[0] + " as tshark's " + p[1] + ": " + r.out());
                }
            });
        }
        add("io,phs,FILTER from stdin", Call.of("dissect", "-r", "-", "-q", "-z", "io,phs,frame.number <= 10").stdin(Path.of(ORACLE)), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("\neth                                      frames:10 "), r.show());
        });

        // -z expert: the analysis' findings (as analyze's Expert Info summary counts them) and the dissector's items.
        add("expert spray", Call.of("dissect", "-r", SPRAY, "-q", "-z", "expert"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals("""

                    Notes (11)
                    =============
                       Frequency      Group           Protocol  Summary
                               8   Sequence           analysis  Retransmission (repeats a PSN already sent in its stream)
                               3   Sequence           analysis  Spurious retransmission (the receiver already had that PSN)
                    """, r.out());
        });
        add("expert spray from stdin", Call.of("dissect", "-r", "-", "-q", "-z", "expert").stdin(Path.of(SPRAY)), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("\n           8   Sequence           analysis  Retransmission"), r.show());
        });
        add("expert broken", Call.of("dissect", "-r", BROKEN, "-q", "-z", "expert"), r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> lines = r.out().lines().toList();
            assertEquals("Errors (6)", lines.get(1), r.show());
            assertTrue(r.out().indexOf("Errors (") < r.out().indexOf("Warns (") && r.out().indexOf("Warns (") < r.out().indexOf("Notes ("),
                    "worst first, as tshark: " + r.show());
            assertTrue(lines.contains("           1   Checksum               icrc  the ICRC does not match"), r.show());
            assertTrue(lines.contains("           1  Malformed                udp  UDP length exceeds the IP payload"), r.show());
        });
        add("expert,error with a filter", Call.of("dissect", "-r", BROKEN, "-q", "-z", "expert,error,udp"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().startsWith("\nErrors ("), r.show());
            assertFalse(r.out().contains("Warns") || r.out().contains("Notes"), r.show());
        });

        // -G: tshark's glossary, without a capture.
        add("-G fields", Call.of("dissect", "-G", "fields"), r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> lines = r.out().lines().toList();
            assertTrue(lines.stream().allMatch(l -> l.startsWith("P\t") && l.split("\t", -1).length == 3
                    || l.startsWith("F\t") && l.split("\t", -1).length == 8), r.show());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("F\tPacket sequence number\tbth.psn\tFT_UINT24\tbth\tBASE_DEC\t0x0\t")), r.show());
            assertTrue(lines.contains("F\tSolicited event\tbth.se\tFT_BOOLEAN\tbth\t8\t0x80\t"), r.show());
            // Every BTH field tshark names infiniband.bth.* that we know is listed under our name.
            Set<String> ours = names(r, "F");
            for (String ws : tsharkBthFields()) {
                FieldDef f = FieldCatalog.get().field(ws);
                if (f != null) assertTrue(ours.contains(f.name()), ws + " as " + f.name() + " in -G fields");
            }
            assertTrue(ours.containsAll(List.of("bth.opcode", "bth.dest_qp", "bth.psn", "bth.ack_req", "bth.p_key")), ours.toString());
        });
        add("-G alone", Call.of("dissect", "-G"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals(RUNS.get("-G fields").out(), r.out(), "-G is -G fields");
        });
        add("-G protocols", Call.of("dissect", "-G", "protocols"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().lines().allMatch(l -> l.split("\t", -1).length == 3), r.show());
            assertTrue(r.out().contains("\tbth\tbth\n"), r.show());
        });

        // Bad command lines: one line, exit 2.
        add("-G nope", Call.of("dissect", "-G", "nope"), says("Invalid \"nope\" option for -G flag (one of fields, protocols, fieldcount, values, ftypes, column-formats, currentprefs, defaultprefs, help)"));
        add("-z conv,tcp", Call.of("dissect", "-r", SPRAY, "-z", "conv,tcp"), says("invalid -z argument \"conv,tcp\"; it must be one of: conv,TYPE, endpoints,TYPE (TYPE: eth, ip, ipv6 or udp), expert, io,phs"));
        add("-z endpoints", Call.of("dissect", "-r", SPRAY, "-z", "endpoints"), says("invalid -z argument \"endpoints\""));
        add("-z conv,ip bad filter", Call.of("dissect", "-r", SPRAY, "-z", "conv,ip,bth.psn =="), says("-z conv,ip,bth.psn ==: bad display filter: "));
        add("-z io,phs bad filter", Call.of("dissect", "-r", SPRAY, "-z", "io,phs,nosuch.field"), says("-z io,phs,nosuch.field: bad display filter: "));
        // The stats trees: tshark's text (every column) with and without a filter of their own; ours, roce_ops,
        // with the same layout. TrafficStatsTest compares every tree on more samples, in-process.
        add("stats trees", Call.of("dissect", "-r", SPRAY, "-q", "-z", "plen,tree", "-z", "roce_ops,tree", "-z", "dests,tree,frame.number > 100"), r -> {
            assertEquals(0, r.exit(), r.show());
            String out = r.out();
            int ops = out.indexOf("\n=", out.indexOf("RoCE Statistics/Operations:"));
            List<String> t = tshark("-r", SPRAY, "-q", "-z", "plen,tree", "-z", "dests,tree,frame.number > 100");
            // Ours without the roce_ops tree (printed between the two, the last -z first).
            String theirs = out.substring(0, out.indexOf("\n=", 1) + 1) + out.substring(ops + 1);
            if (t != null) assertEquals(String.join("\n", t), theirs.stripTrailing(), "as tshark's trees");
            assertTrue(out.contains("\n MetaRoCE control ") && out.contains("\n  RDMA WRITE ") && out.contains("\nRoCE Operations "), r.show());
        });
        add("-z plen,tree bad filter", Call.of("dissect", "-r", SPRAY, "-z", "plen,tree,nosuch.field"), says("-z plen,tree,nosuch.field: bad display filter: "));
        add("-z nope,tree", Call.of("dissect", "-r", SPRAY, "-z", "nope,tree"), says("invalid -z argument \"nope,tree\""));
        add("-z help", Call.of("dissect", "-r", SPRAY, "-z", "help"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("     plen,tree[,FILTER]\n") && r.out().contains("     ipv6_dests,tree[,FILTER]\n")
                    && r.out().contains("     roce_ops,tree[,FILTER] "), r.show());
            assertTrue(r.out().contains("     conv,ip[,FILTER]\n") && r.out().contains("     endpoints,udp[,FILTER]\n")
                    && r.out().contains("     expert[,error|warn|note|chat|comment][,FILTER]\n") && r.out().contains("     io,phs[,FILTER]\n"), r.show());
        });

        List<Run> runs = Launcher.runAll(CASES.stream().map(Case::call).toList());
        for (int i = 0; i < CASES.size(); i++) RUNS.put(CASES.get(i).name(), runs.get(i));
        // -G's names as -e and -Y take them: every field in one -T fields run, every name in one filter.
        Set<String> fields = names(RUNS.get("-G fields"), "F");
        Set<String> all = new TreeSet<>(fields);
        all.addAll(names(RUNS.get("-G fields"), "P"));
        List<String> e = new ArrayList<>(List.of("dissect", "-r", SPRAY, "-c", "3", "-T", "fields"));
        for (String f : fields) e.addAll(List.of("-e", f));
        String everyName = all.stream().collect(Collectors.joining(" || "));
        List<Run> more = Launcher.runAll(List.of(Call.of(e), Call.of("dissect", "-r", SPRAY, "-c", "3", "-Y", everyName)));
        CASES.add(new Case("-G names with -e", null, r -> { }));
        RUNS.put("-G names with -e", more.get(0));
        CASES.add(new Case("-G names with -Y", null, r -> { }));
        RUNS.put("-G names with -Y", more.get(1));
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            Run r = RUNS.get(c.name());
            if (c.name().startsWith("-G names with")) {
                assertEquals(0, r.exit(), r.show());
                assertEquals(3, r.out().lines().count(), r.show());
            } else {
                c.check().accept(r);
            }
        }));
    }

    /** The names of the P or F lines of -G fields. */
    private static Set<String> names(Run r, String kind) {
        return r.out().lines().filter(l -> l.startsWith(kind + "\t")).map(l -> l.split("\t")[2]).collect(Collectors.toCollection(TreeSet::new));
    }

    /** tshark's infiniband.bth.* field names (its -G fields), or the BTH aliases our catalogue knows without tshark. */
    private static List<String> tsharkBthFields() {
        List<String> g = run(List.of("tshark", "-G", "fields"));
        if (g != null) {
            return g.stream().map(l -> l.split("\t")).filter(c -> c.length > 2 && c[0].equals("F") && c[2].startsWith("infiniband.bth."))
                    .map(c -> c[2]).toList();
        }
        List<String> aliases = new ArrayList<>();
        for (FieldDef f : FieldCatalog.get().fields()) for (String a : f.aliases()) if (a.startsWith("infiniband.bth.")) aliases.add(a);
        return aliases;
    }

    private static String[] zArgs(String... head) {
        List<String> a = new ArrayList<>(List.of(head));
        for (String z : TABLES) a.addAll(List.of("-z", z));
        return a.toArray(String[]::new);
    }

    /** The "frames:N bytes:M" of the io,phs line of a protocol (its indent included). */
    private static String phsCounts(List<String> lines, String indentedName) {
        for (String l : lines) if (l.startsWith(indentedName + " ")) return l.substring(41).trim();
        return "no " + indentedName + " in " + lines;
    }

    /** The frames our reader takes from a capture (a cut one included; DissectStatsMoreIT's too). */
    static long frames(Path capture) {
        try (var src = io.metaroce.capture.CaptureFiles.open(capture)) {
            long n = 0;
            while (src.next()) n++;
            return n;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Path write(String name, byte[] bytes) {
        try {
            return Files.write(tmp.resolve(name), bytes);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(new Case(name, call, check)); }

    private static Consumer<Run> says(String what) {
        return r -> {
            LauncherIT.oneLineExit2(r);
            assertFalse(r.err().contains("internal error"), r.show());
            assertTrue(r.err().contains(what), "expected '" + what + "': " + r.show());
        };
    }

    /**
     * tshark's output lines (its RDMA heuristics off, and EoIB: it takes a UD SEND's payload for an Ethernet frame, a
     * second row in its Ethernet tables), or null when it is not installed (our own checks stand alone).
     */
    private static List<String> tshark(String... args) {
        return Tools.tshark(tmp, List.of("infiniband.eoib"), args);
    }

    private static List<String> run(List<String> cmd) {
        return Tools.lines(tmp, cmd);
    }
}
