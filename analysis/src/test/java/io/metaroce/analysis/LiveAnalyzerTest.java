package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.ForwardingPacketSource;
import io.metaroce.capture.PacketSource;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code analyze -i}'s pass ({@link LiveAnalyzer} with a {@link LiveAnalyzer.Monitor}): decoding and analysis on
 * two threads, batches ending with each burst of traffic. Same flows as the file; a failure of the analysis
 * while the source waits for traffic on an idle link ends the run. {@code @Timeout} is a hang guard.
 */
@Timeout(120)
class LiveAnalyzerTest {
    private static final Path SAMPLES = Path.of("../samples/captures");

    @Test
    void sameFlowsAsTheFileWithBurstsOfEveryLength() throws Exception {
        for (String name : List.of("rocev2-gbn-loss.pcapng", "metaroce-spray-lossy-path.pcapng", "rocev2-ecn-cnp.pcapng")) {
            Path file = SAMPLES.resolve(name);
            AnalysisResult fromFile = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).run(file);
            LiveAnalyzer.Monitor monitor = new LiveAnalyzer.Monitor();
            AnalysisResult live;
            try (Live src = new Live(CaptureFiles.open(file), null, 0)) {
                live = LiveAnalyzer.analyze(src, "live", AnalysisSettings.DEFAULT, false, null, monitor);
            }
            assertEquals(fromFile.flows(), live.flows(), name);
            assertEquals(fromFile.capture().get("frames"), live.capture().get("frames"), name);
            assertEquals(((Number) fromFile.capture().get("frames")).longValue(), monitor.snapshot().frames(), name);
        }
    }

    @Test
    void batchHookBracketsEveryFrameOnceOnOneThreadAndOnTwo() throws Exception {
        Path file = SAMPLES.resolve("rocev2-gbn-loss.pcapng");
        for (long pipelineFrom : new long[] {0, Long.MAX_VALUE}) {
            long[] framesInBatches = {0}, brackets = {0};
            int[] depth = {0};
            AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS)
                    .pipelineFrom(pipelineFrom);
            s.onBatch(new AnalysisSession.BatchHook() {
                public void before() {
                    assertEquals(0, depth[0]++, "brackets do not nest");
                    assertTrue(s.runningEngine() != null, "the engine exists inside the bracket");
                }

                public void after(int frames) {
                    depth[0]--;
                    framesInBatches[0] += frames;
                    brackets[0]++;
                }
            });
            AnalysisResult r = s.run(file);
            assertEquals(frames(file), framesInBatches[0], "pipelineFrom " + pipelineFrom);
            assertEquals(0, depth[0]);
            assertTrue(brackets[0] > 1, "one bracket per batch and one for the final tally");
            assertEquals(frames(file), ((Number) r.capture().get("frames")).longValue());
        }
    }

    @Test
    void analysisFailureWhileTheLinkIsIdleEndsTheRun() throws Exception {
        CountDownLatch idle = new CountDownLatch(1);
        IllegalStateException failure = new IllegalStateException("engine bug");
        Path file = SAMPLES.resolve("rocev2-gbn-loss.pcapng");
        try (Live src = new Live(CaptureFiles.open(file), idle, frames(file))) {
            Throwable thrown = assertThrows(Throwable.class, () -> LiveAnalyzer.analyze(src, "live",
                    AnalysisSettings.DEFAULT.withTap(AnalysisSettings.Tap.parse("mirror")), false, e -> {
                        try {
                            idle.await(); // fail only once the source waits for traffic that never comes
                        } catch (InterruptedException x) {
                            Thread.currentThread().interrupt();
                        }
                        throw failure;
                    }, new LiveAnalyzer.Monitor()));
            assertSame(failure, thrown);
            assertTrue(src.woken, "the source waiting for traffic was woken");
        }
    }

    private static long frames(Path file) throws Exception {
        long n = 0;
        try (PacketSource s = CaptureFiles.open(file)) {
            while (s.next()) n++;
        }
        return n;
    }

    /**
     * A file read as a live source: no mapping, a burst ends after every 1, 2, 3... frames; with {@code idle} set,
     * the whole file is one burst, after which it waits for traffic until interrupted (as {@code LiveCapture.take}
     * does).
     */
    private static final class Live extends ForwardingPacketSource {
        private final CountDownLatch idle;
        private final long total;
        private int burst = 1, inBurst;
        volatile boolean woken;

        Live(PacketSource s, CountDownLatch idle, long total) {
            super(ForwardingPacketSource.withoutMapping(s));
            this.idle = idle;
            this.total = total;
        }

        @Override
        public boolean next() {
            if (delegate.next()) {
                if (++inBurst > burst) {
                    inBurst = 1;
                    burst = burst % 7 + 1;
                }
                return true;
            }
            if (idle == null) return false;
            idle.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                woken = true;
            }
            return false;
        }

        @Override
        public boolean endOfBurst() { return idle != null ? delegate.frameNumber() == total : inBurst == burst; }
    }
}
