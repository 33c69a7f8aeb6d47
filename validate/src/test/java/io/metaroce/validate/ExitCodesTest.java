package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.protocol.Severity;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --fail-on, exit codes 0/1/2, directories, rule selection with wildcards, severity overrides, --config YAML. */
class ExitCodesTest {
    @TempDir
    Path dir;

    private static int run(List<Path> in, Severity failOn, ValidateSettings s) {
        Validation.Request req = new Validation.Request();
        req.inputs = in;
        req.failOn = failOn;
        req.settings = s;
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return Validation.run(req, sink, sink);
    }

    private static ValidateSettings.Builder b() { return new ValidateSettings.Builder(); }

    @Test
    void exitCodes() throws Exception {
        Path clean = Captures.of("rocev2-clean", null), bad = Captures.of("conformance-violations", null);
        assertEquals(0, run(List.of(clean), Severity.ERROR, b().build()));
        assertEquals(1, run(List.of(bad), Severity.ERROR, b().build()));
        assertEquals(0, run(List.of(bad), null, b().build()), "--fail-on never");
        // Only warnings left: fails at warn, passes at error.
        ValidateSettings warnsOnly = b().rules(List.of("MR-HDR-003", "MR-CC-001")).build();
        assertEquals(0, run(List.of(bad), Severity.ERROR, warnsOnly));
        assertEquals(1, run(List.of(bad), Severity.WARN, warnsOnly));
        // An unreadable file: 2, after validating the others.
        Path junk = Files.writeString(dir.resolve("junk.pcapng"), "not a capture");
        assertEquals(2, run(List.of(clean, junk), Severity.ERROR, b().build()));
        assertEquals(2, run(List.of(dir.resolve("missing.pcap")), Severity.ERROR, b().build()));
    }

    @Test
    void directoriesAreValidatedInParallel() throws Exception {
        Path d = Files.createDirectories(dir.resolve("caps/sub"));
        Files.copy(Captures.of("rocev2-clean", null), d.resolve("a.pcapng"));
        Files.copy(Captures.of("rocev2-rnr", null), d.getParent().resolve("b.pcapng"));
        Files.writeString(d.resolve("notes.txt"), "ignored");
        Validation.Request req = new Validation.Request();
        req.inputs = List.of(dir.resolve("caps"));
        req.threads = 2;
        List<FileResult> rs = Validation.validateAll(Validation.expand(req.inputs, new java.util.ArrayList<>()), req,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(2, rs.size());
        assertTrue(rs.get(0).path().toString().endsWith("b.pcapng"));
        for (FileResult r : rs) assertEquals(0, r.count(Severity.ERROR), r.findings()::toString);
        assertEquals(0, run(List.of(dir.resolve("caps")), Severity.ERROR, b().build()));
    }

    @Test
    void ruleSelection() {
        assertEquals(3, RuleCatalog.select(List.of("MR-CC-*"), List.of()).size());
        assertEquals(RuleCatalog.all().size() - 5, RuleCatalog.select(List.of(), List.of("mr-rtx-*")).size());
        assertEquals(2, RuleCatalog.select(List.of("MR-ACK-00[12]".replace("[12]", "1"), "MR-UD-*"), List.of()).size());
        assertThrows(IllegalArgumentException.class, () -> RuleCatalog.select(List.of("MR-NOPE-*"), List.of()));
        ValidateSettings s = b().skipRules(List.of("MR-SEQ-*")).severity("MR-CC-*", "error").severity("MR-RTX-005", "off").build();
        assertTrue(!s.enabled("MR-SEQ-003") && s.enabled("MR-ACK-001") && !s.enabled("MR-RTX-005"));
        assertEquals(Severity.ERROR, s.severity("MR-CC-001", Severity.WARN));
    }

    @Test
    void configFile() throws Exception {
        Path yaml = Files.writeString(dir.resolve("v.yaml"), """
                tap: host:10.0.0.1
                offloaded: false
                thresholds:
                  cnp_interval_us: 4
                  slack_us: 2.5
                  roce_udp_ports: [4791, 4792]
                  credit_checks: false
                pmtu: {"0x000201": 4096}
                severity:
                  MR-HDR-003: error
                  MR-CC-*: note
                skip_rules: [MR-UD-001]
                """);
        ValidateSettings s = b().config(yaml).build();
        assertEquals("host:10.0.0.1", s.tap().toString());
        assertEquals(4000, s.analysis().cnpIntervalNs());
        assertEquals(2500, s.analysis().slackNs());
        assertTrue(s.analysis().rocePorts().contains(4792));
        assertTrue(!s.enabled("MR-CC-003") && !s.enabled("MR-UD-001") && s.enabled("MR-CC-001"));
        assertEquals(4096, s.pmtuFor("x", 0x201));
        // The planted CNP 5 us after the previous one passes a 4 us interval; MR-HDR-003 is now an error.
        FileResult r = FileValidator.validate(Captures.of("conformance-violations", null), s, false, null);
        assertEquals(0, r.counts("MR-CC-001")[1] + r.counts("MR-CC-001")[2]);
        assertEquals(1, r.counts("MR-HDR-003")[2]);
        Path badYaml = Files.writeString(dir.resolve("bad.yaml"), "thresholds: {cnp_interval: 3}\n");
        assertThrows(IllegalArgumentException.class, () -> b().config(badYaml));
    }

    /** A config file's problems are one line naming the file and, for a syntax error, where it is. */
    @Test
    void configFileProblemsAreOneLine() throws Exception {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("rules: [\n", "line 2, column 1: expected the node content, but found '<stream end>'");
        cases.put("thresholds:\n  a: b\n c: d\n", "line 3, column 2: expected <block end>, but found '<block mapping start>'");
        cases.put("\t- x\n", "line 1, column 1: found character '\\t(TAB)' that cannot start any token. (Do not use \\t(TAB) for indentation)");
        int n = 0;
        for (var c : cases.entrySet()) {
            Path f = Files.writeString(dir.resolve("broken-" + n++ + ".yaml"), c.getKey());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b().config(f));
            assertEquals(f + ": " + c.getValue(), e.getMessage());
        }
        Path missing = dir.resolve("no-such.yaml");
        assertEquals(missing + ": no such file", assertThrows(IllegalArgumentException.class, () -> b().config(missing)).getMessage());
        assertEquals(dir + ": is a directory, not a config file",
                assertThrows(IllegalArgumentException.class, () -> b().config(dir)).getMessage());
    }
}
