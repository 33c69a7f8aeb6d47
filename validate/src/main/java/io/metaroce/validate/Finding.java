package io.metaroce.validate;

import io.metaroce.protocol.Severity;
import java.util.Arrays;

/**
 * One conformance finding: the rule it breaks, its severity (after the tap and the user's overrides), a
 * message, the QP flow, and the frames involved; {@link #frame()} (the first of {@link #frames()}) is where
 * the violation shows. Mutable while the capture is being read (a pending verdict may be downgraded once the
 * capture's drop counters are known, repeated offload notes are folded into one finding); read-only after.
 */
public final class Finding implements Comparable<Finding> {
    private final String rule;
    Severity severity;
    String message;
    private final String flow;
    private long[] frames;
    private int frameCount;
    private final long timeNs;
    /** Set when the verdict depends on the capture having no drops (principle a): downgraded if it has. */
    boolean dropSensitive;
    /** Severity when the capture reports drops (default: a note). */
    Severity ifDrops = Severity.NOTE;
    /** Frames folded into this finding beyond those listed. */
    long folded;
    /** The bytes of {@link #frame()} the rule concerns, or null. */
    private Anchor anchor;

    Finding(String rule, Severity severity, String flow, long frame, long timeNs, String message) {
        this.rule = rule;
        this.severity = severity;
        this.flow = flow;
        this.frames = new long[] {frame};
        this.frameCount = 1;
        this.timeNs = timeNs;
        this.message = message;
    }

    /** Adds a related frame (after the one where the violation shows). */
    Finding also(long frame) {
        if (frame <= 0) return this;
        for (int i = 0; i < frameCount; i++) if (frames[i] == frame) return this;
        if (frameCount == frames.length) frames = Arrays.copyOf(frames, frameCount * 2);
        frames[frameCount++] = frame;
        return this;
    }

    /** Sets where in its frame the finding points (kept if already set: the rule's own anchor wins). */
    Finding at(Anchor a) {
        if (anchor == null) anchor = a;
        return this;
    }

    /** Where in {@link #frame()} the violation shows (header, field, bytes), or null when it concerns the frame as a whole. */
    public Anchor anchor() { return anchor; }

    public String rule() { return rule; }
    public Severity severity() { return severity; }
    public String message() { return message; }
    /** The QP flow id ({@code 10.0.0.1>10.0.0.2/0x000201}), or null for a frame that belongs to none. */
    public String flow() { return flow; }
    /** The frame where the violation shows. */
    public long frame() { return frames[0]; }
    /** Every frame involved, the first being where the violation shows. */
    public long[] frames() { return Arrays.copyOf(frames, frameCount); }
    public long timeNs() { return timeNs; }

    @Override
    public int compareTo(Finding o) {
        int c = Long.compare(frame(), o.frame());
        return c != 0 ? c : rule.compareTo(o.rule);
    }

    @Override
    public String toString() {
        return rule + " " + severity.label() + " frame " + frame() + (flow != null ? " " + flow : "") + ": " + message;
    }
}
