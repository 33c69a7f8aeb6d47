package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Start-up (issue 14.1): when the first argument names a subcommand, {@link Main#commandLine} builds only that
 * subcommand's picocli model. Everything a user sees must be what the whole tree gives: help, version, usage
 * errors with their "Try 'metaroce X --help'." line, exit codes.
 */
class OneSubcommandTest {
    private static final String SAMPLE = "../samples/captures/rocev2-clean.pcapng";

    /** Every subcommand of the whole tree (but picocli's help) is built alone, under a parent named metaroce. */
    @Test
    void everySubcommandOfTheTreeIsBuiltAlone() {
        Set<String> names = new CommandLine(new Main()).getSubcommands().keySet();
        assertTrue(names.size() >= 8, names.toString());
        for (String name : names) {
            CommandLine light = Main.commandLine(new String[] {name, "-h"});
            if (name.equals("help")) {
                assertTrue(light.getSubcommands().size() > 1, "help gets the whole tree");
                continue;
            }
            assertEquals(Set.of(name), light.getSubcommands().keySet(), name);
            assertEquals("metaroce " + name, light.getSubcommands().get(name).getCommandSpec().qualifiedName());
        }
        for (String[] whole : List.of(new String[0], new String[] {"-h"}, new String[] {"help", "dissect"},
                new String[] {"dissekt"}, new String[] {"--bogus"})) {
            assertTrue(Main.commandLine(whole).getSubcommands().size() > 1, String.join(" ", whole));
        }
    }

    /** Same output, error lines and exit code as the whole tree, for help, version and every kind of usage error. */
    @Test
    void oneSubcommandSaysWhatTheWholeTreeSays() {
        List<List<String>> cases = new ArrayList<>();
        for (String name : List.of("dissect", "analyze", "validate", "simulate", "capture", "index", "search", "extract", "viewer", "compare", "merge", "edit", "info", "reorder")) {
            cases.add(List.of(name, "-h"));
            cases.add(List.of(name, "--help"));
            cases.add(List.of(name, "--version"));
            cases.add(List.of(name, "--no-such-option"));
            cases.add(List.of(name, "-V"));
            cases.add(List.of(name, "-r"));
            cases.add(List.of(name, "--threads", "x"));
        }
        cases.add(List.of("dissect", "-r", SAMPLE, "-c", "0"));
        cases.add(List.of("dissect", "-r", SAMPLE, "-c", "2", "-T", "jsonl"));
        cases.add(List.of("dissect", "-r", SAMPLE, "-T", "yaml"));
        cases.add(List.of("analyze", "-r", SAMPLE, "--tap", "nowhere"));
        cases.add(List.of("validate", SAMPLE, "--fail-on", "nothing"));
        cases.add(List.of("dissect", "-r", "/no/such/file.pcap"));
        for (List<String> c : cases) {
            String[] args = c.toArray(String[]::new);
            Output whole = capture(() -> Main.run(new CommandLine(new Main()), args));
            Output light = capture(() -> Main.run(Main.commandLine(args), args));
            assertEquals(whole, light, String.join(" ", c));
            assertNotEquals("", whole.out() + whole.err(), String.join(" ", c));
            if (c.get(1).equals("--version")) assertEquals(StandardOptions.VERSION, light.out().strip(), "every subcommand has --version");
        }
    }

    /** In a fresh JVM, {@code dissect --version} loads the classes of dissect only, none of the other commands. */
    @Test
    void otherSubcommandsAreNotLoaded() throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xlog:class+load=info",
                "-cp", System.getProperty("java.class.path"), "io.metaroce.cli.FrontDoor", "dissect", "--version");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), log);
        assertTrue(log.contains("io.metaroce.cli.DissectCommand "), "dissect is loaded");
        for (String other : List.of("AnalyzeCommand", "ValidateCommand", "SimulateCommand", "CaptureCommand", "IndexCommand",
                "SearchCommand", "ExtractCommand")) {
            assertFalse(log.contains("io.metaroce.cli." + other + " "), other + " is not loaded");
        }
    }

    record Output(int exit, String out, String err) {}

    /** Runs with System.out and System.err captured (under CliRun's lock: tests may run in parallel). */
    private static Output capture(Supplier<Integer> run) {
        synchronized (CliRun.class) {
            return captureLocked(run);
        }
    }

    private static Output captureLocked(Supplier<Integer> run) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = run.get();
            System.out.flush();
            return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
