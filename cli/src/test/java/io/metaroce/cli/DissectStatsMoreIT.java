package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.LauncherCases;
import io.metaroce.testsupport.PauseFrames;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rest of tshark's -z and -G on {@code dissect}, through the shipped launcher and against tshark itself:
 * io,stat with columns (filters and COUNT/SUM/MIN/MAX/AVG, integers and times, io,stat,0) in tshark's layout byte for
 * byte, several -z printed last first as tshark prints them, the taps counting the frames -Y hides (as tshark's),
 * expert's levels, -G fieldcount/values/ftypes/help, and the bad command lines (one line, exit 2).
 */
class DissectStatsMoreIT {
    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();
    /** The tshark runs the checks compare with, two at a time while the launcher runs (daemon threads: none outlives the tests). */
    private static final ExecutorService TSHARK = Executors.newFixedThreadPool(2, Thread.ofPlatform().daemon().factory());
    private static final String SPRAY = Launcher.CAPTURES.resolve("metaroce-spray-lossy-path.pcapng").toString();
    private static final String ECN = Launcher.CAPTURES.resolve("rocev2-ecn-cnp.pcapng").toString();
    private static final String GAPS = Launcher.CAPTURES.resolve("capture-gaps-truncated.pcapng").toString();
    private static final String ORACLE = Launcher.ROOT.resolve("samples/reference/roce_v4_oracle.pcap").toString();
    /**
     * Columns of every kind. Each function's field is also in a filter: tshark 4.0 reads a field only when some
     * filter names it (otherwise its column is 0), which is a tshark bug, not a habit to copy.
     */
    private static final String COLUMNS = "udp,infiniband.bth.opcode==4,COUNT(infiniband.bth.psn)infiniband.bth.psn,"
            + "SUM(frame.len)frame.len,MIN(infiniband.bth.psn)infiniband.bth.psn,MAX(frame.len)frame.len,AVG(frame.len)frame.len,"
            + ",udp.srcport > 50000,FRAMES,BYTES";
    private static final String TIMES = "MIN(frame.time_relative)frame.time_relative,MAX(frame.time_delta)frame.time_delta,"
            + "AVG(frame.time_relative)frame.time_relative,SUM(frame.time_delta)frame.time_delta";

    @BeforeAll
    static void runEveryCase() throws IOException {
        // io,stat: tshark's table byte for byte (pcapng and pcap, intervals that do not end on a frame: tshark leaves a
        // frame exactly at the end of the last interval out, which we keep in a row of its own).
        for (String[] c : new String[][] {{SPRAY, "io,stat,0.00005," + COLUMNS}, {ECN, "io,stat,0.00005," + COLUMNS},
                {ORACLE, "io,stat,0.0007," + COLUMNS}, {SPRAY, "io,stat,0.0001," + TIMES}, {ECN, "io,stat,0," + TIMES},
                {SPRAY, "io,stat,0"}, {ORACLE, "io,stat,0"}, {ECN, "io,stat,1"}, {SPRAY, "io,stat,0.00010"}}) {
            add(c[1] + " " + Path.of(c[0]).getFileName(), Call.of("dissect", "-r", c[0], "-q", "-z", c[1]), asTshark("-r", c[0], "-q", "-z", c[1]));
        }
        add("io,stat from stdin", Call.of("dissect", "-r", "-", "-q", "-z", "io,stat,0.00005," + COLUMNS).stdin(Path.of(SPRAY)),
                asTshark("-r", SPRAY, "-q", "-z", "io,stat,0.00005," + COLUMNS));
        add("io,stat shape", Call.of("dissect", "-r", SPRAY, "-q", "-z", "io,stat,0.00005,,udp"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("| Col 1: Frames and bytes") && r.out().contains("|     2: udp"), r.show());
            assertTrue(r.out().contains("\n| Interval           | Frames |  Bytes | Frames |  Bytes |\n"), r.show());
            assertTrue(r.out().contains("\n| 0.00000 <> 0.00005 |    178 | 135752 |    178 | 135752 |\n"), r.show());
        });
        // A filter holding a comma is one column (the pieces are joined while they do not compile, as tshark does).
        add("io,stat, a filter with a comma", Call.of("dissect", "-r", SPRAY, "-q", "-z", "io,stat,0,bth.opcode in {4,6},udp"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("| Col 1: bth.opcode in {4,6}") && r.out().contains("|     2: udp "), r.show());
        });

        // -t with io,stat: tshark's absolute rows (the first counted frame's second plus the interval's offset, cut to
        // the second) on captures that span seconds, a minute and a year's end; a column that matches nothing leaves
        // tshark's start time at the epoch. tshark's own -t u header is broken (its label line is lost), so u is
        // checked for UTC rows under a's header, and e, d, dd are refused in tshark's words.
        Path seconds = PauseFrames.write(tmp.resolve("seconds.pcap"), spread(1_695_783_643_887_653_000L));
        Path yearEnd = PauseFrames.write(tmp.resolve("year-end.pcap"), spread(1_704_067_196_500_000_000L));
        // The four intervals of each -t are four -z of one run, compared with tshark's run of the same four (each
        // table byte for byte, in tshark's order): a launcher start and a tshark start each instead of four. The
        // io,stat cases above check each -z alone; a table that goes wrong under -t still differs from tshark's.
        for (Path cap : List.of(seconds, yearEnd)) {
            for (String t : List.of("a", "ad", "adoy", "ud", "udoy")) {
                String[] args = {"-r", cap.toString(), "-q", "-t", t, "-z", "io,stat,0", "-z", "io,stat,1", "-z", "io,stat,2.5",
                        "-z", "io,stat,0.5,,eth.type == 0x8808"};
                Consumer<Run> same = asTshark(args);
                add("io,stat 0, 1, 2.5, 0.5 with a filter -t " + t + " " + cap.getFileName(), Call.of(concat(new String[] {"dissect"}, args)), r -> {
                    same.accept(r);
                    assertEquals(4, r.out().lines().filter(l -> l.startsWith("| IO Statistics")).count(), "four tables: " + r.show());
                });
            }
        }
        String[] none = {"-r", seconds.toString(), "-q", "-t", "ad", "-z", "io,stat,2.5,ip.src == 1.2.3.4"};
        Consumer<Run> noneAsTshark = asTshark(none);
        add("io,stat -t ad, no frame counted", Call.of(concat(new String[] {"dissect"}, none)), r -> {
            noneAsTshark.accept(r);
            assertTrue(r.out().contains("\n| 1970-01-01 00:00:02 |      0 |     0 |\n"), r.show());
        });
        add("io,stat -t ud rows", Call.of("dissect", "-r", yearEnd.toString(), "-q", "-t", "udoy", "-z", "io,stat,2.5"), r -> {
            assertEquals(0, r.exit(), r.show());
            // 23:59:56.5 UTC: rows from its whole second, 2.5 s apart, cut to the second, into the next year.
            assertTrue(r.out().contains("\n| Date and time       | Frames | Bytes |\n"), r.show());
            assertTrue(r.out().contains("\n| 2023/365 23:59:56 |"), r.show());
            assertTrue(r.out().contains("\n| 2023/365 23:59:58 |"), r.show());
            assertTrue(r.out().contains("\n| 2024/001 00:00:01 |"), r.show());
        });
        add("io,stat -t u", Call.of("dissect", "-r", seconds.toString(), "-q", "-t", "u", "-z", "io,stat,2.5"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("\n| Time         | Frames | Bytes |\n|-------------------------------|\n| 03:00:43 |"), r.show());
            assertTrue(r.out().contains("\n| 03:00:45 |"), r.show());
        });
        for (String t : List.of("e", "d", "dd", "e.3")) {
            add("io,stat -t " + t, Call.of("dissect", "-r", SPRAY, "-q", "-t", t, "-z", "io,stat,1"),
                    says("invalid -t operand. io,stat only supports -t <r|a|ad|adoy|u|ud|udoy>"));
        }

        // Several -z: the last given first, as tshark; -Y hides frames from the output, not from the taps (tshark's
        // taps see every frame read).
        String[] several = {"-q", "-Y", "frame.number <= 10", "-z", "conv,ip", "-z", "io,stat,0.00005,udp", "-z", "endpoints,udp"};
        Consumer<Run> severalAsTshark = asTshark(concat(new String[] {"-r", SPRAY}, several));
        add("several -z with -Y", Call.of(concat(new String[] {"dissect", "-r", SPRAY}, several)), r -> {
            severalAsTshark.accept(r);
            String out = r.out();
            assertTrue(out.indexOf("UDP Endpoints") < out.indexOf("IO Statistics") && out.indexOf("IO Statistics") < out.indexOf("IPv4 Conversations"), out);
            assertTrue(out.contains("\n| 0.00000 <> 0.00005 |    178 | 135752 |\n"), "every frame, not the 10 -Y shows: " + out);
        });
        add("io,phs with -Y", Call.of("dissect", "-r", SPRAY, "-Y", "frame.number <= 2", "-z", "io,phs"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals(2, r.out().lines().filter(l -> l.matches(" +\\d+ \\d+\\.\\d+ .*")).count(), "the two frames shown: " + r.show());
            assertTrue(r.out().contains("\nProtocol Hierarchy Statistics\nFilter: \n\neth                                      frames:365 "), r.show());
        });

        // A cut capture: every readable frame counts, then one line and exit 2.
        byte[] whole = Files.readAllBytes(Path.of(SPRAY));
        Path cut = Files.write(tmp.resolve("cut.pcapng"), Arrays.copyOf(whole, whole.length - 500));
        add("io,stat on a cut capture", Call.of("dissect", "-r", cut.toString(), "-q", "-z", "io,stat,0,COUNT(frame.number)"), r -> {
            assertEquals(2, r.exit(), r.show());
            assertEquals(1, r.errLines().size(), r.show());
            assertTrue(r.err().startsWith("metaroce dissect: "), r.show());
            long frames = frames(cut);
            assertTrue(frames > 300 && frames < 365, "frames read: " + frames);
            assertTrue(r.out().contains("|   " + frames + " |"), frames + " frames: " + r.show());
        });

        // expert,LEVEL: that severity and above.
        add("expert,warn", Call.of("dissect", "-r", GAPS, "-q", "-z", "expert,warn"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("\nWarns (4)\n") && !r.out().contains("Notes"), r.show());
        });
        add("expert,chat", Call.of("dissect", "-r", GAPS, "-q", "-z", "expert,chat"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("\nWarns (4)\n") && r.out().contains("\nNotes (2)\n"), r.show());
        });
        add("expert,error,bth", Call.of("dissect", "-r", GAPS, "-q", "-z", "expert,error,bth"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals("", r.out(), r.show());
        });

        // -G's other reports.
        add("-G fieldcount", Call.of("dissect", "-G", "fieldcount"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().matches("There are \\d+ header fields registered, of which:\n\t0 are deregistered\n\t\\d+ are protocols\n"
                    + "\t0 have the same name as another field\n\n"), r.show());
        });
        add("-G values", Call.of("dissect", "-G", "values"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().lines().allMatch(l -> l.matches("V\t[a-z0-9_.]+\t\\d+\t[^\t]+")), r.show());
            assertTrue(r.out().contains("V\tbth.opcode\t4\t") && r.out().contains("V\teth.type\t2048\tIPv4\n"), r.show());
        });
        add("-G ftypes", Call.of("dissect", "-G", "ftypes"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("FT_UINT24\tUnsigned integer (3 bytes)\n"), r.show());
        });
        add("-G fields (for ftypes)", Call.of("dissect", "-G", "fields"), r -> assertEquals(0, r.exit(), r.show()));
        add("-G help", Call.of("dissect", "-G", "help"), r -> {
            assertEquals(0, r.exit(), r.show());
            for (String g : List.of("fields", "protocols", "fieldcount", "values", "ftypes")) assertTrue(r.out().contains("  -G " + g + " "), r.show());
        });

        // Bad command lines: one line, exit 2, tshark's words where it has them.
        String[][] bad = {
                {"expert,bogus", "-z expert,bogus: unknown level 'bogus' (levels: error, warn, note, chat, comment;"},
                {"expert,warning", "unknown level 'warning'"},
                {"expert,note,nosuch", "-z expert,note,nosuch: bad display filter: "},
                {"io,stat,abc", "invalid -z argument \"io,stat,abc\"; it must be io,stat,INTERVAL[,COLUMN]..."},
                {"io,stat,1,", "invalid -z argument \"io,stat,1,\""},
                {"io,stat,0.0000001", "\"-z\" interval must be >=0.000001 seconds or \"0\" for the entire capture duration."},
                {"io,stat,1,SUM(frame.len", "Closing parenthesis missing from calculated expression."},
                {"io,stat,1,SUM()", "You didn't specify a field name for SUM(*)."},
                {"io,stat,1,COUNT(nosuch)", "There is no field named 'nosuch'."},
                {"io,stat,1,SUM(ip.src)", "ip.src doesn't have integral values, so SUM(*) calculations are not supported on it."},
                {"io,stat,1,FRAMES(frame.len)", "FRAMES does not require or allow a field name within the parens."},
                {"io,stat,1,LOAD(frame.time_delta)", "LOAD() is not supported here"},
                {"io,stat,1,bth.psn ==", "-z io,stat,1,bth.psn ==: bad display filter: "}};
        for (String[] b : bad) add("-z " + b[0], Call.of("dissect", "-r", SPRAY, "-q", "-z", b[0]), says(b[1]));
        add("-G nope", Call.of("dissect", "-G", "nope"), says("Invalid \"nope\" option for -G flag (one of fields, protocols, fieldcount, values, ftypes, column-formats, currentprefs, defaultprefs, help)"));

        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    /** Every field type -G fields prints is one -G ftypes lists. */
    @TestFactory
    Stream<DynamicTest> ftypesCoverTheFields() {
        return Stream.of(DynamicTest.dynamicTest("-G ftypes covers -G fields", () -> {
            Set<String> listed = CASES.run("-G ftypes").out().lines().map(l -> l.split("\t")[0]).collect(Collectors.toSet());
            Set<String> used = CASES.run("-G fields (for ftypes)").out().lines().filter(l -> l.startsWith("F\t"))
                    .map(l -> l.split("\t")[3]).collect(Collectors.toSet());
            assertFalse(used.isEmpty());
            assertTrue(listed.containsAll(used), used + " in " + listed);
        }));
    }

    /**
     * The run's output is tshark's with the same arguments, line for line (without tshark: exit 0 only). tshark starts
     * now, beside the launcher runs (two at a time): run one by one in the checks, the 40 tshark starts took about
     * as long as the 80 launcher runs did in parallel.
     */
    private static Consumer<Run> asTshark(String... args) {
        Future<List<String>> tshark = TSHARK.submit(() -> tshark(args));
        return r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> t = done(tshark);
            if (t != null) assertEquals(String.join("\n", t), String.join("\n", r.out().lines().toList()), "as tshark " + String.join(" ", args));
        };
    }

    /** tshark's lines, or its failure (an AssertionError on CI without tshark) thrown in the check that wanted them. */
    private static List<String> done(Future<List<String>> tshark) {
        try {
            return tshark.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(name, call, check); }

    private static Consumer<Run> says(String what) { return LauncherCases.says(what); }

    /** The frames our reader reads of a capture (tshark exits 2 on a cut one). */
    private static long frames(Path capture) { return DissectStatsIT.frames(capture); }

    /** PAUSE frames over 17 seconds from startNs (io,stat counts frames of any protocol): rows across seconds. */
    private static List<PauseFrames.Frame> spread(long startNs) {
        List<PauseFrames.Frame> l = new java.util.ArrayList<>();
        for (long offsetMs : new long[] {0, 900, 2_300, 4_900, 7_600, 12_200, 17_100}) {
            l.add(new PauseFrames.Frame(startNs + offsetMs * 1_000_000L, PauseFrames.pause(0x0200_0000_0001L, (int) offsetMs)));
        }
        return l;
    }

    private static String[] concat(String[] a, String[] b) {
        String[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static List<String> tshark(String... args) {
        return Tools.tshark(tmp, List.of("infiniband.eoib"), args);
    }
}
