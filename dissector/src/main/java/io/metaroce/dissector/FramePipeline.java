package io.metaroce.dissector;

import io.metaroce.capture.PacketSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Reads a capture on the calling thread and dissects it on worker threads, batch by batch, handing the
 * per-batch results back in capture order. The reader only walks record headers (cheap); dissection
 * and the ICRC (the CRC runs over every byte) are what the workers share. With one thread everything
 * runs inline. Memory: a bounded number of batches in flight, whatever the capture size.
 *
 * <p>Any {@link PacketSource} works: a file or a source without a mapping such as a live capture (batches copy each
 * frame's bytes as the reader takes it: {@link FrameBatch} says why also for a file).
 */
public final class FramePipeline {
    /** Frames per batch: large enough to amortize hand-offs, small enough to keep output latency low. */
    static final int BATCH = 2048;

    /** Per-thread processing of batches; create one per worker through the factory. */
    public interface Worker<R> {
        R process(FrameBatch batch);
    }

    /** Receives the batch results in capture order on the calling thread; false stops the run. */
    public interface ResultSink<R> {
        boolean accept(R result);
    }

    private FramePipeline() {}

    public static int defaultThreads() { return Math.max(1, Runtime.getRuntime().availableProcessors()); }

    public static int defaultBatch() { return BATCH; }

    /**
     * Runs the capture through the workers. Returns the workers that were created (one per thread), so
     * that the caller can merge what they accumulated.
     */
    public static <R, W extends Worker<R>> List<W> run(PacketSource src, int threads, Supplier<W> factory, ResultSink<R> sink)
            throws InterruptedException {
        List<W> workers = new ArrayList<>();
        if (threads <= 1) {
            W w = factory.get();
            workers.add(w);
            FrameBatch batch = new FrameBatch(BATCH);
            long seq = 0, start = Long.MIN_VALUE, previous = Long.MIN_VALUE;
            boolean more = true;
            while (more) {
                batch.clear(seq++, start);
                batch.previousNanos = previous;
                while ((more = src.next()) && batch.add(src) && !src.endOfBurst()) { }
                if (start == Long.MIN_VALUE && batch.size() > 0) start = batch.captureStartNanos = batch.timeNanos[0];
                if (batch.size() > 0) previous = batch.timeNanos[batch.size() - 1];
                if (batch.size() == 0 || !sink.accept(w.process(batch))) break;
            }
            return workers;
        }
        ThreadLocal<W> local = ThreadLocal.withInitial(() -> {
            W w = factory.get();
            synchronized (workers) {
                workers.add(w);
            }
            return w;
        });
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "metaroce-dissect");
            t.setDaemon(true);
            return t;
        });
        try {
            int inFlight = threads * 3;
            ArrayDeque<FrameBatch> free = new ArrayDeque<>();
            for (int i = 0; i < inFlight + 1; i++) free.add(new FrameBatch(BATCH));
            ArrayDeque<Future<R>> pending = new ArrayDeque<>();
            ArrayDeque<FrameBatch> pendingBatches = new ArrayDeque<>();
            long seq = 0, start = Long.MIN_VALUE, previous = Long.MIN_VALUE;
            boolean more = true, stop = false;
            while (more && !stop) {
                FrameBatch batch = free.poll();
                batch.clear(seq++, start);
                batch.previousNanos = previous;
                while ((more = src.next()) && batch.add(src) && !src.endOfBurst()) { }
                if (start == Long.MIN_VALUE && batch.size() > 0) start = batch.captureStartNanos = batch.timeNanos[0];
                if (batch.size() > 0) previous = batch.timeNanos[batch.size() - 1];
                if (batch.size() == 0) {
                    free.add(batch);
                    break;
                }
                pending.add(pool.submit(() -> local.get().process(batch)));
                pendingBatches.add(batch);
                // Hand back finished batches in order; block only when the pipeline is full.
                while (!pending.isEmpty() && (pending.size() >= inFlight || pending.peek().isDone())) {
                    R r = get(pending.poll());
                    free.add(pendingBatches.poll());
                    if (!sink.accept(r)) {
                        stop = true;
                        break;
                    }
                }
            }
            while (!stop && !pending.isEmpty()) {
                if (!sink.accept(get(pending.poll()))) stop = true;
                pendingBatches.poll();
            }
            for (Future<R> f : pending) f.cancel(true);
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        }
        return workers;
    }

    private static <R> R get(Future<R> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) throw re;
            if (c instanceof Error er) throw er;
            throw new IllegalStateException(c);
        }
    }
}
