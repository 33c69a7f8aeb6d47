package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code metaroce --version} is answered before picocli loads (issue 14.1: start-up), and says exactly what
 * picocli says for {@code --version} on the top command and on every subcommand.
 */
class FrontDoorTest {
    @Test
    void versionWithoutPicocliSaysWhatPicocliSays() throws Exception {
        for (String flag : List.of("--version", "-V")) {
            String log = java(flag);
            List<String> out = log.lines().filter(l -> !l.startsWith("[")).toList();
            assertEquals(List.of(CliRun.of("--version").out().strip()), out, flag);
            assertTrue(log.contains("io.metaroce.cli.FrontDoor"), "the class loading is logged");
            assertFalse(log.contains("picocli."), "no picocli class loaded for " + flag);
        }
        assertEquals(CliRun.of("--version").out(), CliRun.of("analyze", "--version").out());
    }

    @Test
    void analyzeOfOneFileNamesItToOpenAhead() {
        assertEquals("a.pcap", FrontDoor.prefetchTarget(new String[] {"analyze", "-r", "a.pcap"}));
        assertEquals("a.pcap", FrontDoor.prefetchTarget(new String[] {"analyze", "-T", "json", "--read", "a.pcap", "--compact"}));
        assertEquals("a.pcap", FrontDoor.prefetchTarget(new String[] {"analyze", "--read=a.pcap"}));
        // Several files, none, a dangling -r, or the file after "--": the command opens them as before.
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "-r", "a.pcap", "-r", "b.pcap"}));
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "-r", "a.pcap", "--read=b.pcap"}));
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "-i", "eth0"}));
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "-r"}));
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "--", "-r", "a.pcap"}));
    }

    @Test
    void validateOfOneFileNamesItToOpenAhead() {
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "a.pcap"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "-T", "json", "a.pcap"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "a.pcap", "-T", "json", "--fail-on=never"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "-r", "a.pcap", "--tap", "auto"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "--read=a.pcap"}));
        // An option's value is never taken for the capture (it may be a file validate writes), nor a file after a
        // flag (picocli alone knows that --not-offloaded takes no value); several files, none, or "--": nothing.
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "-o", "out.xml"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "-o", "out.xml", "--report", "r.html", "a.pcap"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "--not-offloaded", "a.pcap"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "a.pcap", "b.pcap"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "a.pcap", "-r", "b.pcap"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "-i", "eth0"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "--", "a.pcap"}));
    }

    /** Runs FrontDoor in a fresh JVM on the compiled classes only, logging every class it loads. */
    private static String java(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info", "-cp", Path.of("target/classes").toAbsolutePath().toString(), "io.metaroce.cli.FrontDoor"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        return new String(out, StandardCharsets.UTF_8);
    }
}
