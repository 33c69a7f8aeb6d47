package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.testsupport.Launcher;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Standard output on a full device ({@code > /dev/full}): the shipped command says so in one line and exits 2 (it exited
 * 0 with its output lost, the write error taken for a reader that went away); a pipe closed by its reader ({@code |
 * head}) still ends the run quietly with 0 (LauncherIT).
 */
class StdoutFailureIT {
    private static final String SAMPLE = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString();

    private static String[] run(String... args) throws Exception {
        Launcher.requireJar();
        List<String> cmd = new ArrayList<>(List.of(Launcher.ROOT.resolve("metaroce").toString()));
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile("stdout-failure", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(new File("/dev/full")).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().put("METAROCE_NO_BUILD", "1");
            int code = pb.start().waitFor();
            return new String[] {String.valueOf(code), Files.readString(err, StandardCharsets.UTF_8)};
        } finally {
            Files.delete(err);
        }
    }

    @Test
    void aFullDiskIsOneLineAndExit2InEveryCommand() throws Exception {
        for (List<String> c : List.of(List.of("analyze", "-r", SAMPLE), List.of("analyze", "-r", SAMPLE, "-T", "json"),
                List.of("validate", SAMPLE), List.of("dissect", "-r", SAMPLE), List.of("dissect", "-r", SAMPLE, "-T", "json"),
                List.of("capture", "-D"))) {
            String[] r = run(c.toArray(new String[0]));
            assertEquals("2", r[0], c + ": " + r[1]);
            assertEquals("metaroce " + c.getFirst() + ": cannot write to standard output (/dev/full): the disk is full or the"
                    + " output cannot grow; what was written is incomplete\n", r[1], c.toString());
        }
    }
}
