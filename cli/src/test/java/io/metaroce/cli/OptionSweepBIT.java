package io.metaroce.cli;

import static io.metaroce.testsupport.LauncherCases.oneLine;
import static io.metaroce.testsupport.LauncherCases.oneLineExit2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.LauncherCases;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad option values and odd inputs of validate, index, search, extract and capture, as the shipped command gets
 * them (a sweep of the second session's helper B): each case was accepted silently, or ended in an internal error
 * or Java's own words, before its fix; each must now be one line on stderr and exit 2 (README, exit codes), never
 * a nonsense value taken as the default. The launcher processes run in parallel, once, before the checks
 * (as in LauncherIT).
 */
class OptionSweepBIT {
    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();
    private static final String CLEAN = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
    private static final String GBN = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString();

    @BeforeAll
    static void runEveryCase() throws Exception {
        // An index to search, and damaged copies of it (each copy as a disk that filled up would leave it).
        Path idx = tmp.resolve("flows.idx");
        Run made = Launcher.run("index", GBN, "--index", idx.toString());
        assertEquals(0, made.exit(), made.show());
        validateCases();
        indexCases(idx);
        captureCases();
        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    // ------------------------------------------------------------------ validate

    private static void validateCases() throws Exception {
        // --threads 0 and -1 were the default (one per core), silently.
        for (String n : List.of("0", "-1")) {
            add("validate --threads " + n, Call.of("validate", "--threads", n, CLEAN),
                    r -> oneLine(r, "metaroce validate: --threads must be at least 1, not " + n));
        }
        // Negative, NaN and infinite durations were taken as given (a CNP interval of -5 us judged every CNP against it).
        add("validate --cnp-interval-us -5", Call.of("validate", "--cnp-interval-us", "-5", CLEAN),
                r -> oneLine(r, "metaroce validate: --cnp-interval-us must be a number of microseconds, at least 0, not -5.0"));
        add("validate --slack-us NaN", Call.of("validate", "--slack-us", "NaN", CLEAN),
                r -> oneLine(r, "metaroce validate: --slack-us must be a number of microseconds, at least 0, not NaN"));
        // Java's "For input string: \"abc\"" named neither the option nor what was expected.
        add("validate --pmtu QP=abc", Call.of("validate", "--pmtu", "0x000201=abc", CLEAN),
                r -> oneLine(r, "metaroce validate: --pmtu: 'abc' is not a number"));
        add("validate --pmtu with a QP that is not one", Call.of("validate", "--pmtu", "zz=4096", CLEAN),
                r -> oneLine(r, "metaroce validate: 'zz' is not a QP (0x000201) or a flow id (10.0.0.1>10.0.0.2/0x000201)"));
        add("validate --path-count QP=x", Call.of("validate", "--path-count", "0x000201=x", CLEAN),
                r -> oneLine(r, "metaroce validate: --path-count: 'x' is not a number"));
        // Valid YAML of the wrong shape: a section that is not a mapping was read as empty, a text as 0, a negative
        // duration as given; the run went on with the defaults and exit 0.
        Map<String, String[]> configs = new LinkedHashMap<>();
        configs.put("thresholds a scalar", new String[] {"thresholds: 50\n", "thresholds: expected a mapping (name: value), got '50'"});
        configs.put("pmtu a text", new String[] {"pmtu: big\n", "pmtu: expected a mapping (name: value), got 'big'"});
        configs.put("path_count a list", new String[] {"path_count: [1, 2]\n", "path_count: expected a mapping (name: value), got '[1,2]'"});
        configs.put("severity a scalar", new String[] {"severity: error\n", "severity: expected a mapping (name: value), got 'error'"});
        configs.put("a negative threshold", new String[] {"thresholds:\n  reorder_window_us: -1\n",
                "reorder_window_us must be a number of microseconds, at least 0, not -1.0"});
        configs.put("cnp_interval_ns a text", new String[] {"thresholds:\n  cnp_interval_ns: fast\n",
                "cnp_interval_ns: expected a number of nanoseconds, got 'fast'"});
        configs.put("a PMTU that is a fraction", new String[] {"pmtu:\n  \"0x000201\": 1024.5\n", "pmtu of 0x000201: expected an integer, got '1024.5'"});
        int i = 0;
        for (var e : configs.entrySet()) {
            Path f = Files.writeString(tmp.resolve("config-" + i++ + ".yaml"), e.getValue()[0]);
            add("validate --config, " + e.getKey(), Call.of("validate", "--config", f.toString(), CLEAN),
                    r -> oneLine(r, "metaroce validate: " + f + ": " + e.getValue()[1]));
        }
        // A full disk: "cannot write output: No space left on device" was said of -o and --report alike.
        add("validate -o /dev/full", Call.of("validate", "-T", "json", "-o", "/dev/full", CLEAN),
                r -> oneLine(r, "metaroce validate: cannot write /dev/full: No space left on device"));
        add("validate --report /dev/full", Call.of("validate", "--report", "/dev/full", CLEAN),
                r -> oneLine(r, "metaroce validate: cannot write /dev/full: No space left on device"));
        // An empty --rules selected no pattern, which meant every rule; --skip-rules '' skipped none, silently.
        add("validate --rules ''", Call.of("validate", "--rules", "", CLEAN),
                r -> oneLine(r, "metaroce validate: --rules needs rule ids (MR-RTX-001, or wildcards: MR-CC-*), not ''"));
        add("validate --skip-rules ''", Call.of("validate", "--skip-rules", "", CLEAN),
                r -> oneLine(r, "metaroce validate: --skip-rules needs rule ids (MR-RTX-001, or wildcards: MR-CC-*), not ''"));
        // -c without -i was ignored: the whole file validated, exit 0.
        add("validate -c on a file", Call.of("validate", "-c", "5", CLEAN),
                r -> oneLine(r, "metaroce validate: -c N goes with -i IFACE (a capture file is validated whole)"));
        // -c 0 with -i was "no count limit", silently (as capture's -c 0).
        add("validate -i lo -c 0", Call.of("validate", "-i", "lo", "-c", "0", "-a", "duration:1"),
                r -> oneLine(r, "metaroce validate: -c must be at least 1, not 0"));
    }

    // ------------------------------------------------------------------ index, search, extract

    private static void indexCases(Path idx) throws Exception {
        String index = idx.toString();
        add("index --threads 0", Call.of("index", CLEAN, "--index", tmp.resolve("threads.idx").toString(), "--threads", "0"),
                r -> oneLine(r, "metaroce index: --threads must be at least 1, not 0"));
        // --shards 0 beside --index was ignored (checked only with --solr --create-collection).
        add("index --shards 0 with --index", Call.of("index", CLEAN, "--index", tmp.resolve("shards.idx").toString(), "--shards", "0"),
                r -> oneLine(r, "metaroce index: --shards and --replicas must be at least 1"));
        add("search --replicas -1", Call.of("search", "--index", index, "*:*", "--replicas", "-1"),
                r -> oneLine(r, "metaroce search: --shards and --replicas must be at least 1"));
        // A parent that is a file: an internal error naming FileSystemException.
        Path file = Files.writeString(tmp.resolve("a-file"), "x\n");
        add("index --index under a file", Call.of("index", CLEAN, "--index", file.resolve("flows.idx").toString()),
                r -> oneLine(r, "metaroce index: " + file.resolve("flows.idx") + ": cannot create the flow index directory: " + file + " is a file, not a directory"));
        // An empty name is the working directory to Java: ": not empty and not a metaroce flow index" named nothing.
        add("index --index ''", Call.of("index", CLEAN, "--index", ""), r -> {
            oneLineExit2(r);
            assertTrue(r.err().startsWith("metaroce index: --index needs a directory name"), r.show());
        });

        // Damaged copies of the index: Lucene's CorruptIndexException or EOFException was an internal error.
        Path cutStored = damagedCopy(idx, "cut-fdt", ".fdt", 100);
        Path cutCommit = damagedCopy(idx, "cut-segments", "segments_", 20);
        for (Path d : List.of(cutStored, cutCommit)) {
            String what = d.getFileName().toString();
            add("search, a damaged index (" + what + ")", Call.of("search", "--index", d.toString(), "*:*"), r -> damaged(r, "search", d));
            add("extract, a damaged index (" + what + ")", Call.of("extract", "--index", d.toString(), "*:*", "-w", tmp.resolve(what + ".pcapng").toString()),
                    r -> damaged(r, "extract", d));
        }
        Path writeInto = damagedCopy(idx, "cut-segments-index", "segments_", 20);
        add("index into a damaged index", Call.of("index", CLEAN, "--index", writeInto.toString()), r -> damaged(r, "index", writeInto));

        // More terms than Lucene takes in one query: IndexSearcher$TooManyClauses was an internal error.
        String many = String.join(" OR ", Collections.nCopies(1025, "naks:1"));
        String tooMany = "the query has more than 1024 terms for one search; split it into several searches";
        add("search, a query of 1025 terms", Call.of("search", "--index", index, many), r -> oneLine(r, "metaroce search: query: " + tooMany));
        add("extract, a query of 1025 terms", Call.of("extract", "--index", index, many, "-w", tmp.resolve("many.pcapng").toString()),
                r -> oneLine(r, "metaroce extract: query: " + tooMany));

        // search --top -n 0 printed an empty table and exited 0 (-n 0 without --top counts the matches, and stays).
        add("search --top -n 0", Call.of("search", "--index", index, "*:*", "--top", "src", "--by", "naks", "-n", "0"),
                r -> oneLine(r, "metaroce search: --limit must be at least 1 with --top, not 0"));
        // extract -n 0 wrote an empty capture and exited 0.
        add("extract -n 0", Call.of("extract", "--index", index, "*:*", "-n", "0", "-w", tmp.resolve("none.pcapng").toString()),
                r -> oneLine(r, "metaroce extract: --limit must be at least 1, not 0"));
        // A full disk: the bare "No space left on device" could have been a source capture's read.
        add("extract -w /dev/full", Call.of("extract", "--index", index, "*:*", "-w", "/dev/full"),
                r -> oneLine(r, "metaroce extract: /dev/full: No space left on device"));
    }

    /** A copy of the index whose (largest) file named with {@code part} is cut to {@code bytes}. */
    private static Path damagedCopy(Path idx, String name, String part, long bytes) throws Exception {
        Path copy = Files.createDirectories(tmp.resolve(name));
        try (Stream<Path> s = Files.list(idx)) {
            for (Path f : s.toList()) Files.copy(f, copy.resolve(f.getFileName()));
        }
        Path victim;
        try (Stream<Path> s = Files.list(copy)) {
            victim = s.filter(f -> f.getFileName().toString().contains(part)).max(Comparator.comparingLong(f -> f.toFile().length())).orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(victim.toFile(), "rw")) {
            f.setLength(bytes);
        }
        return copy;
    }

    private static void damaged(Run r, String command, Path dir) {
        oneLineExit2(r);
        String line = r.err().strip();
        assertTrue(line.startsWith("metaroce " + command + ": " + dir + ": the flow index is damaged ("), r.show());
        assertTrue(line.endsWith("); index the captures again into a new directory"), r.show());
        assertFalse(line.contains("internal error"), r.show());
    }

    // ------------------------------------------------------------------ capture

    private static void captureCases() {
        // Each was "no limit" (0 inside), so the capture ran on until the other stop, and exited 0.
        String out = tmp.resolve("cap.pcapng").toString();
        add("capture -c 0", Call.of("capture", "-i", "lo", "-c", "0", "-a", "duration:1", "-w", out),
                r -> oneLine(r, "metaroce capture: -c must be at least 1, not 0"));
        for (String a : List.of("duration:0", "filesize:0")) {
            add("capture -a " + a, Call.of("capture", "-i", "lo", "-a", a, "-a", "duration:1", "-w", out),
                    r -> oneLine(r, "metaroce capture: -a " + a + ": must be above 0"));
        }
        add("capture -b filesize:0", Call.of("capture", "-i", "lo", "-b", "filesize:0", "-a", "duration:1", "-w", out),
                r -> oneLine(r, "metaroce capture: -b filesize:0: must be above 0"));
        add("capture -b files:0", Call.of("capture", "-i", "lo", "-b", "filesize:100", "-b", "files:0", "-a", "duration:1", "-w", out),
                r -> oneLine(r, "metaroce capture: -b files:0: must be above 0"));
        add("capture -b duration:0", Call.of("capture", "-i", "lo", "-b", "duration:0", "-a", "duration:1", "-w", out),
                r -> oneLine(r, "metaroce capture: -b duration:0: must be above 0"));
    }

    // ------------------------------------------------------------------ helpers

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(name, call, check); }
}
