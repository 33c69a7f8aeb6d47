package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.LauncherCases;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    private static final LauncherCases CASES = new LauncherCases();
    private static final String CLEAN = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();

    @BeforeAll
    static void runEveryCase() {
        String out = tmp.resolve("x.pcapng").toString(), idx = tmp.resolve("idx").toString();
        // help with a command that is not one: Main's line for 'metaroce nosuch'.
        add("metaroce help nosuch", "metaroce: unknown command 'nosuch' (commands: dissect, analyze, validate, simulate, capture, "
                + "index, search, extract, viewer, compare, merge, edit, info, reorder, gui; see metaroce --help)", "help", "nosuch");
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
        add("dissect -T", "metaroce dissect: -T needs one of text, json, jsonl, fields, ek, pdml, psml or tabs", "dissect", "-r", CLEAN, "-T");
        add("dissect -f", "metaroce dissect: -f needs a capture filter, e.g. -f 'udp port 4791'", "dissect", "-r", CLEAN, "-f");
        add("analyze --tap", "metaroce analyze: --tap needs one of auto, host:IP or mirror", "analyze", "-r", CLEAN, "--tap");
        add("validate --threads", "metaroce validate: --threads needs a number (N)", "validate", CLEAN, "--threads");
        add("capture -i", "metaroce capture: -i needs an interface name (metaroce capture -D lists them)", "capture", "-i");
        add("index --index", "metaroce index: --index needs a directory name", "index", CLEAN, "--index");
        add("search --index", "metaroce search: --index needs a directory name", "search", "*:*", "--index");
        add("compare --window", "metaroce compare: --window needs a number of seconds", "compare", CLEAN, CLEAN, "--window");
        add("simulate --loss", "metaroce simulate: --loss needs a probability from 0 to 1", "simulate", "--scenario", "rocev2-clean",
                "--loss");
        // A missing argument, a word too many, an unknown option (twenty-seventh session): picocli's "Missing
        // required parameter: 'QUERY'", "Missing required option: '--write=FILE'", "Unmatched argument at index 3:
        // 'extra'" and "Unknown option: '--nosuch'", each with a second line "Try ...".
        String query = "no query given (e.g. 'naks:>5', or '*:*' for every flow, or --nccl WARNING)";
        add("search, no query", "metaroce search: " + query, "search", "--index", idx);
        add("extract, no query", "metaroce extract: " + query, "extract", "--index", idx, "-w", out);
        add("extract, no -w", "metaroce extract: -w FILE is required: the pcapng to write (see 'metaroce extract --help')",
                "extract", "--index", idx, "*:*");
        String quote = "(a query of several words is one argument: quote it, 'naks:5 b')";
        add("search a b", "metaroce search: unexpected argument 'b' after the query 'naks:5' " + quote, "search", "naks:5", "b", "--index", idx);
        add("extract a b", "metaroce extract: unexpected argument 'b' after the query 'naks:5' " + quote,
                "extract", "naks:5", "b", "--index", idx, "-w", out);
        add("dissect, a word too many", "metaroce dissect: unexpected argument 'extra' (see 'metaroce dissect --help')",
                "dissect", "-r", CLEAN, "extra");
        add("simulate, a word too many", "metaroce simulate: unexpected argument 'extra' (see 'metaroce simulate --help')",
                "simulate", "--list", "extra");
        add("capture, a word too many", "metaroce capture: unexpected argument 'extra' (see 'metaroce capture --help')",
                "capture", "-D", "extra");
        add("metaroce --nosuch", "metaroce: unknown option '--nosuch' (see 'metaroce --help')", "--nosuch");
        for (String c : List.of("dissect", "analyze", "validate", "simulate", "capture", "index", "search", "extract", "compare", "merge", "edit", "info", "reorder")) {
            // search and extract with what they need: picocli finds a missing query or -w before an unknown option.
            List<String> args = new ArrayList<>(List.of(c));
            if (c.equals("search") || c.equals("extract")) args.addAll(List.of("*:*", "--index", idx));
            if (c.equals("extract")) args.addAll(List.of("-w", out));
            // merge, edit and info with their files: picocli finds missing ones before an unknown option.
            if (c.equals("merge")) args.addAll(List.of("-w", out, CLEAN));
            if (c.equals("edit")) args.addAll(List.of(CLEAN, out));
            if (c.equals("info")) args.add(CLEAN);
            if (c.equals("reorder")) args.addAll(List.of(CLEAN, out));
            args.add("--nosuch");
            add(c + " --nosuch", "metaroce " + c + ": unknown option '--nosuch' (see 'metaroce " + c + " --help')", args.toArray(String[]::new));
        }
        // A tshark option dissect does not have (-H: a hosts file; -Q is dissect's now, as tshark's).
        add("dissect -K", "metaroce dissect: unknown option '-K' (see 'metaroce dissect --help')", "dissect", "-r", CLEAN, "-K", "x");
        add("analyze --thread", "metaroce analyze: unknown option '--thread'; did you mean '--threads'? (see 'metaroce analyze --help')",
                "analyze", "-r", CLEAN, "--thread", "2");
        add("dissect --dispaly-filter=x", "metaroce dissect: unknown option '--dispaly-filter=x'; did you mean '--display-filter'? "
                + "(see 'metaroce dissect --help')", "dissect", "-r", CLEAN, "--dispaly-filter=x");
        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    private static void add(String name, String line, String... args) { CASES.add(name, Call.of(args), r -> only(r, line)); }

    /** Exit 2, exactly this line on stderr, nothing on stdout. */
    private static void only(Run r, String line) {
        LauncherCases.topLine(r, line);
        assertEquals("", r.out(), r.show());
    }
}
