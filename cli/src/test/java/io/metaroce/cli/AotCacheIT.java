package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import java.io.DataInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up (issue 14.1): the launcher keeps one AOT cache per heavy command (dissect, analyze, validate, index,
 * search, extract), trained on first use with what users run of it, two small ones for what a user types first (the
 * version query, the top usage), and picocli (Java 5 class files upstream) is retargeted in the shipped jar so that the cache holds it.
 */
class AotCacheIT {
    private static final Path TARGET = Launcher.ROOT.resolve("cli/target");
    private static final String SAMPLE = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();

    @Test
    void shippedPicocliVerifiesWithTheTypeCheckerSoTheCacheCanHoldIt() throws Exception {
        int picocli = 0;
        try (ZipFile jar = new ZipFile(TARGET.resolve("metaroce.jar").toFile())) {
            for (ZipEntry e : java.util.Collections.list(jar.entries())) {
                if (!e.getName().startsWith("picocli/") || !e.getName().endsWith(".class")) continue;
                try (InputStream in = jar.getInputStream(e)) {
                    DataInputStream d = new DataInputStream(in);
                    assertEquals(0xCAFEBABE, d.readInt());
                    d.readUnsignedShort();
                    assertTrue(d.readUnsignedShort() >= 50, e.getName() + " is older than Java 6");
                }
                picocli++;
            }
        }
        assertTrue(picocli > 100, "picocli is in the jar: " + picocli);
    }

    @Test
    void eachCaptureCommandRunsFromItsOwnCacheWithPicocliInIt() throws Exception {
        assertEquals(0, Launcher.run("dissect", "-r", SAMPLE, "-q").exit());
        assertEquals(0, Launcher.run("analyze", "-r", SAMPLE).exit());
        // validate FILE alone has a cache of its own (ValidateWarmUpIT); any other validate command line trains this one.
        Launcher.run("validate", "-T", "junit", SAMPLE);
        for (String command : List.of("dissect", "analyze", "validate")) {
            Path cache = TARGET.resolve("metaroce-" + command + ".aot");
            assertTrue(Files.isRegularFile(cache), cache + " was trained on first use");
            List<String> args = new ArrayList<>(List.of(command));
            args.addAll(command.equals("validate") ? List.of(SAMPLE) : List.of("-r", SAMPLE));
            String log = classLoading(cache, args);
            // -XX:AOTMode=on: the JVM refuses to start when the cache does not fit the jar and the options.
            List<String> fromJar = classesFromTheJar(log.lines());
            assertTrue(fromJar.stream().noneMatch(l -> l.contains(" picocli.")), command + ": picocli classes read from the jar:\n"
                    + String.join("\n", fromJar));
            assertTrue(fromJar.stream().noneMatch(l -> l.contains(" io.metaroce.cli." + Character.toUpperCase(command.charAt(0))
                    + command.substring(1) + "Command ")), command + "'s own class is in its cache");
        }
    }

    @Test
    void theCaptureCommandsWarmUpBesidePicocli(@TempDir Path tmp) {
        // FrontDoor's warm-up thread does the JDK's one-time work (annotation proxies, the options' field accessors,
        // the foreign-memory API, the formatter) while the main thread builds picocli's model: the JVM's class
        // initialisation log names the thread that initialised each class first.
        for (List<String> args : List.of(List.of("analyze", "-r", SAMPLE), List.of("validate", SAMPLE), List.of("dissect", "-r", SAMPLE),
                List.of("index", SAMPLE, "--index", tmp.resolve("w.idx").toString()))) {
            Launcher.Run run = Launcher.run(Launcher.Call.of(args).env(Map.of("METAROCE_JAVA_OPTS", "-Xlog:class+init=debug")));
            assertTrue(run.exit() == 0 || args.get(0).equals("validate"), run.show());
            assertTrue(run.out().contains("Thread \"metaroce-warm-up\" is initializing"), args + ": the warm-up thread ran first somewhere");
        }
        Launcher.Run version = Launcher.run(Launcher.Call.of("--version").env(Map.of("METAROCE_JAVA_OPTS", "-Xlog:class+init=debug")));
        assertTrue(!version.out().contains("metaroce-warm-up"), "no warm-up for a version query");
    }

    @Test
    void whatAUserTypesFirstRunsFromSmallCachesOfItsOwn() throws Exception {
        // The version query and the top usage train caches of their own on first use (the JVM loads, maps and
        // relocates all of a cache at start: dissect's, which they used before, is twice the version query's).
        Launcher.Run version = Launcher.run("--version");
        assertEquals(0, version.exit(), version.show());
        assertEquals(0, Launcher.run("-h").exit());
        Path versionCache = TARGET.resolve("metaroce-version.aot");
        assertTrue(Files.isRegularFile(versionCache), versionCache + " was trained on first use");
        assertTrue(Files.isRegularFile(TARGET.resolve("metaroce-help.aot")), "the top usage's cache was trained on first use");
        // Every class of a cache is loaded at start: the version query's holds no picocli, no command and not the
        // training's own temporary files (SecureRandom).
        String log = classLoading(versionCache, List.of("--version"));
        assertTrue(log.contains(StandardOptions.VERSION), log);
        for (String absent : List.of(" picocli.", " io.metaroce.cli.Main ", "Command ", " java.security.SecureRandom ")) {
            assertTrue(!log.contains(absent), absent.trim() + " loaded by the version query:\n" + log);
        }
        // The top usage: picocli and every command from its cache, none read from the jar.
        String help = classLoading(TARGET.resolve("metaroce-help.aot"), List.of("--help"));
        List<String> fromJar = classesFromTheJar(help.lines());
        assertTrue(fromJar.stream().noneMatch(l -> l.contains(" picocli.") || l.contains("Command ")), "read from the jar:\n"
                + String.join("\n", fromJar));
    }

