package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.LauncherCases;
import io.metaroce.testsupport.Tools;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * dissect -z flow,TYPE,MODE[,FILTER] through the shipped launcher: one row per frame in frame order, each arrow from
 * the frame's source to its destination (as dissect's own summary lines say), the analysis' comment on exactly the
 * resent frames of rocev2-gbn-loss, the FILTER and the roce type narrowing the rows, standard mode's QP nodes, -z help,
 * bad arguments in one line; and against tshark's -z flow,any,network: as many rows, the same sender and receiver on
 * every row whose tshark nodes are IP hosts (tshark draws CM MADs from a "LID: 65535" node).
 */
class DissectFlowIT {
    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();
    private static final String GBN = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString();
    private static final String PFC = Launcher.CAPTURES.resolve("rocev2-pfc-storm.pcapng").toString();

    @BeforeAll
    static void runEveryCase() {
        CASES.add("lines", Call.of("dissect", "-r", GBN), r -> assertEquals(0, r.exit(), r.show()));
        CASES.add("resent", Call.of("dissect", "-r", GBN, "-Y", "analysis.retransmission", "-T", "fields", "-e", "frame.number"),
                r -> assertEquals(0, r.exit(), r.show()));
        CASES.add("flow", Call.of("dissect", "-r", GBN, "-q", "-z", "flow,any,network"), r -> assertEquals(0, r.exit(), r.show()));
        CASES.add("flow filter", Call.of("dissect", "-r", GBN, "-q", "-z", "flow,any,network,analysis.retransmission"),
                r -> assertEquals(0, r.exit(), r.show()));
        CASES.add("flow standard", Call.of("dissect", "-r", GBN, "-q", "-z", "flow,roce,standard"), r -> {
            assertEquals(0, r.exit(), r.show());
            String header = r.out().lines().limit(2).collect(Collectors.joining("\n"));
            // One column per QP endpoint: the two CM endpoints (QP 1) and the data QPs of both hosts.
            for (String node : List.of("10.0.0.1:0x1 ", "10.0.0.2:0x1 ", "10.0.0.1:0x11", "10.0.0.2:0x13")) {
                assertTrue(header.contains("| " + node), node + " in\n" + header);
            }
        });
        CASES.add("pfc any", Call.of("dissect", "-r", PFC, "-q", "-z", "flow,any,network"), r -> assertEquals(0, r.exit(), r.show()));
        CASES.add("pfc roce", Call.of("dissect", "-r", PFC, "-q", "-z", "flow,roce,network"), r -> assertEquals(0, r.exit(), r.show()));
        CASES.add("pfc pauses", Call.of("dissect", "-r", PFC, "-Y", "macc", "-T", "fields", "-e", "frame.number"),
                r -> assertEquals(0, r.exit(), r.show()));
        CASES.add("-z help", Call.of("dissect", "-r", GBN, "-z", "help"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("flow,any|roce,standard|network[,FILTER]"), r.show());
        });
        CASES.add("flow nothing", Call.of("dissect", "-r", GBN, "-q", "-z", "flow,any,network,frame.number == 0"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals("", r.out(), "tshark prints nothing for a flow without frames");
        });
        CASES.add("flow,tcp", Call.of("dissect", "-r", GBN, "-q", "-z", "flow,tcp,network"), says("unknown flow type 'tcp'"));
        CASES.add("flow,any", Call.of("dissect", "-r", GBN, "-q", "-z", "flow,any"), says("it must be flow,TYPE,MODE[,FILTER]"));
        CASES.add("flow mode", Call.of("dissect", "-r", GBN, "-q", "-z", "flow,any,net"), says("unknown flow mode 'net'"));
        CASES.add("flow bad filter", Call.of("dissect", "-r", GBN, "-q", "-z", "flow,any,network,bth.psn =="), says("bad display filter"));
        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    /** Every frame a row, in frame order, its arrow from the summary line's source to its destination. */
    @TestFactory
    Stream<DynamicTest> rowsFollowTheFrames() {
        return Stream.of(DynamicTest.dynamicTest("rows, order and arrow direction", () -> {
            List<String> lines = CASES.run("lines").out().lines().toList();
            List<Arrow> rows = arrows(CASES.run("flow").out().lines().toList(), FlowStat.WIDTH);
            assertEquals(lines.size(), rows.size(), "one row per frame");
            long last = -1;
            for (int i = 0; i < rows.size(); i++) {
                Arrow a = rows.get(i);
                assertTrue(a.nanos >= last, "frame order at row " + i);
                last = a.nanos;
                // "    5 0.000009401 10.0.0.1 → 10.0.0.2 RoCEv2 ..."
                String[] w = lines.get(i).trim().split("\\s+");
                assertEquals(w[2] + " > " + w[4], a.from + " > " + a.to, "frame " + w[0] + ": " + a.line);
            }
        }));
    }

