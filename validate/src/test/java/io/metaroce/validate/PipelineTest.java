package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Large captures run the stream rules and the analysis on a second thread: the findings must not change. */
class PipelineTest {

    private static List<String> findings(Path cap, long pipelineFrom) {
        FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), true, null,
                io.metaroce.analysis.AnalysisSession.Options.RESULTS, pipelineFrom);
        return r.findings().stream().map(f -> f.rule() + "@" + f.frame() + ":" + f.severity() + ":" + f.message()).toList();
    }

    @Test
    void sameFindingsOnOneOrTwoThreads() {
        for (String[] s : new String[][] {{"conformance-violations", null}, {"metaroce-spray-lossy-path", "receiver"},
                {"rocev2-ecn-cnp", null}, {"rocev2-gbn-loss", "mirror"}}) {
            Path cap = Captures.of(s[0], s[1]);
            assertEquals(findings(cap, Long.MAX_VALUE), findings(cap, 0), s[0]);
        }
    }

    /**
     * The rule engine gives the decoding thread an object of its own (RuleEngine.Decoding: the fields it reads for
     * every frame apart from the ones the analysis thread writes), which takes the short cut as the engine does; the
     * findings on two threads are those on one ({@link #sameFindingsOnOneOrTwoThreads}).
     */
    @Test
    void theDecodingThreadHasAnObjectOfItsOwn() {
        RuleEngine rules = new RuleEngine(ValidateSettings.defaults(), false);
        io.metaroce.analysis.AnalysisSession.FrameStages side = rules.decodingSide();
        assertTrue(side != rules, "the decoding side is the rule engine itself");
        assertTrue(side.fastFrames());
        rules.fast = false;
        assertFalse(side.fastFrames());
        assertThrows(IllegalStateException.class, () -> side.analyzed(null, 0, null));
    }

    /**
     * The decoding thread computes each frame's ICRC into the frame's slot and the analysis thread judges it there
     * (MR-FRAME-001): over more frames than there are slots (so each slot serves a bad and then a good frame, and
     * the other way round), the bad ICRCs are found at exactly their frames on two threads as on one.
     */
    @Test
    void badIcrcsAreFoundAtTheirFramesOnTwoThreads(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        int slots = io.metaroce.analysis.AnalysisSession.FRAME_SLOTS;
        java.util.SortedSet<Long> bad = new java.util.TreeSet<>(List.of(1L, 2L, 513L, slots + 3L, slots + 1L + 1,
                2L * slots + 512, 2L * slots + 513, 2L * slots + 700));
        BuiltCapture c = new BuiltCapture();
        for (long n = 1; n <= 2L * slots + 700; n++) {
            io.metaroce.dissector.FrameBuilder w = BuiltCapture.v2(0x0A, BuiltCapture.A, BuiltCapture.B).payload(256)
                    .set("bth.psn", n).set("reth.dma_length", 256);
            c.add(bad.contains(n) ? w.corruptIcrc() : w);
        }
        Path cap = c.write(dir.resolve("icrc.pcap"));
        for (long pipelineFrom : new long[] {0, Long.MAX_VALUE}) {
            FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), false, null,
                    io.metaroce.analysis.AnalysisSession.Options.RESULTS, pipelineFrom);
            assertEquals(null, r.error(), r.error());
            List<Long> found = r.findings().stream().filter(f -> f.rule().equals("MR-FRAME-001")).map(Finding::frame).toList();
            assertEquals(List.copyOf(bad), found, "pipelineFrom " + pipelineFrom);
        }
    }

    /**
     * A failure on the decoding thread (in the progress callback, which runs there) ends the analysis thread too:
     * an exception becomes the file's error, an Error (out of memory) ends the run. The timeout is a hang guard.
     */
    @Test
    @Timeout(120)
    void aFailureOfEitherThreadEndsTheRun() {
        Path cap = Captures.dir().resolve("clean-20k.pcapng");
        try {
            io.metaroce.samples.Params p = io.metaroce.samples.Simulator.params("rocev2-clean");
            p.set("frames", "20000");
            io.metaroce.samples.Simulator.run("rocev2-clean", p, cap, Captures.dir().resolve("clean-20k.truth.json"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        {
            FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), false, b -> {
                throw new IllegalStateException("decoder bug");
            }, io.metaroce.analysis.AnalysisSession.Options.RESULTS, 0);
            assertTrue(r.error != null && r.error.contains("internal error") && r.error.contains("decoder bug"), r.error);
            OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
            assertSame(oom, assertThrows(OutOfMemoryError.class, () -> FileValidator.validate(cap, ValidateSettings.defaults(),
                    false, b -> {
                        throw oom;
                    }, io.metaroce.analysis.AnalysisSession.Options.RESULTS, 0)));
            assertFalse(Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().equals("metaroce-analysis") && t.isAlive()));
        }
    }
}