    @Test
    void theLauncherNamesTheMainClassInsteadOfReadingTheManifest() {
        // -cp JAR io.metaroce.cli.FrontDoor, not -jar JAR: the JVM then opens no JarFile for the manifest (the jar's
        // 10,400-entry central directory) before main. The JVM's own record of its command line says which.
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"analyze", "-r", SAMPLE})) {
            Launcher.Run run = Launcher.run(Launcher.Call.of(args).env(Map.of("METAROCE_JAVA_OPTS", "-XshowSettings:properties")));
            assertTrue(run.err().contains("sun.java.command = io.metaroce.cli.FrontDoor " + args[0]), run.show());
        }
    }

    @Test
    void theIndexCommandsRunFromTheirOwnCaches(@TempDir Path tmp) throws Exception {
        String index = tmp.resolve("flows.idx").toString();
        // Through the launcher, as a user runs them: each trains its cache on first use. Indexing into a new index in
        // the plain form has a cache of its own (index-new); into an existing one (or with other options), index's.
        assertEquals(0, Launcher.run("index", SAMPLE, "--index", index).exit());
        assertEquals(0, Launcher.run("index", SAMPLE, "--index", index, "--no-progress").exit());
        assertEquals(0, Launcher.run("search", "--index", index, "*:*").exit());
        assertEquals(0, Launcher.run("extract", "--index", index, "*:*", "-w", tmp.resolve("x.pcapng").toString()).exit());
        Map<String, List<String>> runs = Map.of(
                "index-new", List.of("index", SAMPLE, "--index", tmp.resolve("new.idx").toString()),
                "index", List.of("index", SAMPLE, "--index", tmp.resolve("again.idx").toString(), "--rules"),
                "search", List.of("search", "--index", index, "naks:>=0", "-T", "jsonl"),
                "extract", List.of("extract", "--index", index, "*:*", "-w", tmp.resolve("y.pcapng").toString()));
        for (var run : runs.entrySet()) {
            String command = run.getValue().get(0);
            Path cache = TARGET.resolve("metaroce-" + run.getKey() + ".aot");
            assertTrue(Files.isRegularFile(cache), cache + " was trained on first use");
            String log = classLoading(cache, run.getValue());
            List<String> fromJar = classesFromTheJar(log.lines());
            String ownClass = " io.metaroce.cli." + Character.toUpperCase(command.charAt(0)) + command.substring(1) + "Command ";
            // Without its cache the command reads its own class, picocli and Lucene from the jar (about a second of CPU).
            for (String held : List.of(ownClass, " picocli.", " org.apache.lucene.")) {
                assertTrue(fromJar.stream().noneMatch(l -> l.contains(held)), command + ": " + held.trim() + " read from the jar:\n"
                        + String.join("\n", fromJar));
            }
        }
        // The new-index cache holds what indexing into a new index runs, not the search side of an existing index
        // (which index's cache holds: its training indexes into the index it made) nor picocli's model.
        String fresh = classLoading(TARGET.resolve("metaroce-index-new.aot"), List.of("index", SAMPLE, "--index", tmp.resolve("new2.idx").toString()));
        String existing = classLoading(TARGET.resolve("metaroce-index.aot"), List.of("index", SAMPLE, "--index", tmp.resolve("new3.idx").toString()));
        for (String searchSide : List.of(" org.apache.lucene.search.FieldValueHitQueue ", " org.apache.lucene.search.BooleanQuery$Builder ", " picocli.CommandLine$Model$CommandSpec ")) {
            assertTrue(!fresh.contains(searchSide), searchSide.trim() + " in the new-index cache");
            assertTrue(existing.contains(searchSide + "source: shared objects file"), searchSide.trim() + " not in index's cache");
        }
        // search's and extract's training built its index in a child JVM: the indexer is not in their caches.
        for (String command : List.of("search", "extract")) {
            String log = classLoading(TARGET.resolve("metaroce-" + command + ".aot"), List.of(command, "--version"));
            assertTrue(!log.contains(" io.metaroce.cli.IndexCommand "), command + "'s cache holds the indexer");
        }
    }

    /** The class loading log of one run with the launcher's JVM options and the given cache, which must be usable. */
    private static String classLoading(Path cache, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Djdk.console=java.base", "--enable-native-access=ALL-UNNAMED", "-XX:AOTMode=on",
                "-XX:AOTCache=" + cache, "-Xlog:class+load=info", "-cp", TARGET.resolve("metaroce.jar").toString(),
                FrontDoor.class.getName()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertTrue(p.exitValue() == 0 || args.get(0).equals("validate"), log);
        assertTrue(log.contains("source: shared objects file"), "classes come from the cache");
        return log;
    }

    /**
     * The lines of a {@code -Xlog:class+load} log for classes read from the jar, not from the AOT cache or the JDK
     * (PipelineFailureIT and ValidateTrainingIT ask the same of their runs).
     */
    static List<String> classesFromTheJar(java.util.stream.Stream<String> log) {
        return log.filter(l -> l.contains("source: file:") || l.contains("source: jar:")).toList();
    }
}