    /** The resent frames, and only they, say Retransmission and its cause; the NAKs say NAK; FILTER keeps the resent ones. */
    @TestFactory
    Stream<DynamicTest> analysisComments() {
        return Stream.of(DynamicTest.dynamicTest("comments", () -> {
            Set<Integer> resent = CASES.run("resent").out().lines().map(Integer::parseInt).collect(Collectors.toSet());
            assertFalse(resent.isEmpty());
            List<Arrow> rows = arrows(CASES.run("flow").out().lines().toList(), FlowStat.WIDTH);
            int naks = 0;
            for (int i = 0; i < rows.size(); i++) {
                String c = rows.get(i).comment;
                assertEquals(resent.contains(i + 1), c.startsWith("Retransmission (nak) of frame "), "frame " + (i + 1) + ": " + c);
                if (c.startsWith("NAK PSN Sequence Error, resend from PSN ")) naks++;
            }
            assertTrue(naks > 0, "NAK rows");
            List<Arrow> filtered = arrows(CASES.run("flow filter").out().lines().toList(), FlowStat.WIDTH);
            assertEquals(resent.size(), filtered.size());
            assertTrue(filtered.stream().allMatch(a -> a.comment.startsWith("Retransmission (nak) of frame ")));
        }));
    }

    /** roce leaves out the PFC pause frames that any draws (from the switch's MAC to the sender's). */
    @TestFactory
    Stream<DynamicTest> roceTypeLeavesOutPauses() {
        return Stream.of(DynamicTest.dynamicTest("roce type", () -> {
            long pauses = CASES.run("pfc pauses").out().lines().count();
            assertTrue(pauses > 0);
            int any = arrows(CASES.run("pfc any").out().lines().toList(), FlowStat.WIDTH).size();
            int roce = arrows(CASES.run("pfc roce").out().lines().toList(), FlowStat.WIDTH).size();
            assertEquals(any - pauses, roce);
        }));
    }

    /**
     * tshark's -z flow,any,network on the same capture: as many rows, and on every row whose two tshark nodes are
     * IP addresses the same sender and receiver (tshark's node order differs, so the columns are compared by name).
     */
    @TestFactory
    Stream<DynamicTest> agreesWithTshark() {
        return Stream.of(DynamicTest.dynamicTest("as tshark -z flow,any,network", () -> {
            List<String> t = Tools.tshark(tmp, List.of("infiniband.eoib"), "-r", GBN, "-q", "-z", "flow,any,network");
            if (t == null) return;   // no tshark here (on CI an error in Tools)
            List<Arrow> theirs = arrows(t, 20);
            List<Arrow> ours = arrows(CASES.run("flow").out().lines().toList(), FlowStat.WIDTH);
            assertEquals(theirs.size(), ours.size(), "rows");
            int compared = 0;
            for (int i = 0; i < ours.size(); i++) {
                Arrow a = theirs.get(i);
                if (!a.from.matches("[0-9.]+") || !a.to.matches("[0-9.]+")) continue;
                assertEquals(a.from + " > " + a.to, ours.get(i).from + " > " + ours.get(i).to, "row " + (i + 1));
                compared++;
            }
            assertTrue(compared > ours.size() / 2, compared + " rows compared");
        }));
    }

    /** A row read back from the ASCII ladder: its time, sender and receiver node names, comment. */
    record Arrow(long nanos, String from, String to, String comment, String line) { }

    /**
     * The rows of a -z flow table with node columns of the given width (tshark's 20, ours {@link FlowStat#WIDTH}):
     * node i's name starts at 12 + i * width on the first (even i) or second header line; on an arrow line the arrow
     * runs between two node centres (10 + i * width + width / 2).
     */
    static List<Arrow> arrows(List<String> lines, int width) {
        List<Arrow> out = new ArrayList<>();
        if (lines.size() < 2) return out;
        List<String> nodes = new ArrayList<>();
        for (int i = 0; ; i++) {
            String h = lines.get(i % 2);
            int at = 10 + i * width + 2;
            if (at >= h.length() || h.charAt(at - 2) != '|') break;
            String name = h.substring(at).split(" {2}|\\|")[0].trim();
            if (name.isEmpty()) break;
            nodes.add(name);
        }
        for (int k = 2; k + 1 < lines.size(); k += 2) {
            String label = lines.get(k), arrow = lines.get(k + 1).substring(10);
            int t = label.indexOf('|', 1);
            String time = label.substring(1, t);
            long nanos = Long.parseLong(time.replace(".", ""));
            int a = firstOf(arrow, "-<"), b = lastOf(arrow, "->");
            int left = Math.floorDiv(a - width / 2, width), right = Math.floorDiv(b + 2 - width / 2, width);
            boolean forward = arrow.indexOf('>') >= 0;
            String l = nodes.get(left), r = nodes.get(Math.min(right, nodes.size() - 1));
            int end = label.lastIndexOf('|');
            out.add(new Arrow(nanos, forward ? l : r, forward ? r : l, label.substring(end + 1), label + "\n" + lines.get(k + 1)));
        }
        return out;
    }

    private static int firstOf(String s, String chars) {
        for (int i = 0; i < s.length(); i++) if (chars.indexOf(s.charAt(i)) >= 0 && !inParens(s, i)) return i;
        return -1;
    }

    private static int lastOf(String s, String chars) {
        for (int i = s.length() - 1; i >= 0; i--) if (chars.indexOf(s.charAt(i)) >= 0 && !inParens(s, i)) return i;
        return -1;
    }

    /** A '-' inside a port's parentheses ("(-1)") is no arrow. */
    private static boolean inParens(String s, int i) {
        int open = s.lastIndexOf('(', i), close = s.lastIndexOf(')', i);
        return open > close;
    }

    private static Consumer<Run> says(String what) { return LauncherCases.says(what); }
}
