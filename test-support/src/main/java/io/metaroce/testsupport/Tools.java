package io.metaroce.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The standard output of another program (tshark, capinfos), for tests that take it as the second opinion. */
public final class Tools {
    /**
     * tshark's heuristic dissectors of RDMA upper-layer protocols, which take some RoCE payloads for their own and
     * change its tables and fields: the comparisons turn them off.
     */
    private static final List<String> TSHARK_HEURISTICS = List.of("rpcordma", "smb_direct", "nvme-rdma", "iser", "lnet",
            "smc", "infiniband_sdp", "fcoib");

    private Tools() {}

    /**
     * tshark's output lines for args, its RDMA heuristics off (and the protocols in alsoDisabled), or null when tshark
     * is not installed (the caller's own checks then stand alone; on CI, where it must be, an error).
     */
    public static List<String> tshark(Path dir, List<String> alsoDisabled, String... args) {
        List<String> cmd = new ArrayList<>(List.of("tshark"));
        for (String p : TSHARK_HEURISTICS) cmd.addAll(List.of("--disable-protocol", p));
        for (String p : alsoDisabled) cmd.addAll(List.of("--disable-protocol", p));
        cmd.addAll(List.of(args));
        return lines(dir, cmd);
    }

    /**
     * The output lines of cmd (its standard error discarded), which must end within 2 minutes with exit 0; null when
     * the program is not installed, an error on CI. dir: where its output is spooled.
     */
    public static List<String> lines(Path dir, List<String> cmd) {
        Process p;
        Path out;
        try {
            out = Files.createTempFile(dir, "tool", ".out");
            p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            if ("true".equals(System.getenv("CI"))) throw new AssertionError(cmd.get(0) + " must be installed on CI", e);
            return null;
        }
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) throw new AssertionError("no end within 2 minutes: " + String.join(" ", cmd));
            if (p.exitValue() != 0) throw new AssertionError("exit " + p.exitValue() + ": " + String.join(" ", cmd));
            return Files.readString(out, StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            p.destroyForcibly();
        }
    }
}
