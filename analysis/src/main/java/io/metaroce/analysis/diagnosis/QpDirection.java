package io.metaroce.analysis.diagnosis;

import io.metaroce.analysis.FrameFacts;
import io.metaroce.analysis.OpcodeKinds;
import io.metaroce.protocol.OpcodeDef;
import java.util.HashMap;
import java.util.Map;

/**
 * What the diagnosis keeps of one QP direction (one source, destination and destination QP): its requests
 * and their resends, the acknowledgements it got back (through its paired reverse direction), markings,
 * source ports and packet sizes. Fixed size apart from a few small maps bounded by the markings and ports a
 * direction uses: memory grows with QPs, not frames.
 */
final class QpDirection {
    /** Evidence frames kept per run of resends. */
    static final int EVIDENCE = 12;
    private static final int RING = 256;

    final String id;
    final boolean v6;
    final long srcHi, srcLo, dstHi, dstLo;
    final int destQp;
    final String src, dst;
    QpDirection peer;

    long packets, firstNs = -1, lastNs, firstFrame, lastFrame;
    boolean rocev1, rocev2, ud;
    /** The transport service of the first opcode that named one ("rc", "uc", "ud", "dc", ...). */
    String service;
    int tver = -1;

    // Requests sent in this direction.
    long requests, resends, firstRequestNs = -1, firstRequestFrame, lastRequestNs = -1, lastRequestFrame;
    int highestPsn, lastRequestPsn, firstPsn;
    boolean anyRequest;
    /** First send time and frame of recent PSNs (by PSN modulo RING), allocated with the first request. */
    private int[] sentPsn, sentLen;
    private long[] sentNs, sentFrame;
    /** Largest request frame (original length) an acknowledgement covered; the run PSN's frame length. */
    long maxAckedLen = -1, runOriginalLen = -1;

    /** The current run of resends of one PSN (go-back bursts starting at the same PSN). */
    int runPsn = -1, runBursts;
    /** Bursts of the run the ACK timer sent (not a NAK or RNR NAK): the retries a NIC counts against retry_cnt. */
    int runTimeouts;
    long runFirstNs, runLastNs, runOriginalNs = -1, runOriginalFrame, runMinGap = Long.MAX_VALUE, runMaxGap;
    final long[] runEvidence = new long[EVIDENCE];
    int runEvidenceCount;
    boolean runAfterNak;
    /** Resend bursts not preceded by a NAK or RNR NAK: the requester's ACK timer fired. */
    long timeoutBursts;
    private boolean lastWasResend;

    // What came back (on the peer direction), as seen from this requester.
    long answers, lastAnswerNs = -1, lastAnswerFrame, firstAnswerNs = -1;
    int ackedPsn;
    boolean anyAck;
    long naks, rnrNaks, cnpsBack, firstNakFrame = -1, firstNakNs, firstRnrFrame = -1, firstRnrNs;
    int rnrTimerCode = -1;
    String lastEvent = "request";
    long lastNakNs = -1;

    // Wire time versus host idle time (requester): time with requests outstanding versus without.
    long busyNs, busySince = -1, messages;

    // Markings, ports, sizes.
    /** Packet kind x marking -> {packets, first frame}. */
    final Map<Long, long[]> markings = new HashMap<>(4);
    final Map<Integer, long[]> sports = new HashMap<>(2);
    /** Counts past the 64 kept markings or ports go nowhere. */
    private final long[] sink = new long[3];
    private long lastMarking;
    private long[] lastMarkingCount, lastSportCount;
    /**
     * The marking before {@link #lastMarking} and its counts: a direction's frames often alternate between two
     * markings (two packet kinds), and each change looked the key up boxed, twice (containsKey, computeIfAbsent), on
     * the analysis thread: about 2 MB of Longs per 1 M frames, on fresh heap pages, whose first touch is expensive
     * on this project's benchmark VM (docs/benchmarks.md, helper speed, sixteenth session). Two fields, not a table:
     * per-direction state stays small.
     */
    private long previousMarking;
    private long[] previousMarkingCount;
    private int lastSport = -1;
    int maxSegmentPayload = -1;
    long segmentFrame;
    long cmPathMtu = -1;

