package io.metaroce.analysis;

import java.util.ArrayDeque;

/**
 * Acknowledgements of PSNs the capture never showed (capture loss, or PSNs a mirror does not see). Capture
 * points that merge two directions can write a request a little after the acknowledgement that covers it, so
 * each finding is held for {@link AnalysisEngine#CAPTURE_REORDER_NS} and shrinks, or is withdrawn, as the PSNs
 * appear. Also counts the unseen PSNs of the frame being judged. Not thread-safe.
 */
final class UnseenAcks {
    /** Findings held at most at once (a flood of them is released early rather than kept). */
    private static final int MAX_HELD = 4096;

    private final VerdictSink sink;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    /** Unseen PSNs the current frame acknowledged so far, and the first of them. */
    int inFrame;
    long first;

    /** An acknowledgement that covered PSNs not captured yet, and how many of them are still missing. */
    private static final class Held {
        final long frame, time;
        int left;
        final PendingEvent event;

        Held(long frame, long time, int left, PendingEvent event) {
            this.frame = frame;
            this.time = time;
            this.left = left;
            this.event = event;
        }
    }

    UnseenAcks(VerdictSink sink) { this.sink = sink; }

    /** The current frame acknowledged unseen PSN u. */
    void note(long u) {
        if (inFrame++ == 0) first = u;
    }

    /** Records the unseen PSNs the current frame acknowledged (noted since the last report) as one finding. */
    void report(Flow fl, FrameFacts f) {
        boolean capture = fl.view != View.MIRROR || fl.mirrorSeesAllPaths();
        PendingEvent e = sink.ackOfUnseen(fl, f, first, inFrame, capture);
        if (held.size() >= MAX_HELD) release(Long.MAX_VALUE);
        held.add(new Held(f.number, f.timeNs, inFrame, e));
        inFrame = 0;
    }

    /** A PSN that the acknowledgement in ackFrame covered unseen appeared. */
    void appeared(long ackFrame) {
        for (var it = held.descendingIterator(); it.hasNext(); ) {
            Held a = it.next();
            if (a.frame != ackFrame) continue;
            // Every PSN that acknowledgement seemed to cover unseen appeared: withdraw the finding.
            if (--a.left == 0) sink.ackOfUnseenWithdrawn(ackFrame, a.event);
            else sink.ackOfUnseenShrunk(a.event, a.left);
            break;
        }
    }

    /**
     * Lets the findings go whose PSNs had the reordering tolerance to appear by time t. Called for every frame:
     * small enough for C1 to inline when nothing is held (nearly always).
     */
    void release(long t) {
        if (!held.isEmpty()) releaseDue(t);
    }

    private void releaseDue(long t) {
        Held a;
        while ((a = held.peek()) != null && t - a.time > AnalysisEngine.CAPTURE_REORDER_NS) {
            held.poll();
            if (a.event != null) a.event.ready = true;
        }
    }
}
