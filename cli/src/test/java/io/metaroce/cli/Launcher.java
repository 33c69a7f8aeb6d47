package io.metaroce.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs the shipped {@code ./metaroce} launcher as a separate process, exactly as a user does: the shaded jar
 * that {@code package} just built, the launcher's JVM options and its AOT cache. {@code METAROCE_NO_BUILD=1}
 * makes the launcher use that jar instead of rebuilding. In-process tests ({@link CliRun}) cannot see what only
 * the shipped command gets wrong: a dependency missing from the jar, the script, exit codes of the real JVM,
 * stdout closed by a pipe.
 */
final class Launcher {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path SCRIPT = ROOT.resolve("metaroce");
    static final Path CAPTURES = ROOT.resolve("samples/captures");
    private static final long TIMEOUT_S = 120;
    private static boolean warm;

    /** What one run printed and returned. */
    record Run(List<String> command, int exit, byte[] stdout, String err) {
        String out() { return new String(stdout, StandardCharsets.UTF_8); }

        List<String> errLines() { return err.lines().toList(); }

        /** For assertion messages: the command and what it said. */
        String show() {
            String o = out();
            return String.join(" ", command) + "\n  exit " + exit + "\n  stderr: " + err
                    + "\n  stdout: " + (o.length() > 2000 ? o.substring(0, 2000) + "..." : o);
        }
    }

    /** One invocation: arguments, and optionally extra environment, a working directory and a launcher path. */
    record Call(List<String> args, Map<String, String> env, Path dir, Path launcher) {
        static Call of(String... args) { return new Call(List.of(args), Map.of(), ROOT, SCRIPT); }

        Call env(Map<String, String> e) { return new Call(args, e, dir, launcher); }

        Call via(Path launcherPath, Path workDir) { return new Call(args, env, workDir, launcherPath); }
    }

    private Launcher() {}

    static Run run(String... args) { return run(Call.of(args)); }

    static Run run(Call c) {
        warmUp();
        return exec(c);
    }

    /** Runs the calls in parallel (one JVM each, as many at once as there are cores), results in call order. */
    static List<Run> runAll(List<Call> calls) {
        warmUp();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
        try {
            List<Future<Run>> fs = new ArrayList<>();
            for (Call c : calls) fs.add(pool.submit(() -> exec(c)));
            List<Run> runs = new ArrayList<>();
            for (Future<Run> f : fs) {
                try {
                    runs.add(f.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return runs;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The first run after a build writes the launcher's AOT cache (a training run); doing that once, before any
     * parallel runs, keeps several JVMs from writing the same cache file at once.
     */
    private static synchronized void warmUp() {
        if (warm) return;
        if (!Files.isRegularFile(ROOT.resolve("cli/target/metaroce.jar"))) {
            throw new IllegalStateException("cli/target/metaroce.jar is missing: these tests run after 'package' (mvn verify)");
        }
        Run r = exec(Call.of("--version"));
        if (r.exit() != 0) throw new IllegalStateException("the launcher does not start: " + r.show());
        warm = true;
    }

    private static Run exec(Call c) {
        List<String> cmd = new ArrayList<>();
        cmd.add(c.launcher().toString());
        cmd.addAll(c.args());
        try {
            Path out = Files.createTempFile("metaroce-it", ".out"), err = Files.createTempFile("metaroce-it", ".err");
            try {
                ProcessBuilder pb = new ProcessBuilder(cmd).directory(c.dir().toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                        .redirectOutput(out.toFile()).redirectError(err.toFile());
                pb.environment().put("METAROCE_NO_BUILD", "1");
                pb.environment().remove("COLUMNS");
                pb.environment().putAll(c.env());
                Process p = pb.start();
                if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("still running after " + TIMEOUT_S + " s: " + cmd);
                }
                return new Run(cmd, p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The bundled sample captures. */
    static List<Path> samples() {
        try (var s = Files.list(CAPTURES)) {
            return s.filter(p -> p.toString().endsWith(".pcapng") || p.toString().endsWith(".pcap")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