    QpDirection(String id, FrameFacts f) {
        this.id = id;
        this.v6 = f.v6;
        this.srcHi = f.srcHi;
        this.srcLo = f.srcLo;
        this.dstHi = f.dstHi;
        this.dstLo = f.dstLo;
        this.destQp = f.destQp;
        int s = id.indexOf('>'), sl = id.lastIndexOf('/');
        this.src = id.substring(0, s);
        this.dst = id.substring(s + 1, sl);
    }

    static int diff(int a, int b) { return ((a - b) << 8) >> 8; }

    void seen(FrameFacts f) {
        packets++;
        if (firstNs < 0) {
            firstNs = f.timeNs;
            firstFrame = f.number;
        }
        lastNs = f.timeNs;
        lastFrame = f.number;
        if (f.rocev1) rocev1 = true;
        else if (f.sport >= 0) rocev2 = true; // native InfiniBand (LRH + GRH) is neither
        if (service == null) service = f.opcode.service();
        if (f.tver > tver) tver = f.tver;
        if ((f.opcodeKinds() & OpcodeKinds.UD) != 0) ud = true;
        int kind = Kinds.of(f);
        long mk = ((long) kind << 32) | ((long) (f.dscp & 0xFF) << 16) | ((long) ((f.pcp + 1) & 0xF) << 8) | (f.ecn & 0xF);
        // The same marking and port as the previous packet of the direction (nearly always): no map look-up,
        // no boxing on the per-frame path.
        if (mk != lastMarking || lastMarkingCount == null) {
            long[] c = mk == previousMarking && previousMarkingCount != null ? previousMarkingCount
                    : markings.size() < 64 || markings.containsKey(mk)
                    ? markings.computeIfAbsent(mk, k -> new long[] {0, f.number}) : sink;
            previousMarking = lastMarking;
            previousMarkingCount = lastMarkingCount;
            lastMarkingCount = c;
            lastMarking = mk;
        }
        lastMarkingCount[0]++;
        if (f.sport >= 0) {
            if (f.sport != lastSport || lastSportCount == null) {
                lastSportCount = sports.size() < 64 || sports.containsKey(f.sport) ? sports.computeIfAbsent(f.sport, k -> new long[3]) : sink;
                lastSport = f.sport;
            }
            lastSportCount[0]++;
            lastSportCount[1] += f.origLen;
        }
        OpcodeDef op = f.opcode;
        if (op.payload() && op.segment() != null && (op.segment() == OpcodeDef.Segment.FIRST || op.segment() == OpcodeDef.Segment.MIDDLE)
                && !f.truncated && f.payloadLength > maxSegmentPayload) {
            maxSegmentPayload = f.payloadLength;
            segmentFrame = f.number;
        }
    }

    /** A request packet of this direction. */
    void request(FrameFacts f) {
        requests++;
        int psn = f.psn;
        boolean resend = anyRequest && diff(psn, highestPsn) <= 0 && diff(highestPsn, psn) < (1 << 22);
        if (!anyRequest) {
            sentPsn = new int[RING];
            java.util.Arrays.fill(sentPsn, -1);
            sentNs = new long[RING];
            sentFrame = new long[RING];
            sentLen = new int[RING];
            firstRequestNs = f.timeNs;
            firstRequestFrame = f.number;
            firstPsn = psn;
            highestPsn = psn;
            anyRequest = true;
        }
        if (resend) {
            resends++;
            // A go-back burst starts where the PSN steps back (or at the first resend after new sends).
            boolean burstStart = !lastWasResend || diff(psn, lastRequestPsn) <= 0;
            if (burstStart) {
                if (psn == runPsn) {
                    long gap = f.timeNs - runLastNs;
                    runMinGap = Math.min(runMinGap, gap);
                    runMaxGap = Math.max(runMaxGap, gap);
                    runBursts++;
                } else {
                    runPsn = psn;
                    runBursts = 1;
                    runTimeouts = 0;
                    runFirstNs = f.timeNs;
                    runMinGap = Long.MAX_VALUE;
                    runMaxGap = 0;
                    runEvidenceCount = 0;
                    int slot = psn & (RING - 1);
                    runOriginalNs = sentPsn[slot] == psn ? sentNs[slot] : -1;
                    runOriginalFrame = sentPsn[slot] == psn ? sentFrame[slot] : -1;
                    runOriginalLen = sentPsn[slot] == psn ? sentLen[slot] : -1;
                    runAfterNak = lastNakNs >= 0 && lastNakNs > lastRequestNs - 1 && lastEvent.equals("nak");
                    if (runOriginalFrame > 0) addEvidence(runOriginalFrame);
                }
                runLastNs = f.timeNs;
                addEvidence(f.number);
                if (!lastEvent.equals("nak") && !lastEvent.equals("rnr")) {
                    timeoutBursts++;
                    runTimeouts++;
                    lastEvent = "retry";
                }
            }
        } else {
            if (diff(psn, highestPsn) > 0) highestPsn = psn;
            int slot = psn & (RING - 1);
            sentPsn[slot] = psn;
            sentNs[slot] = f.timeNs;
            sentFrame[slot] = f.number;
            sentLen[slot] = (int) Math.min(Integer.MAX_VALUE, f.origLen);
            if (f.opcode.isFirstOrOnly()) messages++;
            lastEvent = "request";
        }
        if (busySince < 0) busySince = f.timeNs;
        lastWasResend = resend;
        lastRequestPsn = psn;
        lastRequestNs = f.timeNs;
        lastRequestFrame = f.number;
    }

