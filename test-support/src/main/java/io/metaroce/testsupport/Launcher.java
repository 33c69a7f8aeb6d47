package io.metaroce.testsupport;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs the shipped {@code ./metaroce} launcher as a separate process, exactly as a user does: the shaded jar that
 * cli's {@code package} built, the launcher's JVM options and its AOT caches. {@code METAROCE_NO_BUILD=1} makes the
 * launcher use that jar instead of rebuilding. In-process tests cannot see what only the shipped command gets wrong:
 * a dependency missing from the jar, the script, exit codes of the real JVM, stdout closed by a pipe. The tests of
 * cli, gui and index-solr-it all run the tool this way; the GUI's and Solr's JVMs also hold libraries (JavaFX,
 * Solr's Lucene 9) that must not meet the tool's, which a separate process guarantees.
 */
public final class Launcher {
    /** The repository root: the first directory above the working directory that holds the launcher and cli/. */
    public static final Path ROOT = root();
    public static final Path SCRIPT = ROOT.resolve("metaroce");
    public static final Path CAPTURES = ROOT.resolve("samples/captures");
    /** A default generous enough for a loaded CI machine; long runs (a Solr cluster, an index) set their own. */
    private static final long DEFAULT_TIMEOUT_S = 120;
    private static boolean warm;

    /** What one run printed and returned; {@code command} starts with the launcher's path. */
    public record Run(List<String> command, int exit, byte[] stdout, String err) {
        public String out() { return new String(stdout, StandardCharsets.UTF_8); }

        public List<String> errLines() { return err.lines().toList(); }

        /** For assertion messages: the command and what it said. */
        public String show() {
            String o = out();
            return String.join(" ", command) + "\n  exit " + exit + "\n  stderr: " + err
                    + "\n  stdout: " + (o.length() > 3000 ? o.substring(0, 3000) + "..." : o);
        }
    }

    /**
     * One invocation: arguments, extra environment, working directory, launcher path, how long it may take, and the
     * file on its standard input (/dev/null when null).
     */
    public record Call(List<String> args, Map<String, String> env, Path dir, Path launcher, long timeoutSeconds, Path stdin) {
        public static Call of(String... args) { return of(List.of(args)); }

        public static Call of(List<String> args) { return new Call(List.copyOf(args), Map.of(), ROOT, SCRIPT, DEFAULT_TIMEOUT_S, null); }

        public Call env(Map<String, String> e) { return new Call(args, e, dir, launcher, timeoutSeconds, stdin); }

        public Call via(Path launcherPath, Path workDir) { return new Call(args, env, workDir, launcherPath, timeoutSeconds, stdin); }

        public Call timeout(long seconds) { return new Call(args, env, dir, launcher, seconds, stdin); }

        /** The same call with file on its standard input ({@code -r -}). */
        public Call stdin(Path file) { return new Call(args, env, dir, launcher, timeoutSeconds, file); }
    }

    private Launcher() {}

    public static Run run(String... args) { return run(Call.of(args)); }

    public static Run run(Call c) {
        warmUp();
        return exec(c);
    }

    /** Runs the calls in parallel (one JVM each, as many at once as there are cores), results in call order. */
    public static List<Run> runAll(List<Call> calls) {
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

    /** The runs of {@link #runAllReusing}, by call. */
    private static final Map<Call, Run> REUSABLE = new ConcurrentHashMap<>();
    /** Where {@link #runAllReusing} keeps its runs for the build's other test JVMs (cli's ITs run in two). */
    private static final Path SHARED_RUNS = ROOT.resolve("cli/target/launcher-runs");

    /**
     * As {@link #runAll}, but a call that this JVM or another test JVM of the same build has already run through
     * this method (the same arguments, environment, directory, launcher and timeout, by this test or another) gives
     * that run again instead of starting another JVM, and a call given twice runs once. Every run is still the
     * shipped launcher's. Only for calls whose output depends on nothing a test changes: the tool reading the
     * bundled samples (no test writes them) and writing nothing but its stdout and stderr. Three classes of cli
     * checked the same {@code analyze -r SAMPLE} runs (LauncherIT: text, -T json and --events jsonl of each sample;
     * FlowIndexIT: -T json; ManyCapturesIT: text and --events jsonl): 138 JVMs on the 23 samples, of which 69
     * distinct. Runs are shared on disk, keyed by the call and by the size and time of the jar and of every file
     * the call names, so a rebuilt jar or a regenerated sample runs again.
     */
    public static List<Run> runAllReusing(List<Call> calls) {
        List<Call> fresh = new ArrayList<>();
        for (Call c : calls.stream().distinct().toList()) {
            if (REUSABLE.containsKey(c)) continue;
            Run shared = readShared(c);
            if (shared != null) REUSABLE.put(c, shared);
            else fresh.add(c);
        }
        List<Run> runs = runAll(fresh);
        for (int i = 0; i < fresh.size(); i++) {
            REUSABLE.put(fresh.get(i), runs.get(i));
            writeShared(fresh.get(i), runs.get(i));
        }
        return calls.stream().map(REUSABLE::get).toList();
    }

    private static Path sharedFile(Call c) {
        StringBuilder key = new StringBuilder(String.join("\u0000", c.args())).append('\n').append(new TreeMap<>(c.env()))
                .append('\n').append(c.dir()).append('\n').append(c.launcher()).append('\n').append(c.timeoutSeconds())
                .append('\n').append(c.stdin());
        List<Path> inputs = new ArrayList<>(List.of(ROOT.resolve("cli/target/metaroce.jar")));
        for (String a : c.args()) {
            try {
                Path p = c.dir().resolve(a);
                if (Files.exists(p)) inputs.add(p);   // a directory: its time changes when a file comes or goes
            } catch (RuntimeException notAPath) {
                // an argument that is no path at all
            }
        }
        try {
            for (Path p : inputs) key.append('\n').append(p).append(' ').append(Files.size(p)).append(' ').append(Files.getLastModifiedTime(p).toMillis());
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(key.toString().getBytes(StandardCharsets.UTF_8));
            return SHARED_RUNS.resolve(HexFormat.of().formatHex(hash));
        } catch (IOException | NoSuchAlgorithmException e) {
            return null;   // nothing shared: the call runs
        }
    }

    private static Run readShared(Call c) {
        Path f = sharedFile(c);
        if (f == null || !Files.isRegularFile(f)) return null;
        try (DataInputStream in = new DataInputStream(Files.newInputStream(f))) {
            List<String> command = new ArrayList<>();
            for (int n = in.readInt(); n > 0; n--) command.add(in.readUTF());
            int exit = in.readInt();
            byte[] out = in.readNBytes(in.readInt()), err = in.readNBytes(in.readInt());
            return new Run(List.copyOf(command), exit, out, new String(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return null;
        }
    }

    /** Written whole under a temporary name, then renamed: another JVM reads a whole run or none. */
    private static void writeShared(Call c, Run r) {
        Path f = sharedFile(c);
        if (f == null) return;
        try {
            Files.createDirectories(SHARED_RUNS);
            Path tmp = Files.createTempFile(SHARED_RUNS, "run", ".tmp");
            try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(tmp))) {
                out.writeInt(r.command().size());
                for (String s : r.command()) out.writeUTF(s);
                out.writeInt(r.exit());
                out.writeInt(r.stdout().length);
                out.write(r.stdout());
                byte[] err = r.err().getBytes(StandardCharsets.UTF_8);
                out.writeInt(err.length);
                out.write(err);
            }
            Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // not shared: another JVM runs the call itself
        }
    }

    /** Fails with a clear line when the shipped jar has not been built (these tests run after {@code package}). */
    public static void requireJar() {
        if (!Files.isRegularFile(ROOT.resolve("cli/target/metaroce.jar"))) {
            throw new IllegalStateException("cli/target/metaroce.jar is missing: these tests run after cli's 'package' (mvn verify)");
        }
    }

    /** The bundled sample captures. */
    public static List<Path> samples() {
        try (var s = Files.list(CAPTURES)) {
            return s.filter(p -> p.toString().endsWith(".pcapng") || p.toString().endsWith(".pcap")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The first run after a build writes the launcher's AOT cache (a training run); doing that once, before any
     * parallel runs, keeps several JVMs from writing the same cache file at once.
     */
    private static synchronized void warmUp() {
        if (warm) return;
        requireJar();
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
                        .redirectInput(ProcessBuilder.Redirect.from((c.stdin() != null ? c.stdin() : Path.of("/dev/null")).toFile()))
                        .redirectOutput(out.toFile()).redirectError(err.toFile());
                pb.environment().put("METAROCE_NO_BUILD", "1");   // the jar this build made, never a rebuild
                pb.environment().remove("COLUMNS");
                pb.environment().putAll(c.env());
                Process p = pb.start();
                if (!p.waitFor(c.timeoutSeconds(), TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("still running after " + c.timeoutSeconds() + " s: " + cmd);
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

    private static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("metaroce")) && Files.isDirectory(p.resolve("cli"))) return p;
        }
        throw new IllegalStateException("the metaroce launcher is not above " + Path.of("").toAbsolutePath());
    }
}
