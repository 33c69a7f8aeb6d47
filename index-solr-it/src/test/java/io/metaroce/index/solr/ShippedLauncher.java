package io.metaroce.index.solr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs the shipped {@code ./metaroce} launcher (the jar that cli's {@code package} built) in its own process, as
 * a user does. The tool's Lucene 10 lives in that process only; this JVM holds Solr's Lucene 9.
 */
final class ShippedLauncher {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  static final Path SCRIPT = ROOT.resolve("metaroce");
  private static final long TIMEOUT_S = 300;

  record Run(List<String> args, int exit, String out, String err) {
    String show() {
      return "metaroce " + String.join(" ", args) + "\n  exit " + exit + "\n  stderr: " + err + "\n  stdout: "
          + (out.length() > 3000 ? out.substring(0, 3000) + "..." : out);
    }
  }

  private ShippedLauncher() {}

  static void requireJar() {
    if (!Files.isRegularFile(ROOT.resolve("cli/target/metaroce.jar"))) {
      throw new IllegalStateException("cli/target/metaroce.jar is missing: this test runs after cli's 'package' (mvn verify)");
    }
  }

  static Run run(List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(SCRIPT.toString());
    cmd.addAll(args);
    try {
      Path out = Files.createTempFile("metaroce-solr-it", ".out"), err = Files.createTempFile("metaroce-solr-it", ".err");
      try {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("METAROCE_NO_BUILD", "1");   // the jar this build made, never a rebuild
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          throw new IllegalStateException("still running after " + TIMEOUT_S + " s: " + cmd);
        }
        return new Run(args, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
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

  /** Runs the calls two at a time (one JVM each; the machine has two cores), results in call order. */
  static List<Run> runAll(List<List<String>> calls) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Run>> fs = new ArrayList<>();
      for (List<String> c : calls) fs.add(pool.submit(() -> run(c)));
      List<Run> runs = new ArrayList<>();
      for (Future<Run> f : fs) runs.add(f.get());
      return runs;
    } finally {
      pool.shutdownNow();
    }
  }
}