    private void addEvidence(long frame) {
        if (runEvidenceCount < EVIDENCE) runEvidence[runEvidenceCount++] = frame;
        else runEvidence[EVIDENCE - 1] = frame; // keep the latest as the last one
    }

    /** An acknowledgement, NAK or response for this requester arrived on the peer direction. */
    void answer(FrameFacts f, boolean ackLike) {
        answers++;
        if (firstAnswerNs < 0) firstAnswerNs = f.timeNs;
        lastAnswerNs = f.timeNs;
        lastAnswerFrame = f.number;
        if (f.hasAeth) {
            int acked = f.aethKind == 0 ? f.psn : f.psn - 1;
            if (f.aethKind == 3 && f.aethCode == 0) {
                naks++;
                lastNakNs = f.timeNs;
                lastEvent = "nak";
                if (firstNakFrame < 0) {
                    firstNakFrame = f.number;
                    firstNakNs = f.timeNs;
                }
            } else if (f.aethKind == 1) {
                rnrNaks++;
                rnrTimerCode = f.aethCode;
                lastEvent = "rnr";
                if (firstRnrFrame < 0) {
                    firstRnrFrame = f.number;
                    firstRnrNs = f.timeNs;
                }
            } else if (f.aethKind == 0 && ackLike) {
                lastEvent = "ack";
            }
            acked &= 0xFFFFFF;
            if (anyRequest && (!anyAck || diff(acked, ackedPsn) > 0)) coveredLengths(anyAck ? ackedPsn : (firstPsn - 1) & 0xFFFFFF, acked);
            if (!anyAck || diff(acked, ackedPsn) > 0) ackedPsn = acked;
            anyAck = true;
        }
        if (busySince >= 0 && anyRequest && diff(highestPsn, ackedPsn) <= 0) {
            busyNs += f.timeNs - busySince;
            busySince = -1;
        }
    }

    /** The largest request frame among the PSNs after from up to to that an acknowledgement now covers. */
    private void coveredLengths(int from, int to) {
        int n = Math.min(RING, diff(to, from));
        for (int i = 1; i <= n; i++) {
            int p = (from + i) & 0xFFFFFF, slot = p & (RING - 1);
            if (sentPsn[slot] == p) maxAckedLen = Math.max(maxAckedLen, sentLen[slot]);
        }
    }

    /** PSNs sent and not acknowledged. */
    long outstanding() {
        if (!anyRequest) return 0;
        if (!anyAck) return Math.max(1, diff(highestPsn, firstPsn) + 1);
        return Math.max(0, diff(highestPsn, ackedPsn));
    }

    /** Whether this direction sent data (requests or responses with payload) with VLAN priority pcp. */
    boolean dataOnPriority(int pcp) {
        for (long mk : markings.keySet()) if ((int) (mk >>> 32) == Kinds.DATA && (int) ((mk >>> 8) & 0xF) - 1 == pcp) return true;
        return false;
    }

    /** Whether this direction carries requests (connected services). */
    boolean requester() { return anyRequest && !ud; }

    /**
     * A RoCEv2 requester whose requests are acknowledged (not UC, not UD): what the failure diagnosis, the hang
     * snapshot and the time split judge. MetaRoCE acknowledges by SACK and has its own path health.
     */
    boolean acknowledged() { return requester() && tver == 0 && !"uc".equals(service); }
}
