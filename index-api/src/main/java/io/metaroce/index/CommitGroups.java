package io.metaroce.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Commits the captures of one indexing run in groups: a commit once the captures added since the last one hold
 * {@code documents} documents, once the oldest of them has waited {@code seconds}, and at {@link #commit()} (the
 * run's end). Each capture is reported (its callback runs) only after the commit that holds it, so a kill at any
 * point leaves an index with every reported capture and no half capture, as with one commit per capture; what a
 * kill loses is at most a group's work, indexed again by the next run. One commit per 10,000-flow capture flushed a
 * segment per capture that the merge policy then rewrote 1.3 times over at 1 M flows; a group of many captures
 * is flushed as the writer's RAM buffer fills, in a few large segments (docs/benchmarks.md, "helper docs, twelfth
 * session").
 *
 * <p>Thread-safe: captures are added on several threads at once; a commit takes every capture whose add returned
 * before it, and groups are reported in the order they were committed.
 */
public final class CommitGroups implements AutoCloseable {
    /** Documents of the captures waiting that make the next capture's end commit. */
    public static final long DEFAULT_DOCUMENTS = 500_000;
    /** Seconds the oldest capture waiting may wait for its commit (its line), at most. */
    public static final double DEFAULT_SECONDS = 30;

    private final FlowIndex index;
    private final long maxDocuments;
    private final long maxNanos;
    /** Held through a commit and its reports, so that groups are reported in commit order. */
    private final Object committing = new Object();
    /** The timer that commits a group whose oldest capture waited long enough while no capture ended. */
    private final Thread timer;
    // Guarded by this.
    private final List<Runnable> waiting = new ArrayList<>();
    private final Map<String, IndexedCapture> uncommitted = new HashMap<>();
    private long documents;
    private long oldestNs;
    private int commits;
    private IOException timerFailure;
    private boolean closed;

    /**
     * @param documents documents waiting that make a commit (1: a commit per capture)
     * @param seconds how long the oldest capture waiting waits at most
     */
    public CommitGroups(FlowIndex index, long documents, double seconds) {
        if (documents < 1 || !(seconds > 0)) throw new IllegalArgumentException("commit groups need at least one document and a time above 0");
        this.index = index;
        this.maxDocuments = documents;
        this.maxNanos = (long) (seconds * 1e9);
        timer = Thread.ofPlatform().daemon().name("metaroce-commit").start(this::commitWhenOld);
    }

    /**
     * Adds a capture ({@link FlowIndex#addUncommitted}); {@code committed} gets its number of documents once a commit
     * holds it, on the thread that commits. An exception from the add leaves the capture out and reports nothing.
     */
    public void add(IndexedCapture capture, Iterable<FlowDocument> documents, LongConsumer committed) throws IOException {
        add(capture, documents, 0, committed);
    }

    /**
     * As {@link #add(IndexedCapture, Iterable, LongConsumer)}, the iteration known to give at least {@code atLeast}
     * documents ({@link FlowIndex#addUncommitted(IndexedCapture, Iterable, long)}).
     */
    public void add(IndexedCapture capture, Iterable<FlowDocument> documents, long atLeast, LongConsumer committed) throws IOException {
        long[] n = {0};
        index.addUncommitted(capture, () -> {
            Iterator<FlowDocument> in = documents.iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() { return in.hasNext(); }

                @Override
                public FlowDocument next() {
                    FlowDocument d = in.next();
                    n[0]++;
                    return d;
                }
            };
        }, atLeast);
        boolean due;
        synchronized (this) {
            if (waiting.isEmpty()) {
                oldestNs = System.nanoTime();
                notifyAll(); // the timer waits for a first capture
            }
            waiting.add(() -> committed.accept(n[0]));
            uncommitted.put(capture.hash(), capture);
            this.documents += n[0];
            due = this.documents >= maxDocuments || System.nanoTime() - oldestNs >= maxNanos;
        }
        if (due) commit();
    }

    /** Commits the captures waiting, then reports them; nothing to do when none waits. */
    public void commit() throws IOException {
        synchronized (committing) {
            List<Runnable> group;
            List<String> hashes;
            synchronized (this) {
                if (timerFailure != null) throw timerFailure;
                if (waiting.isEmpty()) return;
                group = List.copyOf(waiting);
                hashes = List.copyOf(uncommitted.keySet());
                waiting.clear();
                documents = 0;
            }
            index.commit();
            synchronized (this) {
                commits++;
                // Committed: the index's own searches find them from now on.
                for (String h : hashes) uncommitted.remove(h);
            }
            for (Runnable r : group) r.run();
        }
    }

    /**
     * A capture of this content added but not committed yet (searches of the index do not see it), or null: a copy of
     * the same content later in the same run is skipped as one indexed already.
     */
    public synchronized IndexedCapture uncommitted(String hash) { return uncommitted.get(hash); }

    /**
     * Runs {@code then} once the capture of this content is committed: at once when it is not waiting (committed, or
     * not of this run), else after the commit that holds it (a line that names it as indexed waits for it).
     */
    public void whenCommitted(String hash, Runnable then) {
        synchronized (this) {
            if (uncommitted.containsKey(hash)) {
                if (waiting.isEmpty()) {
                    oldestNs = System.nanoTime();
                    notifyAll();
                }
                waiting.add(then);
                return;
            }
        }
        then.run();
    }

    /** Commits made so far. */
    public synchronized int commits() { return commits; }

    private void commitWhenOld() {
        try {
            while (true) {
                long wait;
                synchronized (this) {
                    while (!closed && waiting.isEmpty()) wait();
                    if (closed) return;
                    wait = maxNanos - (System.nanoTime() - oldestNs);
                    if (wait > 0) {
                        wait(wait / 1_000_000 + 1);
                        continue;
                    }
                }
                try {
                    commit();
                } catch (IOException e) {
                    synchronized (this) {
                        timerFailure = e; // thrown by the next add's or the end's commit
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            // closing
        }
    }

    /** Stops the timer (the captures still waiting stay uncommitted and unreported: {@link #commit()} first). */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            timer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
