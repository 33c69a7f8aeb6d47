package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link AnalysisSession} on two threads (decoding, analysis), as it runs on captures of 32 MiB and more (the
 * threshold is lowered here): same results as on one thread, and any failure of either thread ends the run
 * with that failure. {@code @Timeout} is a hang guard, not a timing assertion.
 */
@Timeout(120)
class PipelinedSessionTest {
    private static final Path SAMPLES = Path.of("../samples/captures");
    private long oldThreshold;

    @BeforeEach
    void pipelineEveryCapture() {
        oldThreshold = AnalysisSession.pipelineMinBytes;
        AnalysisSession.pipelineMinBytes = 0;
    }

    @AfterEach
    void restore() {
        AnalysisSession.pipelineMinBytes = oldThreshold;
    }

    @Test
    void sameFlowsOnOneOrTwoThreads() throws Exception {
        for (String name : List.of("rocev2-gbn-loss.pcapng", "metaroce-spray-lossy-path.pcapng", "rocev2-ecn-cnp.pcapng")) {
            Path f = SAMPLES.resolve(name);
            AnalysisResult two = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).run(f);
            AnalysisSession.pipelineMinBytes = Long.MAX_VALUE;
            AnalysisResult one = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).run(f);
            AnalysisSession.pipelineMinBytes = 0;
            assertEquals(one.flows(), two.flows(), name);
        }
    }

    /**
     * Each PSN sent twice: an event from the second frame on. The analysis thread fails at its first event,
     * after the decoder has had time to fill every batch (the state in which the old hand-off hung for good).
     */
    @Test
    void analysisThreadFailureEndsTheRun() throws Exception {
        Path cap = duplicates(40_000);
        for (Throwable failure : List.of(new IllegalStateException("engine bug"), new OutOfMemoryError("Java heap space"),
                new StackOverflowError())) {
            AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onEvent(e -> {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                }
                throwIt(failure);
            });
            Throwable thrown = assertThrows(Throwable.class, () -> s.run(cap));
            assertSame(failure, thrown);
            assertEquals(AnalysisSession.State.FAILED, s.state());
            assertFalse(analysisThreadAlive());
        }
    }

    /** A failure on the decoding thread (here in the progress callback, which runs there) ends the analysis thread. */
    @Test
    void decodingThreadFailureEndsTheRun() throws Exception {
        Path cap = duplicates(40_000);
        RuntimeException failure = new IllegalStateException("decoder bug");
        AtomicBoolean once = new AtomicBoolean();
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS)
                .onProgress((pos, total, frames) -> {
                    if (frames > 8192 && once.compareAndSet(false, true)) throw failure;
                });
        assertSame(failure, assertThrows(RuntimeException.class, () -> s.run(cap)));
        assertEquals(AnalysisSession.State.FAILED, s.state());
        assertFalse(analysisThreadAlive());
    }

    private static Path duplicates(int frames) {
        Cap c = new Cap();
        for (int i = 0; i < frames; i++) {
            c.add(1_000, Pkt.of(Pkt.SEND_ONLY).from("10.0.0.1", "10.0.0.2").qp(0x201).psn(i / 2).payload(64));
        }
        return c.write();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwIt(Throwable t) throws T {
        throw (T) t;
    }

    private static boolean analysisThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("metaroce-analysis") && t.isAlive());
    }
}
