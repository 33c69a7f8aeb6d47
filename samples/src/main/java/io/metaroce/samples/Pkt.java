package io.metaroce.samples;

import java.lang.foreign.MemorySegment;

/**
 * One packet in flight: every header field the frame builder needs, plus what the simulator knows about
 * it (its flow, why it was sent, whether the network lost or marked it, which capture frame shows it).
 * Plain mutable fields: packets are created by the endpoints, read by the fabric, the taps and the frame
 * builder, all on the single simulation thread.
 */
final class Pkt implements Cloneable {
    /** Retransmission causes, as the truth file names them (spec §12). */
    static final int CAUSE_NONE = 0, CAUSE_NAK = 1, CAUSE_NACK = 2, CAUSE_SACK = 3, CAUSE_TIMEOUT = 4, CAUSE_RNR = 5;
    static final String[] CAUSE_NAMES = {null, "nak", "nack", "sack", "timeout", "rnr"};

    // ---- addressing
    Host src, dst;
    int sport;
    int dscp;
    /** IPv4 identification, set when the sender hands the packet to its NIC. */
    int ipId;
    /** ECN codepoint at the sender: 2 = ECT(0), 0 = Not-ECT. */
    int ecn = 2;

    // ---- BTH
    int opcode;
    int tver;
    boolean se;
    int pKey = 0xFFFF;
    boolean becn;
    int destQp;
    boolean ackReq;
    int psn;

    // ---- MRTH (tver 1)
    boolean rtx, spray, sackReq, tsValid = true;
    int pathId;
    long msgId, msgOffset, txTs;

    // ---- extension headers (whichever the opcode's chain holds)
    long rethVa, rethRkey, rethLen;
    int syndrome, msn;
    long imm, iethRkey;
    long atomicVa, atomicRkey, swapAdd, compare;
    long origData;
    long qKey;
    int srcQp;
    int cumPsn, basePsn;
    long bitmap;
    long echoTs;
    int ceCount, echoPathId;
    int nackFirst, nackCount, nackReason, nackRnrTimer;
    int grantedPsn;
    long grantedBytes;
    int cnpPathId, cnpCeCount, rateHint;
    long probeSeq;

    // ---- 802.1Qbb PFC frame (flow null): class-enable vector and the quanta of its classes (0: XON)
    int pfcClasses, pfcQuanta;
    /** Waiting in a PFC-paused downlink queue. */
    boolean heldByPfc;

    // ---- payload
    int payloadLen;
    /** Selects the payload bytes; copies of a packet share it so retransmissions carry identical payload. */
    int payloadSeed;
    /** Writes a structured payload (CM MADs) instead of the pattern. */
    PayloadWriter payloadWriter;
    /** Planted: no pad bytes even when the payload is not a multiple of 4. */
    boolean noPad;

    // ---- planted violations
    FrameMutation mutation;
    boolean badIcrc;
    String violation;
    boolean forceDrop;
    boolean forceCe;
    /** Exempt from random path loss (connection management). */
    boolean lossless;

    // ---- simulator knowledge (ground truth)
    Flow flow;
    /** Request or response packet with a sequence PSN (role REQUEST or RESPONSE). */
    boolean data;
    int cause;
    /** A response the responder sends again because the request was re-issued (not a retransmission, §12). */
    boolean repeatedResponse;
    boolean spurious;
    boolean lost;
    /** Where the network marked CE: 0 not marked, 1 on the fabric path (before a mirror), 2 on the downlink. */
    int ceStage;
    int fabricPath;
    /** Capture frame showing this packet (1-based), or -1. */
    long frameNo = -1;
    /** Size on the wire (without FCS), set by the frame builder. */
    int wireLength;
    /** Called when the packet reaches its destination host (instead of the QP lookup), or null. */
    Endpoint deliverTo;

    boolean isRetransmission() { return cause != CAUSE_NONE; }

    /** A fresh copy of the header fields (a new transmission of the same packet), without simulator state. */
    Pkt copy() {
        try {
            Pkt c = (Pkt) super.clone();
            c.frameNo = -1;
            c.lost = false;
            c.ceStage = 0;
            c.spurious = false;
            c.violation = null;
            c.mutation = null;
            c.badIcrc = false;
            c.forceDrop = false;
            c.forceCe = false;
            c.heldByPfc = false;
            c.cause = CAUSE_NONE;
            c.repeatedResponse = false;
            return c;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    /** Writes a structured payload. */
    interface PayloadWriter {
        void write(MemorySegment s, long offset);
    }

    /** Changes built bytes before the ICRC is computed (planted violations). */
    interface FrameMutation {
        void apply(FrameBuilder.Layout l, MemorySegment s);
    }
}
