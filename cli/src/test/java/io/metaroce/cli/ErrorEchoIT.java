package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.LauncherCases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Error lines that quote what the user typed or named, with control characters in it (an escape sequence that
 * recolours or retitles the terminal, BEL, a newline that forges a second line, DEL, a C1 CSI), through the shipped
 * launcher: a query, a display filter, a file name, an option, a config value, a command. Each was written raw; each
 * must be one line whose only control character is its final newline, with the character written out as
 * {@code dissect -V} writes a packet comment ({@code \033}, {@code \a}, {@code \n}: FrontDoor#printable).
 */
class ErrorEchoIT {
    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();
    private static final String CLEAN = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
    private static final String ESC = "\u001b[31m", TITLE = "\u001b]0;owned\u0007";

    @BeforeAll
    static void runEveryCase() throws Exception {
        Path idx = tmp.resolve("flows.idx");
        Run made = Launcher.run("index", CLEAN, "--index", idx.toString());
        assertEquals(0, made.exit(), made.show());
        String index = idx.toString(), out = tmp.resolve("x.pcapng").toString();
        Path config = tmp.resolve("severity.yaml");
        // YAML's "\e" is the escape character: the config's value, not the file's bytes, holds it.
        Files.writeString(config, "severity:\n  MR-RTX-001: \"\\e[31mred\"\n");

        // The query parser's messages quote the query's words. The first, an escape sequence inside the field name, ends
        // at a message that quotes nothing: it checks only that nothing raw is written.
        add("search, an escape sequence in the query", "query: column 6: ", "search", "naks" + ESC + ":x", "--index", index);
        add("search, an escape in a value", "'\\0335'", "search", "naks:\u001b5", "--index", index);
        add("search, BEL in a value", "'5\\a'", "search", "naks:5\u0007", "--index", index);
        add("search --sort, an escape in the field", "'na\\033ks'", "search", "*:*", "--index", index, "--sort", "na\u001bks");
        add("extract, an escape in a value", "'\\0335'", "extract", "naks:\u001b5", "--index", index, "-w", out);
        // The display filter compiler quotes a literal.
        add("dissect -Y, an escape in a literal", "\"a\\033b\"", "dissect", "-r", CLEAN, "-Y", "ip.src == \"a\u001bb\"");
        add("dissect -Y, BEL and a C1 CSI in a literal", "\"\\a\\233\"", "dissect", "-r", CLEAN, "-Y", "ip.src == \"\u0007\u009b\"");
        // File names.
        add("dissect -r, a newline in the file name", "no\\nsuch", "dissect", "-r", tmp.resolve("no\nsuch").toString());
        add("analyze -r, a window title in the file name", "\\033]0;owned\\a", "analyze", "-r", tmp.resolve("x" + TITLE).toString());
        add("validate, DEL in the file name", "no\\177such", "validate", tmp.resolve("no\u007fsuch").toString());
        add("index, an escape in the file name", "no\\033such", "index", tmp.resolve("no\u001bsuch").toString(), "--index",
                tmp.resolve("idx2").toString());
        add("compare, a newline in the file name", "no\\nsuch", "compare", CLEAN, tmp.resolve("no\nsuch").toString());
        add("search --index, an escape in the directory", "i\\033dx", "search", "*:*", "--index", tmp.resolve("i\u001bdx").toString());
        add("simulate --out, a newline in the directory", "dir\\n", "simulate", "--scenario", "rocev2-clean", "--out",
                tmp.resolve("dir\n").resolve("x.pcap").toString());
        // Option values and the config's.
        add("validate --pmtu, an escape", "'\\033'", "validate", CLEAN, "--pmtu", "\u001b");
        add("validate --config, an escape in a value", "\\033[31mred", "validate", CLEAN, "--config", config.toString());
        add("analyze --tap, a newline", "'x\\ny'", "analyze", "-r", CLEAN, "--tap", "x\ny");
        add("dissect -T, an escape", "'\\033'", "dissect", "-r", CLEAN, "-T", "\u001b");
        // picocli's parse: the command and the option words.
        add("an escape in the command", "'\\033nosuch'", "\u001bnosuch");
        add("an escape in an unknown option", "'--\\033x'", "dissect", "--\u001bx");
        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    private static void add(String name, String shown, String... args) { CASES.add(name, Call.of(args), r -> escaped(r, shown)); }

    /** Exit 2, one line with no control character but its final newline, holding {@code shown}. */
    private static void escaped(Run r, String shown) {
        String e = r.err();
        assertEquals(2, r.exit(), r.show());
        assertTrue(e.startsWith("metaroce") && !e.contains("Exception"), r.show());
        assertTrue(e.endsWith("\n"), r.show());
        for (int i = 0; i < e.length() - 1; i++) {
            char c = e.charAt(i);
            assertTrue(c >= 0x20 && !(c >= 0x7f && c <= 0x9f), "a control character (" + (int) c + ") at " + i + ": " + r.show());
        }
        assertTrue(e.contains(shown), "expected " + shown + ": " + r.show());
    }
}
