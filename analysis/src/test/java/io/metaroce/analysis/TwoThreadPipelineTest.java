package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failure of either thread of the decode/analysis pipeline ends the run at once with that failure, whatever
 * the other thread is doing: filling the last free batch, blocked in its source, or in the middle of a batch.
 * The {@code @Timeout}s are hang guards only (the bug they guard against is a run that never returns).
 */
@Timeout(60)
class TwoThreadPipelineTest {
    private static final String THREAD = "pipeline-test-consumer";

    private static List<int[]> pool(int n) {
        List<int[]> p = new ArrayList<>();
        for (int i = 0; i < n; i++) p.add(new int[4]);
        return p;
    }

    /** Batches of 4 numbers counting up to {@code total}; the last batch is partial. */
    private static TwoThreadPipeline.Producer<int[]> counting(int total, AtomicInteger next) {
        return slot -> {
            int n = 0;
            while (n < slot.items.length && next.get() < total) slot.items[n++] = next.getAndIncrement();
            slot.size = n;
            return next.get() < total;
        };
    }

    @Test
    void everyBatchIsConsumedInOrder() {
        List<Integer> seen = new ArrayList<>();
        new TwoThreadPipeline<>(pool(3), THREAD).run(counting(1001, new AtomicInteger()), slot -> {
            for (int k = 0; k < slot.size; k++) seen.add(slot.items[k]);
        });
        assertEquals(1001, seen.size());
        for (int i = 0; i < seen.size(); i++) assertEquals(i, seen.get(i));
        assertFalse(consumerAlive());
    }

    /**
     * The consumer hands consumed batches back in groups, but never keeps one while it waits for a full batch: with a
     * pool of two, a consumer that held its batches until it waited would stall the producer for a poll period
     * (20 ms) per batch, 10 s for these 500 batches; handed back in time they take milliseconds.
     */
    @Test
    void heldBatchesGoBackBeforeTheConsumerWaits() {
        AtomicInteger sum = new AtomicInteger();
        long t0 = System.nanoTime();
        new TwoThreadPipeline<>(pool(2), THREAD).run(counting(2000, new AtomicInteger()), slot -> {
            for (int k = 0; k < slot.size; k++) sum.addAndGet(slot.items[k]);
        });
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(2000 * 1999 / 2, sum.get());
        assertTrue(ms < 5_000, "500 batches through a pool of two took " + ms + " ms");
    }

