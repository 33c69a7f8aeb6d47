package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher runs a capture command on small inputs with C1 alone (-XX:TieredStopAtLevel=1): C2's compile work only
 * pays back over several hundred thousand frames (issue 14.1; docs/benchmarks.md, "helper jit"), for analyze over about
 * 2 M frames (under 1 GiB; "End of the ninth session"), and validate's 1 M frames cost less CPU and wall with C1 alone
 * (under 768 MiB; "helper val, twelfth session"). Big inputs, a
 * directory and live capture keep both compilers. The JVM's own flag table (-XX:+PrintFlagsFinal, through
 * METAROCE_JAVA_OPTS) says which compiler level the launcher chose.
 */
class SmallInputCompilerIT {
    private static final String SAMPLE = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
    private static final Pattern LEVEL = Pattern.compile("TieredStopAtLevel\\s+=\\s+(\\d)");

    @Test
    void aSmallCaptureRunsWithC1Alone() {
        assertEquals(1, level("dissect", "-r", SAMPLE, "-q"));
        assertEquals(1, level("analyze", "-r", SAMPLE));
        assertEquals(1, level("validate", SAMPLE));
    }

    @Test
    void theVersionQueryRunsWithC1Alone() {
        // answered before picocli loads: nothing of it is worth the optimising compiler's set-up
        assertEquals(1, level("--version"));
        assertEquals(1, level("-V"));
        assertEquals(4, level("dissect", "--version"), "only the bare version query");
    }

    @Test
    void theTopUsageRunsWithC1Alone() {
        // picocli's model of every command, built once: C2 compiled methods that never ran again
        assertEquals(1, level("--help"));
        assertEquals(1, level("-h"));
        assertEquals(1, level("help"));
        assertEquals(1, level());
        assertEquals(4, level("help", "analyze"), "only the top usage");
        assertEquals(4, level("simulate", "--help"), "only the top usage");
    }

