package io.metaroce.analysis;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Decoding on the calling thread, analysis on a second one: a fixed pool of batches goes round between a
 * {@link Producer} (fills a batch) and a {@link Consumer} (takes the batches in order), so nothing is allocated
 * per frame.
 *
 * <p>Why this class exists: a failure of either side (an exception, an {@link OutOfMemoryError} after minutes of
 * garbage collection, a {@link StackOverflowError}) must end the whole run at once, never leave the other side
 * waiting for good on a queue. So neither side ever waits untimed on the other: the hand-off queue holds the
 * whole pool (putting never blocks), every take is a timed poll that looks at the other side's state, and a
 * failing consumer also interrupts the producer, which wakes a producer blocked in its source (a live capture
 * waiting for traffic stops on an interrupt). The failure is rethrown on the calling thread as it was thrown
 * (an {@code Error} stays an {@code Error}), after the second thread has ended.
 *
 * @param <B> what one batch holds (for example an array of frame facts)
 */
public final class TwoThreadPipeline<B> {
    /** How long one side waits before it looks at the other side's state again. */
    private static final long POLL_MILLIS = 20;
    /** Consumed batches handed back to the producer at once (see {@link #consume}). */
    private static final int RETURN_GROUP = 4;

    /** One batch of the pool, with the number of frames in it and whether it is the last. */
    public static final class Slot<B> {
        public final B items;
        /** Frames in this batch (set by the producer). */
        public int size;
        boolean last;

        Slot(B items) {
            this.items = items;
        }
    }

    /** Fills batches on the calling thread. */
    @FunctionalInterface
    public interface Producer<B> {
        /**
         * Fills {@code slot} (setting {@link Slot#size}); returns false when this batch is the last one (it may
         * then hold no frame at all). Throwing ends the run (a {@link CancellationException} cancels it).
         */
        boolean fill(Slot<B> slot);
    }

    /** Takes every filled batch, in order, on the second thread. */
    @FunctionalInterface
    public interface Consumer<B> {
        void accept(Slot<B> slot);
    }

    private final BlockingQueue<Slot<B>> empty, full;
    private final String threadName;
    private final AtomicReference<Throwable> consumerFailure = new AtomicReference<>();
    private volatile boolean producerDone;
    /** Batches handed to the second thread (written by the producer only), and taken by it (by the consumer only). */
    private long added;
    private volatile long taken;
    /** Set before the consumer is woken, so that what the wake-up makes it throw is not taken for the cause. */
    private volatile Throwable producerFailure;

    /**
     * @param pool the batches to recycle (at least two, so that both sides can work at once)
     * @param threadName the second thread's name (it shows in a thread dump)
     */
    public TwoThreadPipeline(List<B> pool, String threadName) {
        if (pool.size() < 2) throw new IllegalArgumentException("a pipeline needs at least two batches");
        this.empty = new ArrayBlockingQueue<>(pool.size());
        this.full = new ArrayBlockingQueue<>(pool.size());
        for (B b : pool) empty.add(new Slot<>(b));
        this.threadName = threadName;
    }

    /**
     * Filled batches the second thread has not taken yet (not counting the one it works on): how far the producer
     * is ahead, for a producer that shifts work to the consumer when it would otherwise wait.
     */
    public int waiting() {
        // Two counters, not full.size(): that takes the queue's lock, which the second thread takes for every batch.
        return (int) (added - taken);
    }

    /**
     * Runs the pipeline to its end (the producer's last batch consumed) or to the first failure, which is
     * rethrown here once the second thread has ended. Single use.
     *
     * @throws CancellationException when the calling thread was interrupted (the run is cancelled)
     */
    public void run(Producer<B> producer, Consumer<B> consumer) {
        Thread caller = Thread.currentThread();
        Thread second = Thread.ofPlatform().name(threadName).daemon().start(() -> consume(consumer, caller));
        Throwable failure = null;
        try {
            produce(producer);
        } catch (Throwable t) {
            failure = t;
            producerFailure = t;
        } finally {
            producerDone = true;
        }
        // A consumer waiting in an interruptible call (a listener's queue) must not keep a failed run alive.
        if (failure != null) second.interrupt();
        boolean interrupted = joinUninterruptibly(second);
        // The consumer's interrupt (if it failed) was meant for this run only: clear it, so that it cannot close
        // an interruptible channel the caller uses afterwards.
        boolean callerInterrupt = Thread.interrupted() && consumerFailure.get() == null;
        Throwable consumerFailed = consumerFailure.get();
        if (consumerFailed != null) rethrow(consumerFailed); // it came first: the producer only saw its effect
        if (failure != null) rethrow(failure);
        if (interrupted || callerInterrupt) Thread.currentThread().interrupt();
    }

    private void produce(Producer<B> producer) {
        while (consumerFailure.get() == null) {
            Slot<B> s;
            try {
                s = empty.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                if (consumerFailure.get() != null) return;
                Thread.currentThread().interrupt();
                throw new CancellationException("analysis interrupted");
            }
            if (s == null) continue;
            boolean more = producer.fill(s);
            s.last = !more;
            added++;
            full.add(s); // never full: it can hold the whole pool
            if (!more) return;
        }
    }

    private void consume(Consumer<B> consumer, Thread producerThread) {
        // Consumed batches go back to the producer in groups of RETURN_GROUP. A producer that is ahead waits for an
        // empty batch; handing each back at once woke it for every batch, and the wake-up (a futex call) is paid
        // by this thread, the critical path of a file's pass (analyze of 1 M frames: about 2,000 wake-ups, 4-5 %
        // of this thread's CPU under perf). Held batches go back before this thread waits for a full one, so the
        // producer never waits for a batch that is done.
        @SuppressWarnings("unchecked")
        Slot<B>[] done = new Slot[RETURN_GROUP];
        int held = 0;
        try {
            while (true) {
                Slot<B> s = full.poll();
                if (s == null) {
                    for (int k = 0; k < held; k++) empty.add(done[k]);
                    held = 0;
                    s = full.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                }
                if (s == null) {
                    // The producer ended without a last batch (it failed or was cancelled).
                    if (producerDone && full.isEmpty()) return;
                    continue;
                }
                taken++; // this thread alone writes it
                consumer.accept(s);
                if (s.last) return;
                done[held++] = s;
                if (held == RETURN_GROUP) {
                    for (int k = 0; k < held; k++) empty.add(done[k]);
                    held = 0;
                }
            }
        } catch (Throwable t) {
            // Nothing here may allocate: after an OutOfMemoryError the heap may have no room left.
            if (producerFailure != null) return; // woken because the producer failed: its failure is the cause
            consumerFailure.compareAndSet(null, t);
            producerThread.interrupt();
        }
    }

    private static boolean joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    private static void rethrow(Throwable t) {
        if (t instanceof RuntimeException re) throw re;
        if (t instanceof Error er) throw er;
        throw new IllegalStateException(t);
    }
}
