package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * validate's warm-up on a big capture (issue 14.1, validate at most 1.2x analyze): its AOT cache is trained on a
 * generated capture big enough to be pipelined, so the two-thread pass and the rules' stages on both threads have
 * profiles from the first frame, and the launcher runs a big validation without on-stack replacement (with the
 * training's loop counts C2 compiled the long rule methods twice). Small inputs (C1 alone) and the other commands
 * keep the JVM's default.
 */
class ValidateWarmUpIT {
    private static final String SAMPLE = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
    private static final Pattern OSR = Pattern.compile("UseOnStackReplacement\\s+=\\s+(true|false)");

    @Test
    void aBigValidationRunsWithoutOnStackReplacementAndNothingElseDoes(@TempDir Path tmp) throws Exception {
        Path big = tmp.resolve("big.pcap");   // sparse: only its size matters to the launcher (the run then fails)
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(800L << 20);   // validate runs C1 alone below 768 MiB
        }
        assertEquals("false", osr("validate", big.toString()));
        assertEquals("false", osr("validate", "-T", "json", big.toString()));
        assertEquals("true", osr("validate", SAMPLE), "a small capture: C1 alone, the JVM's default");
        assertEquals("true", osr("analyze", "-r", big.toString()));
        assertEquals("true", osr("dissect", "-r", big.toString(), "-q"));
    }

    @Test
    void validatesCacheHoldsThePipelinedPass() throws Exception {
        Launcher.run("validate", "-T", "json", SAMPLE);   // trains validate's cache on first use
        String log = cacheLog(Launcher.ROOT.resolve("cli/target/metaroce-validate.aot"));
        // And Jackson's writer behind -T json and sarif (CI's formats), some 400 classes otherwise read from the jar.
        for (String held : List.of("io.metaroce.analysis.TwoThreadPipeline ", "io.metaroce.analysis.TwoThreadPipeline$Slot ",
                "com.fasterxml.jackson.databind.ObjectMapper ", "com.fasterxml.jackson.core.util.DefaultPrettyPrinter ")) {
            assertTrue(fromCache(log, held), held.trim() + " is in validate's cache:\n" + log.lines().filter(l -> l.contains("TwoThread")).toList());
        }
    }

    /**
     * validate FILE alone (FrontDoor's plain form) has a cache of its own, trained on the same pipelined capture but
     * without CI's formats: the JVM would load their Jackson classes and picocli at every start of it (1,830 classes
     * against 2,884, 19.6 against 29.6 MB; validate of the 79-frame sample 0.310 -> 0.260 s of CPU).
     */
    @Test
    void thePlainFormsCacheHoldsThePipelinedPassAndNeitherJacksonsWriterNorPicocli() throws Exception {
        Launcher.run("validate", SAMPLE);   // trains the plain form's cache on first use
        String log = cacheLog(Launcher.ROOT.resolve("cli/target/metaroce-validate-plain.aot"));
        for (String held : List.of("io.metaroce.analysis.TwoThreadPipeline ", "io.metaroce.analysis.TwoThreadPipeline$Slot ",
                "io.metaroce.cli.ValidateCommand ")) {
            assertTrue(fromCache(log, held), held.trim() + " is in the plain form's cache");
        }
        // Jackson's writer (the YAML reader of --config stays: ValidateSettings loads it) and picocli's model.
        for (String left : List.of("com.fasterxml.jackson.databind.ObjectMapper ", "com.fasterxml.jackson.core.util.DefaultPrettyPrinter ",
                "picocli.CommandLine ", "picocli.CommandLine$Model$CommandSpec ")) {
            assertTrue(!fromCache(log, left), left.trim() + " is in the plain form's cache");
        }
    }

    /** The class loading of a run of validate --version from the given cache (the JVM loads every class of it at start). */
    private static String cacheLog(Path cache) throws Exception {
        assertTrue(Files.isRegularFile(cache), cache + " was trained on first use");
        // The pipeline's classes come from it only when the training validated a capture big enough to be pipelined
        // (the bundled sample is read on one thread).
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Djdk.console=java.base", "--enable-native-access=ALL-UNNAMED", "-XX:AOTMode=on",
                "-XX:AOTCache=" + cache, "-Xlog:class+load=info", "-jar",
                Launcher.ROOT.resolve("cli/target/metaroce.jar").toString(), "validate", "--version")
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return log;
    }

    private static boolean fromCache(String log, String held) {
        return log.lines().anyMatch(l -> l.contains(" " + held) && l.contains("source: shared objects file"));
    }

    /** UseOnStackReplacement of the JVM the launcher starts for these arguments (its flag table, -XX:+PrintFlagsFinal). */
    private static String osr(String... args) {
        Launcher.Run run = Launcher.run(Launcher.Call.of(args).env(Map.of("METAROCE_JAVA_OPTS", "-XX:+PrintFlagsFinal")));
        Matcher m = OSR.matcher(run.out());
        assertTrue(m.find(), "the JVM printed its flags:\n" + run.show());
        return m.group(1);
    }
}