    @Test
    void bigInputsDirectoriesAndOtherCommandsKeepC2(@TempDir Path tmp) throws Exception {
        Path big = tmp.resolve("big.pcap");   // sparse: only its size matters to the launcher (the run then fails)
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(300L << 20);
        }
        assertEquals(4, level("dissect", "-r", big.toString(), "-q"));
        // analyze's and validate's limits are higher (1 GiB and 768 MiB: C1 alone pays up to about 2 M frames for
        // analyze, and costs validate less at 1 M frames than C2's compiles)
        assertEquals(1, level("analyze", "-r", big.toString()));
        assertEquals(1, level("validate", big.toString()));
        // --check-icrc too: its CRC reads the reader's window (the JDK's intrinsic under C1 as under C2)
        assertEquals(1, level("analyze", "-r", big.toString(), "--check-icrc"));
        Path bigger = tmp.resolve("bigger.pcap");
        try (RandomAccessFile f = new RandomAccessFile(bigger.toFile(), "rw")) {
            f.setLength(800L << 20);
        }
        assertEquals(4, level("analyze", "-r", big.toString(), "-r", bigger.toString()), "the inputs add up");
        assertEquals(4, level("validate", bigger.toString()), "validate's limit is 768 MiB");
        assertEquals(4, level("validate", big.toString(), big.toString(), big.toString()), "the inputs add up");
        assertEquals(4, level("analyze", Launcher.CAPTURES.toString()));
        // index: the same limit as analyze; its --index DIR is not an input, a directory to index is
        Path idx = Files.createDirectories(tmp.resolve("flows.idx"));
        assertEquals(1, level("index", big.toString(), "--index", idx.toString()));
        assertEquals(4, level("index", big.toString(), bigger.toString(), "--index", idx.toString()));
        assertEquals(4, level("index", Launcher.CAPTURES.toString(), "--index", idx.toString()));
        assertEquals(4, level("simulate", "--scenario", "rocev2-clean", "--frames", "10", "--out", tmp.resolve("s.pcap").toString()));
    }

    @Test
    void c1AloneCompilesLaterAndReflectionUsesNativeAccessors(@TempDir Path tmp) throws Exception {
        // C1 alone comes with 4 times the compile thresholds (the start's run-once methods stay interpreted); with C2
        // the defaults stay
        assertEquals("4.0", scaling("analyze", "-r", SAMPLE));
        assertEquals("4.0", scaling("dissect", "-r", SAMPLE, "-q"));
        Path big = tmp.resolve("big.pcap");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(300L << 20);
        }
        assertEquals("1.0", scaling("dissect", "-r", big.toString(), "-q"));
        Launcher.Run props = Launcher.run(Launcher.Call.of("analyze", "-r", SAMPLE).env(Map.of("METAROCE_JAVA_OPTS", "-XshowSettings:properties")));
        assertTrue(props.show().contains("jdk.reflect.useNativeAccessorOnly = true"), props.show());
    }

    private static String scaling(String... args) {
        return decimalFlag("CompileThresholdScaling", args);
    }

    /** A decimal flag of the JVM the launcher started, to one decimal, as the JVM's flag table prints it. */
    private static String decimalFlag(String name, String... args) {
        Launcher.Run run = Launcher.run(Launcher.Call.of(args).env(Map.of("METAROCE_JAVA_OPTS", "-XX:+PrintFlagsFinal")));
        Matcher m = Pattern.compile(name + "\\s+=\\s+(\\d+\\.\\d)").matcher(run.out());
        assertTrue(m.find(), "the JVM printed its flags:\n" + run.show());
        return m.group(1);
    }

    /**
     * index of a directory or of big captures starts with a heap of an eighth of the RAM (its young generation holds
     * Lucene's indexing buffers); a small capture and the other commands keep the JVM's default (a 64th).
     */
    @Test
    void indexOfADirectoryStartsWithALargerHeap(@TempDir Path tmp) throws Exception {
        Path idx = Files.createDirectories(tmp.resolve("flows.idx"));
        assertEquals("12.5", initialRam("index", Launcher.CAPTURES.toString(), "--index", idx.toString()));
        assertEquals("1.5", initialRam("index", SAMPLE, "--index", idx.toString()));
        assertEquals("1.5", initialRam("analyze", Launcher.CAPTURES.toString()));
    }

    private static String initialRam(String... args) {
        return decimalFlag("InitialRAMPercentage", args);
    }

    /**
     * index runs with its heap in transparent huge pages where the kernel offers them ("always" or "madvise"; where it
     * does not, the JVM drops the flag quietly and reports it off): on a PVM guest each fresh 4 KB page of heap is a
     * page fault of ~15 us of CPU, and index touches fresh heap for the flows' frame lists, the part documents' packed
     * lists and Lucene's buffers (docs/benchmarks.md, "helper ixend, nineteenth session"). Both forms: a capture into a
     * new index (the plain form's own cache, C1 alone) and a directory into an existing index (both compilers).
     */
    @Test
    void indexRunsWithTransparentHugePages(@TempDir Path tmp) throws Exception {
        boolean offered = transparentHugePagesOffered();
        Path idx = tmp.resolve("flows.idx");
        Launcher.Run first = Launcher.run(Launcher.Call.of("index", SAMPLE, "--index", idx.toString(), "--no-progress")
                .env(Map.of("METAROCE_JAVA_OPTS", "-XX:+PrintFlagsFinal")));
        assertEquals(0, first.exit(), first.show());
        assertEquals(offered, thp(first), first.show());
        assertTrue(first.out().contains("indexed " + SAMPLE), "no word of the flag on the way:\n" + first.show());
        assertEquals("", first.err(), "no word of the flag on the way");
        Launcher.Run again = Launcher.run(Launcher.Call.of("index", Launcher.CAPTURES.toString(), "--index", idx.toString(),
                "--no-progress").env(Map.of("METAROCE_JAVA_OPTS", "-XX:+PrintFlagsFinal")));
        assertEquals(offered, thp(again), again.show());
    }

    /**
     * validate too, in its plain form and in every other (each has a cache of its own): its start touches fresh heap
     * for the rule engine's frame anchors, its per-slot state and the frame slots before the pass's first frame
     * (docs/benchmarks.md, "helper start, twenty-first session"); analyze as well (the same pass without the rules:
     * "End of the twenty-first session"). Not dissect, which the launcher leaves as it was.
     */
    @Test
    void validateAndAnalyzeRunWithTransparentHugePages() throws Exception {
        boolean offered = transparentHugePagesOffered();
        Map<String, String> flags = Map.of("METAROCE_JAVA_OPTS", "-XX:+PrintFlagsFinal");
        Launcher.Run plain = Launcher.run(Launcher.Call.of("validate", SAMPLE).env(flags));
        assertEquals(0, plain.exit(), plain.show());
        assertEquals(offered, thp(plain), plain.show());
        assertTrue(plain.out().contains(SAMPLE + ": PASS"), "no word of the flag on the way:\n" + plain.show());
        assertEquals("", plain.err(), "no word of the flag on the way");
        Launcher.Run json = Launcher.run(Launcher.Call.of("validate", SAMPLE, "-T", "json").env(flags));
        assertEquals(offered, thp(json), json.show());
        Launcher.Run analyze = Launcher.run(Launcher.Call.of("analyze", "-r", SAMPLE).env(flags));
        assertEquals(0, analyze.exit(), analyze.show());
        assertEquals(offered, thp(analyze), analyze.show());
        assertEquals("", analyze.err(), "no word of the flag on the way");
        assertFalse(thp(Launcher.run(Launcher.Call.of("dissect", "-r", SAMPLE, "-q").env(flags))), "dissect as it was");
    }

    private static boolean thp(Launcher.Run run) {
        Matcher m = Pattern.compile("UseTransparentHugePages\\s+=\\s+(true|false)").matcher(run.out());
        assertTrue(m.find(), "the JVM printed its flags:\n" + run.show());
        return Boolean.parseBoolean(m.group(1));
    }

    /** Whether the kernel gives huge pages to a region that asks for them (its mode is the bracketed word). */
    private static boolean transparentHugePagesOffered() throws java.io.IOException {
        Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        if (!Files.isReadable(mode)) return false;
        String s = Files.readString(mode);
        return s.contains("[always]") || s.contains("[madvise]");
    }

    @Test
    void theUserCanAskForC2() {
        assertEquals(4, level(Map.of("METAROCE_JAVA_OPTS", "-XX:TieredStopAtLevel=4 -XX:+PrintFlagsFinal"), "analyze", "-r", SAMPLE));
    }

    private static int level(String... args) {
        return level(Map.of("METAROCE_JAVA_OPTS", "-XX:+PrintFlagsFinal"), args);
    }

    private static int level(Map<String, String> env, String... args) {
        Launcher.Run run = Launcher.run(Launcher.Call.of(args).env(env));
        Matcher m = LEVEL.matcher(run.out());
        assertTrue(m.find(), "the JVM printed its flags:\n" + run.show());
        return Integer.parseInt(m.group(1));
    }
}
