package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.dissector.Dissection;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A second consumer of the analysis pass ({@link AnalysisSession.FrameStages}, what validate runs as): it sees
 * every frame once on each side, in capture order after the engine, with the slot it was decoded into, on one
 * thread or two; what it clears of judgeable the engine respects; begin comes first, with the resolved tap.
 */
class FrameStagesTest {
    private static final Path SAMPLES = Path.of("../samples/captures");

    /** Records what a consumer sees; fails on the first frame out of order or seen in the wrong slot. */
    private static final class Recorder implements AnalysisSession.FrameStages {
        final long[] slotFrame = new long[AnalysisSession.FRAME_SLOTS];
        Tap tap;
        long decoded, analyzed, lastAnalyzed, duplicates, roce, attributed;
        final boolean unjudge;

        Recorder(boolean unjudge) { this.unjudge = unjudge; }

        @Override
        public void begin(Tap t, String how) {
            assertEquals(0, decoded, "begin before the first frame");
            assertNotNull(how);
            tap = t;
        }

        @Override
        public void decoded(Dissection d, FrameFacts f, int fcsLength, int slot) {
            assertEquals(d.number(), f.number);
            slotFrame[slot] = f.number;
            decoded++;
            if (unjudge && f.roce) f.judgeable = false;
        }

        @Override
        public void analyzed(FrameFacts f, int slot, FrameOutcome outcome) {
            boolean duplicate = outcome.duplicate();
            assertEquals(f.roce, outcome.flow() != null, "a RoCE frame has its flow");
            assertEquals(slotFrame[slot], f.number, "the slot still holds the frame decoded into it");
            assertTrue(f.number > lastAnalyzed, "capture order");
            lastAnalyzed = f.number;
            analyzed++;
            QpFlow about = outcome.about();
            if (about != null) {
                // A reply the engine attributed: to the other direction of its own flow, which the engine paired.
                assertSame(outcome.flow(), about.peer(), "frame " + f.number);
                assertTrue(f.opcode.role() != io.metaroce.protocol.OpcodeDef.Role.REQUEST, "frame " + f.number);
                attributed++;
            }
            if (duplicate) duplicates++;
            if (f.roce) roce++;
        }
    }

    @Test
    void everyFrameOnceInOrderOnOneThreadOrTwo() throws Exception {
        for (String name : List.of("rocev2-gbn-loss", "metaroce-spray-lossy-path", "capture-gaps-truncated")) {
            Path file = SAMPLES.resolve(name + ".pcapng");
            for (long pipelineFrom : new long[] {Long.MAX_VALUE, 0}) {
                Recorder r = new Recorder(false);
                AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS)
                        .onFrame(r).pipelineFrom(pipelineFrom);
                AnalysisResult res = s.run(file);
                long frames = ((Number) res.capture().get("frames")).longValue();
                assertEquals(frames, r.decoded, name);
                assertEquals(frames, r.analyzed, name);
                assertTrue(r.attributed > 0, name + ": acknowledgements attributed to their data flow");
                assertEquals(((Number) res.capture().get("duplicates")).longValue(), r.duplicates, name);
                assertEquals(((java.util.Map<?, ?>) res.capture().get("tap")).get("resolved"), r.tap.toString(), name);
            }
        }
    }

    @Test
    void framesTheConsumerFindsBrokenAreNotJudgedByTheEngine() throws Exception {
        Recorder r = new Recorder(true);
        AnalysisResult res = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(r)
                .run(SAMPLES.resolve("rocev2-gbn-loss.pcapng"));
        long unjudged = ((Number) res.capture().get("unjudged_frames")).longValue();
        assertTrue(r.roce > 0);
        assertEquals(r.roce - r.duplicates, unjudged);
        for (FlowSummary f : res.flows()) assertEquals(0, f.counters().retransmittedPackets(), f.id());
    }

    /**
     * The decoding thread calls {@link AnalysisSession.FrameStages#decoded} and {@code decodedFast} on the stages'
     * {@link AnalysisSession.FrameStages#decodingSide} (validate's RuleEngine keeps their fields apart from the ones its
     * analysis thread writes for every frame), never on the stages themselves, and every other method on the stages:
     * on one thread and on two, for frames the short cut takes and for dissected ones.
     */
    @Test
    void theDecodingThreadCallsTheDecodingSide() throws Exception {
        final class Side implements AnalysisSession.FrameStages {
            final long[] slotFrame = new long[AnalysisSession.FRAME_SLOTS];
            long decoded, fast;
            String thread;

            @Override
            public void decoded(Dissection d, FrameFacts f, int fcsLength, int slot) {
                slotFrame[slot] = f.number;
                decoded++;
                thread = Thread.currentThread().getName();
            }

            @Override
            public boolean decodedFast(FastFrame l, FrameFacts f, int slot) {
                fast++;
                return false;
            }

            @Override
            public void analyzed(FrameFacts f, int slot, FrameOutcome outcome) {
                throw new AssertionError("analyzed on the decoding side");
            }
        }
        final class Stages implements AnalysisSession.FrameStages {
            final Side side = new Side();
            long analyzed;

            @Override
            public AnalysisSession.FrameStages decodingSide() { return side; }

            @Override
            public boolean fastFrames() { return true; }

            @Override
            public void decoded(Dissection d, FrameFacts f, int fcsLength, int slot) {
                throw new AssertionError("decoded on the stages, not their decoding side");
            }

            @Override
            public boolean decodedFast(FastFrame l, FrameFacts f, int slot) {
                throw new AssertionError("decodedFast on the stages, not their decoding side");
            }

            @Override
            public void analyzed(FrameFacts f, int slot, FrameOutcome outcome) {
                assertEquals(side.slotFrame[slot], f.number, "the decoding side decoded the frame into its slot");
                analyzed++;
            }
        }
        Path file = SAMPLES.resolve("rocev2-gbn-loss.pcapng");
        for (long pipelineFrom : new long[] {Long.MAX_VALUE, 0}) {
            Stages st = new Stages();
            AnalysisResult res = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS)
                    .onFrame(st).pipelineFrom(pipelineFrom).run(file);
            long frames = ((Number) res.capture().get("frames")).longValue();
            assertEquals(frames, st.side.decoded);
            assertEquals(frames, st.analyzed);
            assertTrue(st.side.fast > frames / 2, "frames the short cut offered to the decoding side: " + st.side.fast);
            if (pipelineFrom == 0) assertTrue(!"metaroce-analysis".equals(st.side.thread), st.side.thread);
        }
    }
}
