package io.metaroce.gui.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the shipped {@code ./metaroce} launcher (the jar cli's {@code package} built) in its own process, as a user
 * does: the flow search tests build their index with {@code metaroce index} and hold the window's hits to what
 * {@code metaroce search} prints, so the GUI and the CLI are compared through the code path a user runs.
 */
public final class ShippedLauncher {
    static final Path ROOT = root();
    private static final long TIMEOUT_S = 600;

    public record Run(List<String> args, int exit, String out, String err) {
        public String show() { return "metaroce " + String.join(" ", args) + "\n  exit " + exit + "\n  stderr: " + err + "\n  stdout: " + out; }
    }

    private ShippedLauncher() {}

    private static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent())
            if (Files.isRegularFile(p.resolve("metaroce")) && Files.isDirectory(p.resolve("cli"))) return p;
        throw new IllegalStateException("the metaroce launcher is not above " + Path.of("").toAbsolutePath());
    }

    public static Run run(String... args) {
        if (!Files.isRegularFile(ROOT.resolve("cli/target/metaroce.jar")))
            throw new IllegalStateException("cli/target/metaroce.jar is missing: this test runs after cli's 'package' (mvn verify)");
        List<String> cmd = new ArrayList<>();
        cmd.add(ROOT.resolve("metaroce").toString());
        cmd.addAll(List.of(args));
        try {
            Path out = Files.createTempFile("metaroce-gui-search", ".out"), err = Files.createTempFile("metaroce-gui-search", ".err");
            try {
                ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                        .redirectOutput(out.toFile()).redirectError(err.toFile());
                pb.environment().put("METAROCE_NO_BUILD", "1");    // the jar this build made, never a rebuild
                Process p = pb.start();
                if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("still running after " + TIMEOUT_S + " s: " + cmd);
                }
                return new Run(List.of(args), p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
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

    /** The JSON objects {@code metaroce search -T jsonl} prints, one per line; fails on a non-zero exit. */
    public static List<JsonNode> jsonl(String... args) {
        Run r = run(args);
        if (r.exit() != 0) throw new AssertionError(r.show());
        List<JsonNode> out = new ArrayList<>();
        ObjectMapper m = new ObjectMapper();
        try {
            for (String line : r.out().split("\n")) if (!line.isBlank()) out.add(m.readTree(line));
        } catch (IOException e) {
            throw new AssertionError(r.show(), e);
        }
        return out;
    }
}
