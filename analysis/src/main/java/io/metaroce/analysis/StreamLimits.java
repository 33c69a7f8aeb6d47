package io.metaroce.analysis;

/**
 * The thresholds of QP stream tracking, one set for the analysis engine and the validator (they had drifted
 * apart: a PSN jump of 100,000 was a gap for one and a new stream for the other).
 *
 * <ul>
 *   <li>{@link #NEW_STREAM_JUMP}: a PSN this far ahead of (or behind) a stream starts a new stream (the QPN was
 *       reused), not a gap. It must stay below the window: a gap wider than the window could not be tracked, so
 *       calling it a gap would only produce unjudgeable state. 2^16 PSNs is 256 MiB in flight at a 4 KiB PMTU,
 *       beyond any RNIC's send window.</li>
 *   <li>{@link #MAX_WINDOW}: PSNs of per-PSN state kept for a stream, twice the jump so that a full-size gap
 *       and its recovery fit.</li>
 *   <li>A CM start PSN is taken as the stream's origin when the first captured PSN lies within
 *       {@link #NEW_STREAM_JUMP} after it (the PSNs between were sent before the capture began); further away,
 *       the capture shows another stream.</li>
 *   <li>{@link #PAIRING_SLACK}: an acknowledgement names at most the next PSN the responder expects (highest
 *       sent + 1) at a tap that saw every request; at a mirror or a lossy capture the last requests may be
 *       missing, so a reply up to this many PSNs past the highest seen still pairs with the flow.</li>
 * </ul>
 */
public final class StreamLimits {
    public static final long NEW_STREAM_JUMP = 1 << 16;
    public static final int MAX_WINDOW = 1 << 17;
    public static final int PAIRING_SLACK = 64;
    /** How far below a stream's origin a reply's PSN may lie and still pair (acknowledgements of earlier PSNs). */
    public static final int PAIRING_BEHIND = 1024;

    private StreamLimits() {}

    /**
     * The longest gap between two identical frames of a flow for the second to be a capture duplicate rather
     * than a resend: no host can resend faster than one round trip (the flow's smallest measured RTT, else the
     * configured minimum), capped by the configured duplicate window.
     *
     * @param measuredRtt the flow's smallest measured RTT in ns, or a negative value when none
     */
    public static long duplicateThreshold(AnalysisSettings s, long measuredRtt) {
        long rtt = measuredRtt >= 0 ? measuredRtt : s.minRttNs();
        return Math.min(s.duplicateWindowNs(), Math.max(rtt, s.minRttNs()));
    }
}
