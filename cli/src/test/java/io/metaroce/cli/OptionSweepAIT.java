package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Bad option values of {@code dissect} and {@code analyze}, through the shipped launcher: each
 * was accepted without a word (and ignored or misread), ran out of memory, hung, or failed with an internal error
 * or a line that named nothing. Each must now be one line on stderr naming the tool, and exit 2. The launcher
 * processes run in parallel, once, before the checks (as in {@link LauncherIT}).
 */
class OptionSweepAIT {
    private record Case(String name, Call call, Consumer<Run> check) {}

    private static final List<Case> CASES = new ArrayList<>();
    private static final Map<String, Run> RUNS = new LinkedHashMap<>();

    @BeforeAll
    static void runEveryCase() {
        String sample = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
        String[] fields = {"dissect", "-r", sample, "-c", "1", "-T", "fields", "-e", "frame.number", "-e", "ip.addr"};

        // --threads: 0 and negatives were the default in silence; 100000 workers filled the heap (out of memory).
        for (String n : new String[] {"0", "-1", "100000"}) {
            add("dissect --threads " + n, Call.of("dissect", "-r", sample, "--threads", n), says("--threads must be 1 to 1024, not " + n));
        }
        add("analyze --threads 0", Call.of("analyze", "-r", sample, "--threads", "0"), says("--threads must be at least 1, not 0"));
        add("analyze --threads -1, several files", Call.of("analyze", sample, sample, "--threads", "-1"),
                says("--threads must be at least 1, not -1"));
        // analyze -c counts live frames; on a file it was ignored (every frame analyzed, exit 0).
        add("analyze -r FILE -c 5", Call.of("analyze", "-r", sample, "-c", "5"), says("-c applies to a live capture (-i IFACE)"));

        // -E values outside the documented ones: header=maybe was n, quote=z was n, separator=xx was "xx".
        for (String e : new String[] {"header=maybe", "quote=z", "separator=xx", "separator=", "aggregator="}) {
            add("dissect -E " + e, call(fields, "-E", e), says("bad -E value '" + e + "'"));
        }
        add("dissect -E, the documented values", call(fields, "-E", "header=y", "-E", "separator=,", "-E", "aggregator=/s", "-E", "quote=d"),
                r -> {
                    assertEquals(0, r.exit(), r.show());
                    assertEquals("frame.number,ip.addr\n\"1\",\"10.0.0.1 10.0.0.2\"\n", r.out(), r.show());
                });

        // -r -: tshark's standard input; it said "-: no such file".
        add("dissect -r -", Call.of("dissect", "-r", "-"), says("-: standard input cannot be read"));

        List<Run> runs = Launcher.runAll(CASES.stream().map(Case::call).toList());
        for (int i = 0; i < CASES.size(); i++) RUNS.put(CASES.get(i).name(), runs.get(i));
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> c.check().accept(RUNS.get(c.name()))));
    }

    /** Exit 2, one line on stderr that names the tool and says {@code what}, no stack trace, no internal error. */
    private static Consumer<Run> says(String what) {
        return r -> {
            LauncherIT.oneLineExit2(r);
            assertFalse(r.err().contains("internal error"), r.show());
            assertTrue(r.err().contains(what), "expected '" + what + "': " + r.show());
        };
    }

    private static Call call(String[] base, String... more) {
        List<String> args = new ArrayList<>(List.of(base));
        args.addAll(List.of(more));
        return Call.of(args);
    }

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(new Case(name, call, check)); }
}
