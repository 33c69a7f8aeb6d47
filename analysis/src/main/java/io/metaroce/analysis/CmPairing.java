package io.metaroce.analysis;

import java.util.HashMap;

/**
 * Pairs CM REQ and REP MADs (spec §4.1) into connections: a REQ is remembered by (its addresses, local
 * communication id) until the REP that answers it. The one implementation of CM pairing, used by the analysis
 * engine and the validator. Not thread-safe; memory bounded ({@link #MAX_PENDING} unanswered requests).
 */
public final class CmPairing {
    /** Unanswered REQs kept at most (a capture that starts mid-setup must not grow without bound). */
    public static final int MAX_PENDING = 65536;

    /**
     * One side's connection parameters.
     *
     * @param qpn its QP number (the other side's flow is addressed to it)
     * @param startPsn the first PSN it sends
     * @param mrcm whether it sent the MetaRoCE connection parameters (then spray .. basePort are set)
     * @param pmtuLog2 log2 of the MetaRoCE PMTU (8..12), else not given
     */
    public record Side(int qpn, int startPsn, boolean mrcm, boolean spray, boolean credit, int pathCount, int pmtuLog2,
                       int basePort) {
        /** The MetaRoCE PMTU in bytes, 0 when not given or out of range. */
        public int pmtu() { return mrcm && pmtuLog2 >= 8 && pmtuLog2 <= 12 ? 1 << pmtuLog2 : 0; }
    }

    /**
     * A connection set up by a REQ/REP pair. Addresses as in {@link FrameFacts} (IPv4 in the low 32 bits).
     *
     * @param requester the REQ's sender (at address a); responder the REP's sender (at address b)
     * @param pathMtu the REQ's IBTA path MTU in bytes (256..4096), 0 when unknown
     */
    public record Connection(boolean v6, long aHi, long aLo, long bHi, long bLo, Side requester, Side responder,
                             int pathMtu) {}

    private record PendingRequest(boolean v6, long srcHi, long srcLo, long dstHi, long dstLo, Side side, int pathMtuCode) {}

    private final HashMap<Long, PendingRequest> requests = new HashMap<>();

    /**
     * Takes a frame's CM facts: remembers a REQ, and for a REP returns the connection it completes (null for a
     * REQ, an unmatched REP, or a frame without CM).
     */
    public Connection accept(FrameFacts f) {
        if (f.cm == FrameFacts.CM_REQ) {
            long key = key(f.srcHi ^ f.srcLo, f.dstHi ^ f.dstLo, f.cmLocalCommId);
            requests.put(key, new PendingRequest(f.v6, f.srcHi, f.srcLo, f.dstHi, f.dstLo, side(f), f.cmPathMtu));
            if (requests.size() > MAX_PENDING) requests.clear();
            return null;
        }
        if (f.cm != FrameFacts.CM_REP) return null;
        PendingRequest r = requests.remove(key(f.dstHi ^ f.dstLo, f.srcHi ^ f.srcLo, f.cmRemoteCommId));
        if (r == null) return null;
        return new Connection(r.v6, r.srcHi, r.srcLo, r.dstHi, r.dstLo, r.side, side(f), ibMtu(r.pathMtuCode));
    }

    private static Side side(FrameFacts f) {
        return new Side(f.cmLocalQpn, f.cmStartPsn, f.hasMrcm, f.mrcmSpray, f.mrcmCredit, f.mrcmPathCount, f.mrcmPmtuLog2,
                f.mrcmBasePort);
    }

    private static long key(long a, long b, long comm) { return (a * 0x9E3779B97F4A7C15L) ^ (b * 31) ^ (comm << 1); }

    /** IBTA path MTU code to bytes (1 = 256 ... 5 = 4096), 0 if unknown. */
    private static int ibMtu(int code) { return code >= 1 && code <= 5 ? 128 << code : 0; }
}
