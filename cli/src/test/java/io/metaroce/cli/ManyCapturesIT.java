package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code analyze} and {@code validate} on a directory or several captures (issue 14: files in parallel, one
 * progress bar), through the shipped launcher: the output is each file's own run, in the order given (a
 * directory's captures sorted by name), whatever order the files finish in; the exit code is the worst of the
 * files.
 */
class ManyCapturesIT {
    private static final String DIR = Launcher.CAPTURES.toString();

    @Test
    void analyzeOfADirectoryPrintsThePerFileRunsConcatenatedInNameOrder() {
        List<Path> samples = Launcher.samples();
        assertTrue(samples.size() > 10, "the bundled samples");
        // Each form's per-file runs are the command lines LauncherIT (text, -T json, --events jsonl) and FlowIndexIT
        // (-T json) run too: made once for all (-T json --compact, 30 runs of its own, is several files' form below).
        for (List<String> form : List.of(List.<String>of(), List.of("-T", "json"), List.of("--events", "jsonl"))) {
            List<Call> calls = new ArrayList<>();
            calls.add(call(form, "analyze", DIR));
            for (Path p : samples) calls.add(call(form, "analyze", "-r", p.toString()));
            List<Run> runs = Launcher.runAllReusing(calls);
            Run all = runs.get(0);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            int worst = 0;
            for (Run one : runs.subList(1, runs.size())) {
                expected.writeBytes(one.stdout());
                worst = Math.max(worst, one.exit());
            }
            assertArrayEquals(expected.toByteArray(), all.stdout(), "analyze DIR " + form + " is the per-file runs in order\n" + all.show());
            assertEquals(worst, all.exit(), all.show());
        }
    }

    @Test
    void analyzeOfSeveralFilesKeepsTheOrderGivenAndTheWorstExitCode(@TempDir Path tmp) throws Exception {
        // A cut capture (exit 2 alone: every frame before the cut is analyzed) between two good ones; -r first.
        Path gbnFile = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng");
        byte[] whole = Files.readAllBytes(gbnFile);
        Path cut = tmp.resolve("cut.pcapng");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 100));
        String gbn = gbnFile.toString();
        String spray = Launcher.CAPTURES.resolve("metaroce-spray-lossy-path.pcapng").toString();
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("analyze", "-T", "json", "--compact", spray, cut.toString(), "-r", gbn, "--threads", "3"),
                Call.of("analyze", "-T", "json", "--compact", "-r", gbn),
                Call.of("analyze", "-T", "json", "--compact", "-r", spray),
                Call.of("analyze", "-T", "json", "--compact", "-r", cut.toString())));
        Run all = runs.get(0);
        // -r comes first, then the other captures in the order given.
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (Run one : runs.subList(1, 4)) expected.writeBytes(one.stdout());
        assertArrayEquals(expected.toByteArray(), all.stdout(), all.show());
        assertEquals(2, runs.get(3).exit(), runs.get(3).show());
        assertEquals(2, all.exit(), "the worst of the files\n" + all.show());
        assertTrue(all.err().contains(runs.get(3).err().strip()), "the cut file's message\n" + all.show());
    }

    @Test
    void oneProgressBarForTheWholeSet() {
        Run r = Launcher.run("analyze", "--progress", DIR);
        int files = Launcher.samples().size();
        assertTrue(r.err().contains("/" + files + " files"), "one bar counting the files of the set\n" + r.show());
        assertTrue(!r.err().contains("/1 files"), "no bar per file\n" + r.show());
    }

    @Test
    void validateOfADirectoryJudgesEveryFileInNameOrderWithTheWorstExitCode() {
        List<Path> samples = Launcher.samples();
        List<Call> calls = new ArrayList<>();
        calls.add(Call.of("validate", "-T", "json", DIR));
        for (Path p : samples) calls.add(Call.of("validate", "-T", "json", p.toString()));
        List<Run> runs = Launcher.runAllReusing(calls);     // validate -T json DIR is LauncherIT's too
        Run all = runs.get(0);
        int worst = 0;
        for (Run one : runs.subList(1, runs.size())) worst = Math.max(worst, one.exit());
        assertEquals(worst, all.exit(), all.show());
        String out = all.out();
        int at = -1;
        for (Path p : samples) {
            int i = out.indexOf(p.getFileName().toString(), at + 1);
            assertTrue(i > at, p + " after the file before it\n" + all.show());
            at = i;
        }
    }

    private static Call call(List<String> form, String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(form);
        return Call.of(a);
    }
}
