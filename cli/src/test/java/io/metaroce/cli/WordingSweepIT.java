package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The last places where picocli's own words reached the user (twenty-sixth session), through the shipped launcher:
 * {@code metaroce help nosuch} ("Unknown subcommand 'nosuch'." and no hint), an option given twice ("option '--read'
 * (FILE) should be specified only once", the long name when -r was typed) and an option without its value ("Missing
 * required parameter for option '--display-filter' (FILTER)" and a second line). Each must be exactly one line on
 * stderr naming the tool, the option as typed, and exit 2. {@link OptionWordingTest} checks every option in-process.
 */
class WordingSweepIT {
    @TempDir
    static Path tmp;

    private record Case(String name, Call call, String line) {}

    private static final List<Case> CASES = new ArrayList<>();
    private static final Map<String, Run> RUNS = new LinkedHashMap<>();
    private static final String CLEAN = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();

    @BeforeAll
    static void runEveryCase() {
        String out = tmp.resolve("x.pcapng").toString(), idx = tmp.resolve("idx").toString();
        // help with a command that is not one: Main's line for 'metaroce nosuch'.
        add("metaroce help nosuch", "metaroce: unknown command 'nosuch' (commands: dissect, analyze, validate, simulate, capture, "
                + "index, search, extract, compare, gui; see metaroce --help)", "help", "nosuch");
        add("metaroce help analyse", "metaroce: unknown command 'analyse'; did you mean 'analyze'? (see metaroce --help)",
                "help", "analyse");
        // Given twice.
        String dissectOnce = "dissect reads one capture (use 'metaroce analyze DIR' or mergecap for several)";
        add("dissect -r F -r F", "metaroce dissect: -r given twice; " + dissectOnce, "dissect", "-r", CLEAN, "-r", CLEAN);
        add("dissect -r F --read=F", "metaroce dissect: --read given twice; " + dissectOnce, "dissect", "-r", CLEAN, "--read=" + CLEAN);
        add("dissect -Tjson -T text", "metaroce dissect: -T given twice (it takes one value: give it once)",
                "dissect", "-r", CLEAN, "-Tjson", "-T", "text");
        add("dissect -q -q", "metaroce dissect: -q given twice (give it once)", "dissect", "-r", CLEAN, "-q", "-q");
        add("analyze -T twice", "metaroce analyze: -T given twice (it takes one value: give it once)",
                "analyze", "-r", CLEAN, "-T", "json", "-T", "json");
        add("validate --threads twice", "metaroce validate: --threads given twice (it takes one value: give it once)",
                "validate", CLEAN, "--threads", "1", "--threads", "2");
        add("simulate --out twice", "metaroce simulate: --out given twice (it takes one value: give it once)",
                "simulate", "--scenario", "rocev2-clean", "--out", out, "--out", out);
        add("capture -w twice", "metaroce capture: -w given twice (it takes one value: give it once)",
                "capture", "-i", "lo", "-w", out, "-w", out);
        add("index --index twice", "metaroce index: --index given twice (it takes one value: give it once)",
                "index", CLEAN, "--index", idx, "--index", idx);
        add("search -n twice", "metaroce search: -n given twice (it takes one value: give it once)",
                "search", "--index", idx, "*:*", "-n", "1", "-n", "2");
        add("extract -w twice", "metaroce extract: -w given twice (it takes one value: give it once)",
                "extract", "--index", idx, "*:*", "-w", out, "-w", out);
        add("compare --window twice", "metaroce compare: --window given twice (it takes one value: give it once)",
                "compare", CLEAN, CLEAN, "--window", "1", "--window=2");
        // Without a value.
        String filter = "metaroce dissect: -Y needs a display filter, e.g. -Y 'bth.opcode == 4'";
        add("dissect -Y", filter, "dissect", "-r", CLEAN, "-Y");
        add("dissect -Y -q", filter, "dissect", "-r", CLEAN, "-Y", "-q");
        add("dissect --display-filter", "metaroce dissect: --display-filter needs a display filter, e.g. --display-filter "
                + "'bth.opcode == 4'", "dissect", "-r", CLEAN, "--display-filter");
        add("dissect -r", "metaroce dissect: -r needs a file name (FILE)", "dissect", "-r");
        add("dissect -c", "metaroce dissect: -c needs a number (N)", "dissect", "-r", CLEAN, "-c");
        add("dissect -T", "metaroce dissect: -T needs one of text, json, jsonl or fields", "dissect", "-r", CLEAN, "-T");
        add("dissect -f", "metaroce dissect: -f needs a capture filter, e.g. -f 'udp port 4791'", "dissect", "-r", CLEAN, "-f");
        add("analyze --tap", "metaroce analyze: --tap needs one of auto, host:IP or mirror", "analyze", "-r", CLEAN, "--tap");
        add("validate --threads", "metaroce validate: --threads needs a number (N)", "validate", CLEAN, "--threads");
        add("capture -i", "metaroce capture: -i needs an interface name (metaroce capture -D lists them)", "capture", "-i");
        add("index --index", "metaroce index: --index needs a directory name", "index", CLEAN, "--index");
        add("search --index", "metaroce search: --index needs a directory name", "search", "*:*", "--index");
        add("compare --window", "metaroce compare: --window needs a number of seconds", "compare", CLEAN, CLEAN, "--window");
        add("simulate --loss", "metaroce simulate: --loss needs a probability from 0 to 1", "simulate", "--scenario", "rocev2-clean",
                "--loss");
        List<Run> runs = Launcher.runAll(CASES.stream().map(Case::call).toList());
        for (int i = 0; i < CASES.size(); i++) RUNS.put(CASES.get(i).name(), runs.get(i));
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            Run r = RUNS.get(c.name());
            assertEquals(2, r.exit(), r.show());
            assertEquals(List.of(c.line()), r.errLines(), r.show());
            assertEquals("", r.out(), r.show());
        }));
    }

    private static void add(String name, String line, String... args) { CASES.add(new Case(name, Call.of(args), line)); }
}