    /**
     * The hang of issue 14: the analysis thread dies while the decoder has filled every batch and waits for a
     * free one. The consumer waits until the producer has nothing left to fill, then fails.
     */
    @Test
    void consumerFailureWhileEveryBatchIsFullEndsTheRun() throws Exception {
        for (Throwable failure : List.of(new IllegalStateException("engine bug"), new OutOfMemoryError("Java heap space"))) {
            AtomicInteger filled = new AtomicInteger();
            CountDownLatch allFull = new CountDownLatch(1);
            TwoThreadPipeline.Producer<int[]> producer = counting(Integer.MAX_VALUE, new AtomicInteger());
            Throwable thrown = assertThrows(Throwable.class, () -> new TwoThreadPipeline<>(pool(4), THREAD).run(slot -> {
                boolean more = producer.fill(slot);
                if (filled.incrementAndGet() == 4) allFull.countDown();
                return more;
            }, slot -> {
                try {
                    allFull.await();
                    Thread.sleep(100); // the producer is now waiting for a free batch
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                sneaky(failure);
            }));
            assertSame(failure, thrown, "the consumer's failure itself reaches the caller");
            assertEquals(4, filled.get(), "the producer filled nothing after the failure");
            assertFalse(consumerAlive());
            assertFalse(Thread.currentThread().isInterrupted(), "the consumer's wake-up is not left on the caller");
        }
    }

    /** A real stack overflow in the consumer (deep recursion) ends the run with it. */
    @Test
    void consumerStackOverflowEndsTheRun() {
        assertThrows(StackOverflowError.class, () -> new TwoThreadPipeline<>(pool(2), THREAD)
                .run(counting(100, new AtomicInteger()), slot -> recurse(slot.size)));
        assertFalse(consumerAlive());
    }

    /**
     * A live source waits for traffic inside the producer: a consumer failure must wake it (interrupt), not wait
     * for the next packet on an idle link.
     */
    @Test
    void consumerFailureWakesAProducerBlockedInItsSource() {
        CountDownLatch never = new CountDownLatch(1);
        // The consumer fails only once the producer waits in its source: failing earlier may (rightly) let the
        // producer see the failure before it calls the source again, and then there is nothing to wake.
        CountDownLatch inSource = new CountDownLatch(1);
        AtomicReference<Boolean> woken = new AtomicReference<>(false);
        RuntimeException failure = new IllegalStateException("analysis failed");
        AtomicInteger calls = new AtomicInteger();
        Throwable thrown = assertThrows(Throwable.class, () -> new TwoThreadPipeline<>(pool(2), THREAD).run(slot -> {
            if (calls.incrementAndGet() == 1) {
                slot.size = 1;
                return true;
            }
            try {
                inSource.countDown();
                never.await(); // an idle link
            } catch (InterruptedException e) {
                woken.set(true);
                Thread.currentThread().interrupt(); // what a live source does: stop, and report no more frames
            }
            slot.size = 0;
            return false;
        }, slot -> {
            try {
                if (!inSource.await(10, java.util.concurrent.TimeUnit.SECONDS)) throw new AssertionError("the producer never waited in its source");
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            throw failure;
        }));
        assertSame(failure, thrown);
        assertTrue(woken.get());
        assertFalse(Thread.currentThread().isInterrupted());
        assertFalse(consumerAlive());
    }

    /** A failure while decoding ends the analysis thread too, and reaches the caller. */
    @Test
    void producerFailureEndsTheConsumer() {
        for (Throwable failure : List.of(new IllegalArgumentException("decoder bug"), new OutOfMemoryError("Java heap space"))) {
            AtomicInteger next = new AtomicInteger();
            TwoThreadPipeline.Producer<int[]> counting = counting(Integer.MAX_VALUE, next);
            Throwable thrown = assertThrows(Throwable.class, () -> new TwoThreadPipeline<>(pool(3), THREAD).run(slot -> {
                if (next.get() >= 400) sneaky(failure);
                return counting.fill(slot);
            }, slot -> { }));
            assertSame(failure, thrown);
            assertFalse(consumerAlive(), "the analysis thread has ended");
        }
    }

    /** A decoder failure while the analysis waits in an interruptible call (a listener's queue) still ends the run. */
    @Test
    void producerFailureWakesAConsumerBlockedInAWait() {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch consuming = new CountDownLatch(1);
        RuntimeException failure = new IllegalStateException("decoder bug");
        AtomicInteger calls = new AtomicInteger();
        Throwable thrown = assertThrows(Throwable.class, () -> new TwoThreadPipeline<>(pool(2), THREAD).run(slot -> {
            if (calls.incrementAndGet() > 1) {
                try {
                    consuming.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                throw failure;
            }
            slot.size = 1;
            return true;
        }, slot -> {
            consuming.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException("woken", e);
            }
        }));
        assertSame(failure, thrown, "the producer's failure, not the consumer's wake-up");
        assertFalse(consumerAlive());
    }

    /** Cancelling from the producer (a CancellationException) ends the run as a cancellation. */
    @Test
    void cancellationFromTheProducer() {
        AtomicInteger consumed = new AtomicInteger();
        assertThrows(CancellationException.class, () -> new TwoThreadPipeline<>(pool(2), THREAD).run(slot -> {
            if (consumed.get() > 10) throw new CancellationException("cancelled");
            slot.size = 1;
            return true;
        }, slot -> consumed.incrementAndGet()));
        assertFalse(consumerAlive());
    }

    private static int recurse(int n) {
        return recurse(n + 1) + 1;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }

    private static boolean consumerAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(THREAD) && t.isAlive());
    }

    /**
     * {@link TwoThreadPipeline#waiting}, which the decoding thread reads to choose whether to leave work to the
     * analysis thread ({@link FillSplit}): the filled batches the second thread has not taken, without the one it
     * works on. The consumer holds the first batch until the producer has filled three more.
     */
    @Test
    void waitingCountsTheBatchesNotTakenYet() throws Exception {
        List<int[]> pool = new ArrayList<>();
        for (int i = 0; i < 4; i++) pool.add(new int[1]);
        TwoThreadPipeline<int[]> p = new TwoThreadPipeline<>(pool, "waiting-test");
        CountDownLatch tookFirst = new CountDownLatch(1), release = new CountDownLatch(1);
        List<Integer> seen = new ArrayList<>();
        AtomicInteger fills = new AtomicInteger();
        p.run(slot -> {
            int n = fills.incrementAndGet();
            if (n == 2) await(tookFirst);
            seen.add(p.waiting());
            slot.size = 1;
            if (n == 4) release.countDown();
            return n < 6;
        }, slot -> {
            if (tookFirst.getCount() > 0) {
                tookFirst.countDown();
                await(release);
            }
        });
        // Fill 1: nothing handed over; 2: the first taken; 3 and 4: one and two waiting behind it; then the consumer runs.
        assertEquals(List.of(0, 0, 1, 2), seen.subList(0, 4));
        assertEquals(6, fills.get());
        assertEquals(0, p.waiting(), "every batch taken at the end");
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
