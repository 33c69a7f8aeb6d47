package io.metaroce.cli;

import static io.metaroce.testsupport.LauncherCases.oneLineExit2;
import static io.metaroce.testsupport.LauncherCases.says;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.LauncherCases;
import io.metaroce.testsupport.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * tshark habits that {@code dissect} refused with "Unknown option" (-w, -F, -P, -x, -t, -n, -2), through the shipped
 * launcher, and compared with tshark itself where the output is comparable: the hex dump byte for byte, the written
 * capture's frames (times, lengths, bytes, interface) against tshark -w's with the same RoCEv2 filter, the time
 * column against tshark's. The launcher runs go in parallel, once, before the checks (as OptionSweepAIT).
 */
class DissectHabitsIT {
    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();
    private static final String SPRAY = Launcher.CAPTURES.resolve("metaroce-spray-lossy-path.pcapng").toString();
    private static final String ORACLE = Launcher.ROOT.resolve("samples/reference/roce_v4_oracle.pcap").toString();

    @BeforeAll
    static void runEveryCase() throws IOException {
        // -x: the dump lines are tshark's, byte for byte (pcapng and pcap, a file and standard input).
        for (String sample : List.of(SPRAY, ORACLE)) {
            String name = Path.of(sample).getFileName().toString();
            add("-x " + name, Call.of("dissect", "-r", sample, "-x"), r -> {
                assertEquals(0, r.exit(), r.show());
                List<String> t = tshark("-r", sample, "-x");
                if (t != null) assertEquals(String.join("\n", t), String.join("\n", r.out().lines().toList()), "as tshark -x");
                assertTrue(r.out().startsWith("0000  "), "only the dump without -P, as tshark 4");
            });
            add("-x -r - " + name, Call.of("dissect", "-r", "-", "-x", "-c", "3").stdin(Path.of(sample)), r -> {
                assertEquals(0, r.exit(), r.show());
                List<String> t = tshark("-r", sample, "-x", "-c", "3");
                if (t != null) assertEquals(String.join("\n", t), String.join("\n", r.out().lines().toList()), "as tshark -x -c 3");
            });
        }
        add("-x -P", Call.of("dissect", "-r", SPRAY, "-x", "-P", "-c", "2"), r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> lines = r.out().lines().toList();
            assertTrue(lines.get(0).startsWith("     1 0.000000000 "), r.show());
            assertEquals("", lines.get(1), "an empty line between the summary and the dump, as tshark -P -x");
            assertTrue(lines.get(2).startsWith("0000  02 00 00 00"), r.show());
            List<String> t = tshark("-r", SPRAY, "-x", "-c", "2");
            List<String> dumps = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith(" ")) i++; // the summary line and the empty line after it
                else dumps.add(lines.get(i));
            }
            if (t != null) assertEquals(t, dumps, "the dumps as tshark's");
        });
        add("-V -x", Call.of("dissect", "-r", SPRAY, "-V", "-x", "-c", "1"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().startsWith("Frame 1: 322 bytes on wire"), r.show());
            assertTrue(r.out().contains("\n\n0000  02 00 00 00 02 10") && r.out().endsWith("0140  96 76" + " ".repeat(45) + ".v\n\n"), r.show());
        });

        // -w: the frames that pass the filter, as tshark -w writes them with the same filter under its name.
        Path ng = tmp.resolve("w.pcapng");
        add("-w FILE -Y", Call.of("dissect", "-r", SPRAY, "-Y", "bth.opcode == 7", "-w", ng.toString()), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals("", r.out(), "nothing printed per frame with -w, as tshark");
            assertEquals(150, frames(ng));
            sameAsTshark(ng, SPRAY, "infiniband.bth.opcode == 7", "pcapng");
        });
        Path pcap = tmp.resolve("w.pcap");
        add("-w FILE -F pcap", Call.of("dissect", "-r", ORACLE, "-Y", "udp.dstport == 4791", "-F", "pcap", "-w", pcap.toString()), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(capinfos(pcap).contains("nanosecond pcap") || capinfos(pcap).contains("- pcap"), capinfos(pcap));
            sameAsTshark(pcap, ORACLE, "udp.dstport == 4791", "pcap");
        });
        add("-w - -r - -c 5", Call.of("dissect", "-r", "-", "-w", "-", "-c", "5").stdin(Path.of(SPRAY)), r -> {
            assertEquals(0, r.exit(), r.show());
            Path out = write("stdout.pcapng", r.stdout());
            assertEquals(5, frames(out));
            List<String> t = tshark("-r", out.toString(), "-x");
            if (t != null) assertEquals(tshark("-r", SPRAY, "-x", "-c", "5"), t, "the first 5 frames, byte for byte");
        });
        Path withP = tmp.resolve("p.pcapng");
        add("-w FILE -P", Call.of("dissect", "-r", SPRAY, "-w", withP.toString(), "-P", "-c", "2"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals(2, r.out().lines().count(), "-P: the summary lines too");
            assertEquals(2, frames(withP));
        });
        Path none = tmp.resolve("none.pcap");
        add("-w FILE, no frame passes", Call.of("dissect", "-r", SPRAY, "-F", "pcap", "-w", none.toString(), "-Y", "frame.number == 9999"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals(0, frames(none), "a valid capture with no frame");
        });
        // A cut capture: every readable frame written, then the reader's one line, exit 2 (docs/robustness.md).
        byte[] whole = Files.readAllBytes(Path.of(SPRAY));
        Path cut = write("cut.pcapng", Arrays.copyOf(whole, 100_000));
        Path fromCut = tmp.resolve("from-cut.pcapng");
        add("-w FILE from a cut capture", Call.of("dissect", "-r", cut.toString(), "-w", fromCut.toString()), r -> {
            oneLineExit2(r);
            assertTrue(r.err().contains("truncated block at byte 99804"), r.show());
            assertEquals(120, frames(fromCut), "every frame before the cut");
        });
        add("-x on a cut capture", Call.of("dissect", "-r", cut.toString(), "-x"), r -> {
            oneLineExit2(r);
            assertEquals(120, r.out().lines().filter(l -> l.startsWith("0000  ")).count(), r.show());
        });

        // -t: the time column as tshark's for every format (UTC and local time agree on a machine in UTC; the
        // comparison is with tshark on the same machine, so local time is compared as well).
        for (String t : SummaryLinesFormats.ALL) {
            add("-t " + t, Call.of("dissect", "-r", SPRAY, "-t", t, "-Y", "bth.opcode == 7"), r -> {
                assertEquals(0, r.exit(), r.show());
                List<String> ours = r.out().lines().map(l -> {
                    String[] w = l.trim().split(" ");
                    return w[1].matches("\\d{4}[-/].*") ? w[1] + " " + w[2] : w[1];
                }).toList();
                assertEquals(150, ours.size());
                List<String> ts = tshark("-r", SPRAY, "-t", t, "-Y", "infiniband.bth.opcode == 7", "-T", "fields", "-e", "_ws.col.Time");
                if (ts != null) assertEquals(ts, ours, "-t " + t + " as tshark's time column");
            });
        }
        add("-t ad.3", Call.of("dissect", "-r", SPRAY, "-t", "ad.3", "-c", "1"),
                r -> assertTrue(r.out().startsWith("     1 2026-01-01 00:00:00.000 10.0.0.1"), r.show()));
        add("-t e.0", Call.of("dissect", "-r", SPRAY, "-t", "e.0", "-c", "1"),
                r -> assertTrue(r.out().startsWith("     1 1767225600 10.0.0.1"), r.show()));

        // -n and -2: accepted as tshark does (-2 is the analysis pass, as -A).
        add("-n -2", Call.of("dissect", "-r", SPRAY, "-n", "-2", "-c", "1", "-V"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("\nAnalysis\n"), "-2 analyzes first, as -A: " + r.show());
        });

        // -O: the tree with the fields of the named protocols only, the other blocks as their top line (tshark -O).
        add("-O bth,ip", Call.of("dissect", "-r", SPRAY, "-O", "bth,ip", "-Y", "bth.opcode == 7", "-c", "2"), r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> fields = r.out().lines().filter(l -> l.startsWith("    ")).toList();
            assertFalse(fields.isEmpty(), r.show());
            for (String l : fields) assertTrue(l.matches(".*\\[(bth|ip)\\.[a-z0-9_.]+\\]$"), "only bth and ip fields: " + l);
            assertEquals(2, r.out().lines().filter(l -> l.startsWith("Ethernet II")).count(), "the other layers as one line");
            assertEquals(2, r.out().lines().filter(l -> l.startsWith("RDMA Extended Transport Header")).count(), r.show());
        });
        add("-O infiniband", Call.of("dissect", "-r", SPRAY, "-O", "infiniband", "-Y", "bth.opcode == 7", "-c", "1"), r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> fields = r.out().lines().filter(l -> l.startsWith("    ")).toList();
            assertTrue(fields.stream().anyMatch(l -> l.endsWith("[reth.dma_length]")), r.show());
            assertTrue(fields.stream().anyMatch(l -> l.endsWith("[mrth.path_id]")), r.show());
            assertFalse(fields.stream().anyMatch(l -> l.matches(".*\\[(eth|ip|udp|frame)\\..*")), "not below RoCE: " + r.show());
        });

        // -z io,phs and io,stat: the frames and bytes as tshark counts them (tshark's infiniband is our bth and below).
        for (String sample : List.of(SPRAY, Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString(), ORACLE)) {
            String name = Path.of(sample).getFileName().toString();
            add("-z io,phs " + name, Call.of("dissect", "-r", sample, "-q", "-z", "io,phs"), r -> {
                assertEquals(0, r.exit(), r.show());
                assertTrue(r.out().startsWith("\n===================================================================\nProtocol Hierarchy Statistics\n"), r.show());
                List<String> t = tshark("-r", sample, "-q", "-z", "io,phs");
                if (t == null) return;
                for (String[] p : new String[][] {{"eth", "eth"}, {"  ip", "  ip"}, {"    udp", "    udp"}, {"      bth", "      infiniband"}}) {
                    assertEquals(phsCounts(t, p[1]), phsCounts(r.out().lines().toList(), p[0]), p[0] + " as tshark's " + p[1] + ": " + r.out());
                }
            });
            // An interval that does not divide the captures' durations: tshark drops a last frame that ends exactly on
            // an interval's bound (no row for it), which we keep.
            add("-z io,stat " + name, Call.of("dissect", "-r", sample, "-q", "-z", "io,stat,0.00007"), r -> {
                assertEquals(0, r.exit(), r.show());
                List<String> t = tshark("-r", sample, "-q", "-z", "io,stat,0.00007");
                if (t != null) assertEquals(ioRows(t), ioRows(r.out().lines().toList()), "frames and bytes per interval as tshark's");
            });
        }
        add("-z io,phs, frames printed before", Call.of("dissect", "-r", SPRAY, "-c", "2", "-z", "io,phs"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().startsWith("     1 0.000000000 "), r.show());
            assertTrue(r.out().contains("\neth                                      frames:2 bytes:644\n"), r.show());
        });
        add("-z help", Call.of("dissect", "-r", SPRAY, "-z", "help"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("     io,phs[,FILTER]\n     io,stat,INTERVAL[,FILTER|FUNC(FIELD)FILTER]..."), r.show());
        });
        add("-z nope", Call.of("dissect", "-r", SPRAY, "-z", "nope"), says("invalid -z argument \"nope\"; it must be one of: conv,TYPE, endpoints,TYPE"));
        add("-z io,stat,-1", Call.of("dissect", "-r", SPRAY, "-z", "io,stat,-1"), says("invalid -z argument \"io,stat,-1\""));

        // Bad command lines: one line, exit 2, tshark's wording where it has one.
        add("-O nosuch", Call.of("dissect", "-r", SPRAY, "-O", "bth,nosuch"), says("-O nosuch: no such protocol here (one of "));
        add("-F alone", Call.of("dissect", "-r", SPRAY, "-w", tmp.resolve("f.pcapng").toString(), "-F"),
                says("The available capture file types for the \"-F\" flag are: pcap"));
        add("-F xyz", Call.of("dissect", "-r", SPRAY, "-w", tmp.resolve("f.pcapng").toString(), "-F", "xyz"),
                says("\"xyz\" isn't a valid capture file type"));
        add("-t x", Call.of("dissect", "-r", SPRAY, "-t", "x"), says("Invalid time stamp type \"x\"; it must be one of a, ad"));
        add("-t r.10", Call.of("dissect", "-r", SPRAY, "-t", "r.10"), says("Invalid time stamp type \"r.10\""));
        add("-w into a missing directory", Call.of("dissect", "-r", SPRAY, "-w", "/nonexistent/x.pcapng"),
                says("The file to which the capture would be saved (\"/nonexistent/x.pcapng\") could not be opened: No such file or directory."));
        add("-w the capture read", Call.of("dissect", "-r", SPRAY, "-w", SPRAY), r -> {
            says("is the capture being read: write to another file").accept(r);
            try {
                assertArrayEquals(whole, Files.readAllBytes(Path.of(SPRAY)));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        add("-w - -V", Call.of("dissect", "-r", SPRAY, "-w", "-", "-V"), says("-w - writes the capture to standard output"));
        add("-x -T json", Call.of("dissect", "-r", SPRAY, "-x", "-T", "json"), says("-x prints the hex dump with the text output"));
        add("-w /dev/full", Call.of("dissect", "-r", SPRAY, "-w", "/dev/full"), says("cannot write /dev/full: No space left on device"));
        // -T ek for Elasticsearch's _bulk, flushed frame by frame (-l), through the shipped launcher.
        add("-T ek -l -c 2", Call.of("dissect", "-r", SPRAY, "-T", "ek", "-l", "-c", "2", "-Y", "bth"), r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> lines = r.out().lines().toList();
            assertEquals(4, lines.size(), r.show());
            assertTrue(lines.get(0).startsWith("{\"index\":{\"_index\":\"packets-"), r.show());
            assertTrue(lines.get(3).startsWith("{\"timestamp\":\"") && lines.get(3).contains("\"infiniband_infiniband_bth_psn\":\""), r.show());
        });

        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    /** tshark's -t formats (SummaryLines.TIME_FORMATS, listed here so that the test names them itself). */
    private static final class SummaryLinesFormats {
        static final List<String> ALL = List.of("a", "ad", "adoy", "d", "dd", "e", "r", "u", "ud", "udoy");
    }

    /**
     * Our -w file and tshark's (-w with the filter under its name, and -F type) hold the same frames: times, lengths,
     * interface name and encapsulation, and the bytes (tshark -x of both).
     */
    private static void sameAsTshark(Path ours, String in, String tsharkFilter, String type) {
        Path theirs = tmp.resolve("tshark-" + ours.getFileName());
        if (tshark("-r", in, "-Y", tsharkFilter, "-F", type, "-w", theirs.toString()) == null) return;
        String[] fields = {"-T", "fields", "-e", "frame.number", "-e", "frame.time_epoch", "-e", "frame.len", "-e", "frame.cap_len",
                "-e", "frame.interface_name", "-e", "frame.encap_type"};
        assertEquals(tshark(concat(new String[] {"-r", theirs.toString()}, fields)), tshark(concat(new String[] {"-r", ours.toString()}, fields)),
                "frames, times and lengths as tshark -w wrote them");
        assertEquals(tshark("-r", theirs.toString(), "-x"), tshark("-r", ours.toString(), "-x"), "the bytes as tshark -w wrote them");
        assertTrue(tshark("-r", ours.toString(), "-x").size() > 0);
    }

    /** The "frames:N bytes:M" of the io,phs line of a protocol (its indent included). */
    private static String phsCounts(List<String> lines, String indentedName) {
        for (String l : lines) if (l.startsWith(indentedName + " ")) return l.substring(41).trim();
        return "no " + indentedName + " in " + lines;
    }

    /** The frames and bytes of each io,stat row (tshark prints the interval bounds with other decimals). */
    private static List<String> ioRows(List<String> lines) {
        return lines.stream().filter(l -> l.contains("<>")).map(l -> {
            String[] cells = l.split("\\|");
            return cells[2].trim() + " " + cells[3].trim();
        }).toList();
    }

    private static String[] concat(String[] a, String[] b) {
        String[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** The frames of a capture as tshark reads it (without tshark: as our own reader counts them). */
    private static long frames(Path capture) {
        List<String> t = tshark("-r", capture.toString(), "-T", "fields", "-e", "frame.number");
        if (t != null) return t.size();
        try (var src = io.metaroce.capture.CaptureFiles.open(capture)) {
            long n = 0;
            while (src.next()) n++;
            assertTrue(src.problems().isEmpty(), src.problems().toString());
            return n;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String capinfos(Path capture) {
        List<String> out = run(List.of("capinfos", "-t", capture.toString()));
        return out == null ? "- pcap" : String.join("\n", out);
    }

    private static Path write(String name, byte[] bytes) {
        try {
            return Files.write(tmp.resolve(name), bytes);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** tshark's output lines (its RDMA heuristics off), or null when it is not installed (our own checks stand alone). */
    private static List<String> tshark(String... args) {
        return Tools.tshark(tmp, List.of(), args);
    }

    private static List<String> run(List<String> cmd) {
        return Tools.lines(tmp, cmd);
    }

    private static void assertArrayEquals(byte[] a, byte[] b) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(a, b, "the capture read is untouched");
    }

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(name, call, check); }
}
