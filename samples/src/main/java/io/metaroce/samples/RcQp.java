package io.metaroce.samples;

import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Spec;
import java.util.ArrayDeque;

/**
 * One end of an RC QP pair: the requester of its own request stream and the responder to its peer's.
 *
 * <p>RoCEv2 (tver 0) follows spec §9.2: the responder ACKs coalesced (on ack_req) with AETH and MSN; on a
 * gap it sends one NAK PSN-sequence-error carrying the expected PSN and drops later packets until that PSN
 * arrives; the requester goes back to that PSN; without a NAK it goes back to the oldest unacknowledged PSN
 * when its timer expires; a SEND that finds no receive buffer gets an RNR NAK and is resent after the RNR
 * timer; a READ Request reserves one PSN per response packet and a lost response is recovered by a new READ
 * Request at the first missing response PSN for the remaining bytes.
 *
 * <p>MetaRoCE (tver 1) follows §9.3: packets are sprayed round-robin over the usable paths (UDP source port
 * base + path); the receiver places them out of order and sends MR-SACK (cum_psn + 64-bit bitmap) on
 * sack_req, on a detected gap, after a hole fills and at least every 64 packets, and MR-NACK when a gap
 * outlives the reorder timeout; the sender retransmits only what is neither cumulatively nor selectively
 * acknowledged, with rtx = 1 on another path, after a SACK shows a later packet of the same (FIFO) path
 * arrived (cause sack), after an MR-NACK (nack), or when its timer fires (timeout; early when a path is
 * slow, which makes spurious copies). Congestion: RoCEv2 CNPs per CNP interval; MR-SACK ce_count and MR-CNP
 * per (QP, path); the requester cuts its rate DCQCN-style and recovers, which shows in the packet spacing.
 * Credit mode: the responder grants credit-window PSNs ahead of its cum_psn with MR-CREDIT.
 */
final class RcQp implements Endpoint {
    static final int RING = 1 << 16, MASK = RING - 1, PSN_MASK = 0xFFFFFF;
    private static final int ACK_SYNDROME = 0x1F, NAK_PSN_SEQ = 0x60, RNR_NAK = 0x20;
    private static final long DCQCN_PERIOD_NS = 55_000, DCQCN_MIN_CUT_GAP_NS = 4_000;
    private static final double DCQCN_G = 1.0 / 16, DCQCN_MIN_RATE = 1.0, DCQCN_AI_GBPS = 5.0;

    enum Op { SEND, SEND_IMM, WRITE, WRITE_IMM, READ, CMP_SWAP, FETCH_ADD }

    /** A work request. */
    static final class Msg {
        final Op op;
        final int length;
        long va = 0x7F00_0000_0000L, rkey = 0x1234;
        long imm, swapAdd, compare;
        Runnable onComplete, onDelivered;
        int firstPsn, packets, seed;
        long msgId;
        int deliveredPackets;
        // planted deviations
        int middleShrink;
        long rethDelta;
        boolean abandonAfterFirst;
        /** recovery=message-start: the message's packets in PSN order (null otherwise). */
        java.util.List<TxRec> recs;
        int msgIdSkip;
        String violation;
        int violationIndex = -1;

        Msg(Op op, int length) {
            this.op = op;
            this.length = length;
        }

        boolean isReadOrAtomic() { return op == Op.READ || op == Op.CMP_SWAP || op == Op.FETCH_ADD; }
    }

    /** A source of work pulled when the send queue runs dry (null: nothing now). */
    interface MsgSource {
        Msg next(RcQp qp);
    }

    /** One transmitted request PSN (a READ Request covers the span of PSNs its responses use). */
    static final class TxRec {
        int psn, span, index, opcode, payloadLen;
        long msgOffset;
        boolean ackReq, last, delivered, done, queued;
        Msg msg;
        int respGot, lastPath, queuedCause, copies;
        long lastSent, lastSeq, firstSent;
    }

    final Sim sim;
    final Host host;
    final int qpn;
    RcQp peer;
    final boolean meta;
    final int tver, pmtu, pathCount, basePort, startPsn;
    final boolean spray, credit;
    Flow flow;
    boolean ready;
    boolean cmSetup;

    private final int window, ackEvery, creditWindow, rnrTimerCode;
    private final long rto, reorderTimeout, cnpInterval, probeInterval, rnrRefill;
    /** The reaction point: cuts the rate on CNPs (Sim turns it off for the QPs of dcqcn=off:N). */
    boolean dcqcn;
    private final int retryCount;
    /** Timeouts in a row without progress (RoCEv2), against retryCount. */
    private int retries;
    /** When the oldest unacknowledged PSN was first sent (the truth's start of an MTU black hole). */
    long oldestUnackedSentAt() {
        TxRec r = ring[sndUna & MASK];
        return r == null ? -1 : r.firstSent;
    }

    /** The QP gave up (retry count exceeded): it sends nothing more. */
    boolean failed;
    /** The path MTU this requester's CM REQ carries when not its own PMTU (0: its PMTU). */
    int cmPathMtu;
    /** DSCP of what this QP sends (the host's unless a scenario marks one QP differently). */
    int dscp;

    // ---------------- requester
    final ArrayDeque<Msg> work = new ArrayDeque<>();
    MsgSource source;
    private Msg cur;
    private int curIndex;
    private long curOffset;
    int sndNxt, sndUna;
    final TxRec[] ring = new TxRec[RING];
    private long nextMsgId;
    private int ackCounter;
    private int ackedHigh;
    private boolean ackedValid;
    private int rtxPtr = -1, rtxCause;
    private final ArrayDeque<TxRec> rtxQueue = new ArrayDeque<>();
    private long pausedUntil, nextSendAt, timerGen;
    private boolean pumpPending, metaTimerOn;
    private double rate, target, alpha = 1;
    private long lastCut = Long.MIN_VALUE / 2;
    private int dcqcnStage;
    private boolean dcqcnTimerOn;
    private boolean creditReceived;
    private int grantedPsn;
    private int rr;
    private final boolean[] pathBad;
    private final long[] avoidUntil;
    private long sendSeq;
    private final long[] pathDeliveredSeq;
    private long probeSeq;
    private final long[] probeOutstanding;
    private final int[] probeMisses;
    private int lastSackCe = -1;
    private long srtt = 6_000;
    private long lastDataSent = Long.MIN_VALUE / 2;
    private boolean probing;

    // ---------------- responder
    private int ePsn, msn;
    private boolean nakSent;
    private int cum, highest;
    private final boolean[] rcvd = new boolean[RING];
    private final int[] readOrigin = new int[RING];
    private final long[] atomicSaved = new long[RING];
    private int sinceSack;
    private boolean reorderArmed;
    private int lastNackPsn = -1;
    private long lastNackAt;
    private int ceTotal;
    private final int[] ceSince;
    private final long[] lastMrCnp;
    private long lastCnp = Long.MIN_VALUE / 2;
    private int creditGrantedPsn;
    private int recvBuffers;
    final ArrayDeque<Pkt> respQueue = new ArrayDeque<>();
    private final long[] memory = new long[16];

    // ---------------- planted deviations (conformance scenario)
    boolean tolerant;
    long skipPsnAtPacket = -1;
    private long newPackets;
    String skipViolation;
    String rtxWrongFirstViolation;
    private int plantExtraPsn = -1;
    /**
     * recovery=message-start: the packets of the NAK'd PSN's message before it, resent ahead of the go-back-N run
     * (a NIC going back to the message start); recovery=skip:N: the go-back starts N PSNs after the NAK's PSN.
     */
    private final java.util.ArrayDeque<TxRec> earlyResends = new java.util.ArrayDeque<>();
    private final java.util.ArrayDeque<Integer> earlyResendPsns = new java.util.ArrayDeque<>();
    private final boolean recoverFromMessageStart;
    private final int recoverySkip;
    /** recovery=ignore-nak: a NAK sequence error acknowledges what precedes its PSN and starts no go-back. */
    private final boolean ignoreNak;
    String creditOverrunViolation;
    boolean suppressCnp;
    String extraCnpViolation;

    RcQp(Sim sim, Host host, int qpn, boolean meta, int pmtu, boolean spray, int pathCount, int basePort,
         boolean credit, int startPsn) {
        this.sim = sim;
        this.host = host;
        this.qpn = qpn;
        this.meta = meta;
        this.tver = meta ? 1 : 0;
        this.pmtu = pmtu;
        this.spray = meta && spray && pathCount > 1;
        this.pathCount = meta ? (this.spray ? pathCount : 1) : 1;
        this.basePort = basePort;
        this.credit = meta && credit;
        this.startPsn = startPsn & PSN_MASK;
        Params p = sim.params;
        this.window = p.i("window");
        this.ackEvery = Math.max(1, p.i("ack-every"));
        this.creditWindow = Math.max(2, p.i("credit-window"));
        this.rnrTimerCode = p.i("rnr-timer") & 0x1F;
        this.rto = p.us("rto-us");
        this.reorderTimeout = p.us("reorder-timeout-us");
        this.cnpInterval = p.us("cnp-interval-us");
        this.probeInterval = p.us("probe-interval-us");
        this.rnrRefill = p.us("rnr-refill-us");
        this.recvBuffers = p.i("rnr-buffers");
        this.dcqcn = !p.str("dcqcn").equals("false");
        this.retryCount = p.i("retry-count");
        String recovery = p.str("recovery");
        this.recoverFromMessageStart = recovery.equals("message-start");
        this.recoverySkip = recovery.startsWith("skip:") ? Integer.parseInt(recovery.substring(5)) : 0;
        this.ignoreNak = recovery.equals("ignore-nak");
        this.dscp = host.dscp;
        this.rate = this.target = sim.fabric.lineRate;
        this.sndNxt = this.sndUna = this.startPsn;
        this.nextMsgId = sim.rng.nextLong(1L << 32);
        int n = this.pathCount;
        pathBad = new boolean[n];
        avoidUntil = new long[n];
        pathDeliveredSeq = new long[n];
        probeOutstanding = new long[n];
        java.util.Arrays.fill(probeOutstanding, -1);
        probeMisses = new int[n];
        ceSince = new int[n];
        lastMrCnp = new long[n];
        java.util.Arrays.fill(lastMrCnp, Long.MIN_VALUE / 2);
        host.qps.put(qpn, this);
    }

    /** Connects two ends: flows, expected PSNs, credit state. */
    static void pair(RcQp a, RcQp b, String transport) {
        a.peer = b;
        b.peer = a;
        for (RcQp q : new RcQp[] {a, b}) {
            q.flow = q.sim.flow(q.host, q.peer.host, q.peer.qpn, transport, "rc");
            q.flow.srcQp = q.qpn;
            if (q.meta) {
                q.flow.spray = q.spray;
                q.flow.pathCount = q.pathCount;
                q.flow.basePort = q.basePort;
            }
            q.ePsn = q.cum = q.peer.startPsn;
            q.highest = psn(q.peer.startPsn - 1);
            q.creditGrantedPsn = q.peer.startPsn;
            q.grantedPsn = q.startPsn;
        }
        a.flow.peer = b.flow;
        b.flow.peer = a.flow;
    }

    static int psn(int v) { return v & PSN_MASK; }

    /** RC request opcodes (the request stream). */
    static boolean isRequest(int opcode) {
        return opcode <= 0x0C || opcode == 0x13 || opcode == 0x14 || opcode == 0x16 || opcode == 0x17
                || opcode == 0x1C || opcode == 0x1D;
    }

    /** Signed 24-bit distance a - b. */
    static int diff(int a, int b) { return ((a - b) << 8) >> 8; }

    int readSpan(long len) { return (int) Math.max(1, (len + pmtu - 1) / pmtu); }

    /** The QP may send: connection set up. */
    void start() {
        ready = true;
        if (peer.credit) grant();
        if (recvBuffers >= 0 && rnrRefill > 0) sim.after(rnrRefill, this::refill);

        pump();
    }

    void post(Msg m) {
        work.add(m);
        if (ready) pump();
    }

    boolean idle() { return cur == null && work.isEmpty() && sndUna == sndNxt && respQueue.isEmpty(); }

    // ================================================================== sending

    void pump() {
        if (pumpPending) return;
        long t = Math.max(sim.now, Math.max(nextSendAt, pausedUntil));
        // The NIC's port paused on this QP's priority (PFC): nothing leaves until the pause ends.
        if (t == sim.now && sim.pfc != null && sim.pfc.holdsAtNic(host, flow)) t = sim.pfc.wakeAt();
        if (t > sim.now) {
            pumpPending = true;
            sim.at(t, () -> {
                pumpPending = false;
                pump();
            });
            return;
        }
        if (failed) return;
        Pkt p = nextPacket();
        if (p == null) return;
        if (meta) p.txTs = host.clock(sim.now);
        if (isRequest(p.opcode)) {
            lastDataSent = sim.now;
            if (!probing && spray && probeInterval > 0) {
                probing = true;
                sim.after(probeInterval / 2, this::probeTick);
            }
        }
        sim.send(p);
        nextSendAt = sim.now + sim.serializationNs(p.wireLength, rate);
        pumpPending = true;
        sim.at(nextSendAt, () -> {
            pumpPending = false;
            pump();
        });
    }

    private Pkt nextPacket() {
        if (!respQueue.isEmpty()) return respQueue.poll();
        if (!ready || sim.now < pausedUntil) return null;
        Pkt r = meta ? nextMetaRetransmission() : nextGoBackN();
        if (r != null) return r;
        return nextNew();
    }

    private Pkt nextNew() {
        if (cur == null) {
            if (diff(sndNxt, sndUna) >= window) return null;
            Msg m = work.poll();
            if (m == null && source != null) m = source.next(this);
            if (m == null) return null;
            startMessage(m);
        }
        if (diff(sndNxt, sndUna) >= window) return null;
        String violation = null;
        if (credit && (!creditReceived || diff(grantedPsn, sndNxt) <= 0)) {
            if (creditOverrunViolation == null || !creditReceived) return null;
            violation = creditOverrunViolation;
            creditOverrunViolation = null;
        }
        Msg m = cur;
        newPackets++;
        if (newPackets == skipPsnAtPacket) {
            sndNxt = psn(sndNxt + 2);
            violation = skipViolation;
        }
        TxRec rec = new TxRec();
        rec.psn = sndNxt;
        rec.msg = m;
        rec.index = curIndex;
        switch (m.op) {
            case READ -> {
                rec.span = readSpan(m.length);
                rec.opcode = 0x0C;
                rec.last = true;
            }
            case CMP_SWAP, FETCH_ADD -> {
                rec.span = 1;
                rec.opcode = m.op == Op.CMP_SWAP ? 0x13 : 0x14;
                rec.last = true;
            }
            default -> {
                rec.span = 1;
                int n = m.packets;
                int i = curIndex;
                int payload = i == n - 1 ? (int) (m.length - curOffset) : pmtu;
                if (i == 1 && n >= 3 && m.middleShrink > 0) payload = pmtu - m.middleShrink;
                rec.payloadLen = payload;
                rec.last = i == n - 1;
                boolean send = m.op == Op.SEND || m.op == Op.SEND_IMM;
                boolean imm = m.op == Op.SEND_IMM || m.op == Op.WRITE_IMM;
                if (n == 1) rec.opcode = send ? (imm ? 0x05 : 0x04) : (imm ? 0x0B : 0x0A);
                else if (i == 0) rec.opcode = send ? 0x00 : 0x06;
                else if (i < n - 1) rec.opcode = send ? 0x01 : 0x07;
                else rec.opcode = send ? (imm ? 0x03 : 0x02) : (imm ? 0x09 : 0x08);
            }
        }
        rec.msgOffset = curOffset;
        curOffset += rec.payloadLen;
        rec.ackReq = rec.last || (++ackCounter % ackEvery) == 0;
        for (int j = 0; j < rec.span; j++) ring[(rec.psn + j) & MASK] = rec;
        // The message's packets outlive their acknowledgement for a NIC that resends from the message start.
        if (recoverFromMessageStart) {
            if (m.recs == null) m.recs = new java.util.ArrayList<>();
            m.recs.add(rec);
        }
        sndNxt = psn(rec.psn + rec.span);
        curIndex++;
        if (curIndex >= m.packets || (m.abandonAfterFirst && curIndex == 1)) cur = null;
        Pkt p = transmit(rec, Pkt.CAUSE_NONE, rec.psn);
        if (violation != null) p.violation = violation;
        else if (m.violation != null && rec.index == m.violationIndex) p.violation = m.violation;
        armTimer();
        return p;
    }

    private void startMessage(Msg m) {
        m.firstPsn = sndNxt;
        m.packets = m.isReadOrAtomic() ? 1 : Math.max(1, (m.length + pmtu - 1) / pmtu);
        m.msgId = (nextMsgId + m.msgIdSkip) & 0xFFFF_FFFFL;
        nextMsgId = m.msgId + 1;
        m.seed = sim.rng.nextInt();
        flow.messages++;
        cur = m;
        curIndex = 0;
        curOffset = 0;
    }

    /** Builds one copy of a request PSN (psn differs from rec.psn only for a READ re-issued mid-range). */
    private Pkt transmit(TxRec rec, int cause, int psn) {
        Msg m = rec.msg;
        Pkt p = base();
        p.opcode = rec.opcode;
        p.psn = psn;
        p.ackReq = rec.ackReq;
        p.se = rec.last && (m.op == Op.SEND || m.op == Op.SEND_IMM);
        p.payloadLen = rec.payloadLen;
        p.payloadSeed = m.seed + rec.index * 7919;
        p.cause = cause;
        switch (m.op) {
            case READ -> {
                long k = (long) diff(psn, rec.psn) * pmtu;
                p.rethVa = m.va + k;
                p.rethRkey = m.rkey;
                p.rethLen = Math.max(0, m.length - k);
            }
            case CMP_SWAP, FETCH_ADD -> {
                p.atomicVa = m.va;
                p.atomicRkey = m.rkey;
                p.swapAdd = m.swapAdd;
                p.compare = m.compare;
            }
            default -> {
                p.rethVa = m.va;
                p.rethRkey = m.rkey;
                p.rethLen = m.length + m.rethDelta;
                p.imm = m.imm;
            }
        }
        if (meta) {
            p.msgId = m.msgId;
            p.msgOffset = rec.msgOffset;
            p.rtx = cause != Pkt.CAUSE_NONE;
            p.spray = spray;
            p.sackReq = rec.ackReq;
            p.pathId = choosePath(rec.copies > 0 ? rec.lastPath : -1);
            p.sport = basePort + p.pathId;
        }
        if (rec.copies == 0) rec.firstSent = sim.now;
        rec.copies++;
        rec.lastSent = sim.now;
        rec.lastPath = p.pathId;
        rec.lastSeq = ++sendSeq;
        // A READ or atomic resent because its response is missing is needed even though the responder has it.
        if (cause != Pkt.CAUSE_NONE && !m.isReadOrAtomic() && peer.hasReceived(psn)) sim.spurious(p);
        return p;
    }

    Pkt base() {
        Pkt p = new Pkt();
        p.src = host;
        p.dst = peer.host;
        p.destQp = peer.qpn;
        p.tver = tver;
        p.dscp = dscp;
        p.flow = flow;
        p.sport = basePort;
        return p;
    }

    /** A MetaRoCE control packet (§7): flags 0, ts_valid, path as given. */
    private Pkt control(int opcode, int path) {
        Pkt p = base();
        p.opcode = opcode;
        p.pathId = path;
        p.sport = basePort + path;
        p.txTs = host.clock(sim.now);
        return p;
    }

    private int controlPath(int hint) {
        return spray && hint >= 0 && hint < pathCount ? hint : 0;
    }

    private int choosePath(int avoid) {
        if (!spray) return 0;
        for (int tries = 0; tries < pathCount; tries++) {
            int k = rr++ % pathCount;
            if (k == avoid || pathBad[k] || sim.now < avoidUntil[k]) continue;
            return k;
        }
        for (int tries = 0; tries < pathCount; tries++) {
            int k = rr++ % pathCount;
            if (k != avoid && !pathBad[k]) return k;
        }
        int k = rr++ % pathCount;
        return k == avoid ? (k + 1) % pathCount : k;
    }

    /** Whether this end, as responder, already holds request PSN psn (omniscient: for the spurious label). */
    boolean hasReceived(int psn) {
        if (!meta) return diff(psn, ePsn) < 0;
        return diff(psn, cum) < 0 || rcvd[psn & MASK];
    }

    // ---------------- RoCEv2 go-back-N

    private Pkt nextGoBackN() {
        if (!earlyResends.isEmpty()) return transmit(earlyResends.poll(), Pkt.CAUSE_NAK, earlyResendPsns.poll());
        if (plantExtraPsn != -1) {
            TxRec rec = ring[plantExtraPsn & MASK];
            int at = plantExtraPsn;
            plantExtraPsn = -1;
            if (rec != null && !rec.done && rec.psn == at) {
                Pkt p = transmit(rec, rtxCause, at);
                p.violation = rtxWrongFirstViolation;
                rtxWrongFirstViolation = null;
                return p;
            }
        }
        while (rtxPtr != -1) {
            if (diff(rtxPtr, sndUna) < 0) rtxPtr = sndUna;
            if (diff(rtxPtr, sndNxt) >= 0) {
                rtxPtr = -1;
                return null;
            }
            TxRec rec = ring[rtxPtr & MASK];
            if (rec == null || completed(rec)) {
                rtxPtr = rec == null ? psn(rtxPtr + 1) : psn(rec.psn + rec.span);
                continue;
            }
            int at = rtxPtr;
            rtxPtr = psn(rec.psn + rec.span);
            return transmit(rec, rtxCause, at);
        }
        return null;
    }

    /** Done, or (RoCEv2) covered by an ACK already received while an earlier READ still waits. */
    private boolean completed(TxRec rec) {
        return rec.done || (!meta && !rec.msg.isReadOrAtomic() && ackedValid && diff(ackedHigh, rec.psn) >= 0);
    }

    private void goBack(int from, int cause) {
        rtxPtr = from;
        rtxCause = cause;
    }

    // ---------------- MetaRoCE selective repeat

    private Pkt nextMetaRetransmission() {
        while (!rtxQueue.isEmpty()) {
            TxRec rec = rtxQueue.poll();
            rec.queued = false;
            if (rec.done || (rec.delivered && !rec.msg.isReadOrAtomic())) continue;
            int at = rec.msg.op == Op.READ ? psn(rec.psn + rec.respGot) : rec.psn;
            return transmit(rec, rec.queuedCause, at);
        }
        return null;
    }

    private void queueRetransmission(TxRec rec, int cause) {
        if (rec.queued || rec.done) return;
        rec.queued = true;
        rec.queuedCause = cause;
        rtxQueue.add(rec);
    }

    // ---------------- timers

    private void armTimer() {
        if (meta) {
            if (!metaTimerOn) {
                metaTimerOn = true;
                sim.after(Math.max(1000, rto / 4), this::metaTimer);
            }
        } else {
            restartTimer();
        }
    }

    private void restartTimer() {
        long gen = ++timerGen;
        if (sndUna == sndNxt) return;
        sim.after(rto, () -> gbnTimeout(gen));
    }

    private void gbnTimeout(long gen) {
        if (gen != timerGen || sndUna == sndNxt || !sim.running()) return;
        if (sim.pfc != null && sim.pfc.holdsAtNic(host, flow)) {
            // A paused port sends nothing: a go-back-N now would only queue behind the pause, so the timer waits
            // (and counts no retry) until the port may send again.
            restartTimer();
            return;
        }
        if (retryCount >= 0 && ++retries > retryCount) {
            // IBV_WC_RETRY_EXC_ERR: the QP goes to the error state and sends nothing more.
            failed = true;
            sim.qpFailed(this, retries - 1);
            return;
        }
        flow.timeouts++;
        goBack(sndUna, Pkt.CAUSE_TIMEOUT);
        restartTimer();
        pump();
    }

    private void metaTimer() {
        metaTimerOn = false;
        if (sndUna == sndNxt || !sim.running()) return;
        boolean fired = false;
        int p = sndUna;
        while (p != sndNxt) {
            TxRec rec = ring[p & MASK];
            if (rec == null) {
                p = psn(p + 1);
                continue;
            }
            boolean pending = !rec.done && (!rec.delivered || rec.msg.isReadOrAtomic());
            if (pending && !rec.queued && sim.now - rec.lastSent >= rto) {
                queueRetransmission(rec, Pkt.CAUSE_TIMEOUT);
                fired = true;
            }
            p = psn(rec.psn + rec.span);
        }
        if (fired) {
            flow.timeouts++;
            pump();
        }
        armTimer();
    }

    // ================================================================== receiving

    @Override
    public void receive(Pkt p) {
        if (p.badIcrc) return; // the NIC drops a packet whose ICRC does not match
        switch (p.opcode) {
            case 0x81 -> congestion();
            case 0x11 -> { if (p.tver == tver) onAck(p); }
            case 0x0D, 0x0E, 0x0F, 0x10 -> { notify(p); onReadResponse(p); }
            case 0x12 -> { notify(p); onAtomicAck(p); }
            case 0xE0 -> onSack(p);
            case 0xE1 -> onNack(p);
            case 0xE2 -> onCredit(p);
            case 0xE3 -> onMrCnp(p);
            case 0xE4 -> onProbe(p);
            case 0xE5 -> onProbeReply(p);
            default -> {
                if (p.tver != tver) return; // a receiver drops packets of another transport version
                if (meta) respondMeta(p);
                else respondGoBackN(p);
            }
        }
    }

    /** Notification point: a CE-marked data packet arrived. */
    private void notify(Pkt p) {
        if (p.ceStage == 0) return;
        if (meta) {
            int path = p.pathId < ceSince.length ? p.pathId : 0;
            ceSince[path]++;
            if (!suppressCnp && sim.now - lastMrCnp[path] >= cnpInterval) {
                Pkt c = control(0xE3, controlPath(path));
                c.cnpPathId = p.pathId;
                c.cnpCeCount = Math.min(0xFFFF, ceSince[path]);
                c.rateHint = 64;
                ceSince[path] = 0;
                lastMrCnp[path] = sim.now;
                sim.send(c);
            }
        } else if (!suppressCnp && sim.now - lastCnp >= cnpInterval) {
            lastCnp = sim.now;
            sendCnp(null);
            if (extraCnpViolation != null) {
                String v = extraCnpViolation;
                extraCnpViolation = null;
                sim.after(5_000, () -> sendCnp(v));
            }
        }
    }

    private void sendCnp(String violation) {
        Pkt c = base();
        c.opcode = 0x81;
        c.becn = true;
        c.psn = 0;
        c.ecn = 0;
        c.dscp = 48;
        c.violation = violation;
        sim.send(c);
    }

    // ---------------- requester side: acknowledgements

    private void onAck(Pkt p) {
        int n = p.psn;
        if (diff(n, sndNxt) >= 0) return; // acknowledges nothing we sent: ignore
        int kind = (p.syndrome >>> 5) & 3;
        if (kind == 0) {
            ackThrough(n);
        } else if (kind == 1) {
            ackThrough(psn(n - 1));
            if (sndUna == n) {
                pausedUntil = sim.now + rnrDelay(p.syndrome & 0x1F);
                goBack(n, Pkt.CAUSE_RNR);
            }
        } else if (kind == 3 && (p.syndrome & 0x1F) == 0) {
            if (diff(n, sndUna) < 0) return; // stale
            if (ignoreNak) {
                // Only its acknowledgement counts (progress restarts the timer): the timer's go-back resends n.
                ackThrough(psn(n - 1));
                sim.nakIgnored(p);
                pump();
                return;
            }
            // The packets before n of n's message, taken before the acknowledgement through n - 1 releases them.
            if (recoverFromMessageStart) messageStartResends(n);
            ackThrough(psn(n - 1));
            if (sndUna != n) {
                earlyResends.clear();
                earlyResendPsns.clear();
            }
            if (sndUna == n) {
                goBack(recoverySkip > 0 ? psn(n + recoverySkip) : n, Pkt.CAUSE_NAK);
                if (rtxWrongFirstViolation != null && ring[psn(n + 1) & MASK] != null) plantExtraPsn = psn(n + 1);
            }
        }
        pump();
    }

    private void messageStartResends(int n) {
        earlyResends.clear();
        earlyResendPsns.clear();
        TxRec at = ring[n & MASK];
        if (at == null || at.msg.isReadOrAtomic() || at.msg.recs == null) return;
        for (TxRec rec : at.msg.recs) {
            if (diff(rec.psn, n) >= 0) break;
            earlyResends.add(rec);
            earlyResendPsns.add(rec.psn);
        }
    }

    static long rnrDelay(int code) {
        var v = Spec.ENUM_RNR_TIMER.of(code);
        return v == null ? 10_000 : v.number();
    }

    /** Everything up to and including n arrived (READs and atomics complete only with their responses). */
    private void ackThrough(int n) {
        if (!ackedValid || diff(n, ackedHigh) > 0) {
            ackedHigh = n;
            ackedValid = true;
        }
        if (meta) {
            int p = sndUna;
            while (p != sndNxt && diff(n, p) >= 0) {
                TxRec rec = ring[p & MASK];
                if (rec == null) {
                    p = psn(p + 1);
                    continue;
                }
                delivered(rec);
                p = psn(rec.psn + rec.span);
            }
        }
        advance();
    }

    private void delivered(TxRec rec) {
        if (rec.delivered) return;
        rec.delivered = true;
        if (!rec.msg.isReadOrAtomic()) rec.done = true;
        if (rec.lastPath < pathDeliveredSeq.length && rec.lastSeq > pathDeliveredSeq[rec.lastPath]) {
            pathDeliveredSeq[rec.lastPath] = rec.lastSeq;
        }
    }

    /** Moves sndUna over completed PSNs; completes messages; restarts the timer on progress. */
    private void advance() {
        int before = sndUna;
        while (sndUna != sndNxt) {
            TxRec rec = ring[sndUna & MASK];
            if (rec == null) {
                sndUna = psn(sndUna + 1);
                continue;
            }
            if (!rec.done && !meta && !rec.msg.isReadOrAtomic() && ackedValid && diff(ackedHigh, rec.psn) >= 0) {
                rec.done = true;
            }
            if (!rec.done) {
                if (rec.msg.op == Op.READ && rec.respGot > 0) sndUna = psn(rec.psn + rec.respGot);
                break;
            }
            for (int j = 0; j < rec.span; j++) {
                if (ring[(rec.psn + j) & MASK] == rec) ring[(rec.psn + j) & MASK] = null;
            }
            sndUna = psn(rec.psn + rec.span);
            if (rec.last && rec.msg.onComplete != null) rec.msg.onComplete.run();
        }
        if (sndUna != before && !meta) {
            retries = 0;
            restartTimer();
        }
    }

    private void onReadResponse(Pkt p) {
        int q = p.psn;
        TxRec rec = ring[q & MASK];
        if (rec == null || rec.msg.op != Op.READ || rec.done) return;
        if (q != psn(rec.psn + rec.respGot)) return; // out of order: wait for the timer
        if (!meta) ackThrough(psn(rec.psn - 1));
        else delivered(rec);
        rec.respGot++;
        if (rec.respGot == rec.span) rec.done = true;
        advance();
        if (meta) armTimer();
        pump();
    }

    private void onAtomicAck(Pkt p) {
        TxRec rec = ring[p.psn & MASK];
        if (rec == null || rec.done || !rec.msg.isReadOrAtomic() || rec.msg.op == Op.READ) return;
        if (!meta) ackThrough(psn(rec.psn - 1));
        else delivered(rec);
        rec.done = true;
        advance();
        pump();
    }

    private void onSack(Pkt p) {
        if (p.tver != 1 || !meta) return;
        int c = p.cumPsn;
        if (diff(c, sndNxt) > 0) return; // covers PSNs never sent: ignore
        if (p.echoTs != 0) {
            long sample = (host.clock(sim.now) - p.echoTs) & 0xFFFF_FFFFL;
            if (sample < 10_000_000) srtt = (7 * srtt + sample) / 8;
        }
        if (diff(c, sndUna) > 0) ackThrough(psn(c - 1));
        for (int i = 0; i < 64; i++) {
            if (((p.bitmap >>> i) & 1) == 0) continue;
            int q = psn(p.basePsn + i);
            if (diff(q, sndNxt) >= 0 || diff(q, sndUna) < 0) continue;
            TxRec rec = ring[q & MASK];
            if (rec != null) delivered(rec);
        }
        advance();
        // Loss inference: paths are FIFO, so a packet is lost when a later packet of its path was acknowledged.
        // Only PSNs the SACK could report (up to base_psn + 63) can be judged.
        int reportEnd = psn(p.basePsn + 64);
        if (diff(reportEnd, sndNxt) > 0) reportEnd = sndNxt;
        int q = sndUna;
        while (q != reportEnd && diff(q, reportEnd) < 0) {
            TxRec rec = ring[q & MASK];
            if (rec == null) {
                q = psn(q + 1);
                continue;
            }
            if (!rec.delivered && !rec.queued && rec.lastPath < pathDeliveredSeq.length
                    && pathDeliveredSeq[rec.lastPath] > rec.lastSeq) {
                queueRetransmission(rec, Pkt.CAUSE_SACK);
            }
            q = psn(rec.psn + rec.span);
        }
        int ce = p.ceCount & 0xFFFF;
        if (lastSackCe >= 0 && ce != lastSackCe) congestion();
        lastSackCe = ce;
        pump();
    }

    private void onNack(Pkt p) {
        if (p.tver != 1 || !meta) return;
        if (p.nackReason != 0x00 && p.nackReason != 0x10 && p.nackReason != 0x11) return;
        int cause = p.nackReason == 0x11 ? Pkt.CAUSE_RNR : Pkt.CAUSE_NACK;
        if (p.nackReason == 0x11) pausedUntil = sim.now + rnrDelay(p.nackRnrTimer);
        int count = Math.min(p.nackCount, 4096);
        for (int i = 0; i < count; i++) {
            int q = psn(p.nackFirst + i);
            if (diff(q, sndNxt) >= 0 || diff(q, sndUna) < 0) break;
            TxRec rec = ring[q & MASK];
            if (rec == null || rec.delivered || rec.done) continue;
            if (sim.now - rec.lastSent > Math.max(2_000, srtt / 2)) queueRetransmission(rec, cause);
        }
        pump();
    }

    private void onCredit(Pkt p) {
        if (!credit) return;
        if (!creditReceived || diff(p.grantedPsn, grantedPsn) > 0) grantedPsn = p.grantedPsn;
        creditReceived = true;
        pump();
    }

    private void onMrCnp(Pkt p) {
        congestion();
        if (spray && p.cnpPathId < pathCount && pathCount > 1) avoidUntil[p.cnpPathId] = sim.now + cnpInterval;
    }

    private void onProbe(Pkt p) {
        Pkt r = control(0xE5, 0);
        r.pathId = p.pathId;
        r.sport = basePort + (p.pathId < pathCount ? p.pathId : 0);
        r.probeSeq = p.probeSeq;
        r.echoTs = p.txTs;
        sim.send(r);
    }

    private void onProbeReply(Pkt p) {
        int k = p.pathId;
        if (k >= pathCount || probeOutstanding[k] != p.probeSeq) return;
        probeOutstanding[k] = -1;
        probeMisses[k] = 0;
        pathBad[k] = false;
    }

    private void probeTick() {
        if (!sim.running()) return;
        if (sim.now - lastDataSent > 3 * probeInterval) {
            probing = false; // quiet QP: probes resume with the next data packet
            return;
        }
        for (int k = 0; k < pathCount; k++) {
            if (probeOutstanding[k] != -1 && ++probeMisses[k] >= 3) pathBad[k] = true;
            Pkt p = control(0xE4, k);
            p.probeSeq = probeSeq++ & 0xFFFF_FFFFL;
            probeOutstanding[k] = p.probeSeq;
            sim.send(p);
        }
        sim.after(probeInterval, this::probeTick);
    }

    // ---------------- rate control (DCQCN-like reaction point)

    private void congestion() {
        if (!dcqcn || sim.now - lastCut < DCQCN_MIN_CUT_GAP_NS) return;
        target = rate;
        rate = Math.max(DCQCN_MIN_RATE, rate * (1 - alpha / 2));
        alpha = (1 - DCQCN_G) * alpha + DCQCN_G;
        lastCut = sim.now;
        dcqcnStage = 0;
        if (!dcqcnTimerOn) {
            dcqcnTimerOn = true;
            sim.after(DCQCN_PERIOD_NS, this::dcqcnTick);
        }
    }

    private void dcqcnTick() {
        double line = sim.fabric.lineRate;
        if (sim.now - lastCut >= DCQCN_PERIOD_NS) {
            alpha *= 1 - DCQCN_G;
            if (++dcqcnStage > 5) target = Math.min(line, target + DCQCN_AI_GBPS);
            rate = Math.min(line, (rate + target) / 2);
        }
        if (rate >= line * 0.999) rate = line;
        if (rate >= line || !sim.running()) {
            dcqcnTimerOn = false;
            return;
        }
        sim.after(DCQCN_PERIOD_NS, this::dcqcnTick);
    }

    double rateGbps() { return rate; }

    // ================================================================== responder, RoCEv2

    private void respondGoBackN(Pkt p) {
        OpcodeDef def = FrameBuilder.opcodeDefOrNull(p);
        if (def == null || def.role() != OpcodeDef.Role.REQUEST) return;
        notify(p);
        int d = diff(p.psn, ePsn);
        if (d > 0 && tolerant) {
            ePsn = p.psn;
            d = 0;
        }
        if (d == 0) {
            boolean sendFirst = def.family().equals("send") && def.isFirstOrOnly();
            if (sendFirst && recvBuffers == 0) {
                Pkt n = ackPacket(ePsn, RNR_NAK | rnrTimerCode);
                nakSent = true;
                respond(n);
                return;
            }
            nakSent = false;
            switch (def.family()) {
                case "read" -> {
                    int span = readSpan(p.rethLen);
                    for (int j = 0; j < span; j++) readOrigin[(p.psn + j) & MASK] = p.psn;
                    ePsn = psn(ePsn + span);
                    msn++;
                    readResponses(p, p.psn, p.psn, p.rethLen, false);
                }
                case "atomic" -> {
                    ePsn = psn(ePsn + 1);
                    msn++;
                    atomicSaved[p.psn & MASK] = execute(p);
                    respond(atomicAck(p));
                }
                default -> {
                    if (sendFirst && recvBuffers > 0) recvBuffers--;
                    ePsn = psn(ePsn + 1);
                    if (def.isLastOrOnly()) {
                        msn++;
                        deliveredComplete(p);
                    }
                    if (p.ackReq) respond(ackPacket(p.psn, ACK_SYNDROME));
                }
            }
        } else if (d > 0) {
            if (!nakSent) {
                nakSent = true;
                respond(ackPacket(ePsn, NAK_PSN_SEQ));
            }
        } else {
            if (!def.family().equals("read") && !def.family().equals("atomic")) sim.spurious(p);
            switch (def.family()) {
                case "read" -> readResponses(p, p.psn, readOrigin[p.psn & MASK], p.rethLen, true);
                case "atomic" -> {
                    Pkt a = atomicAck(p);
                    a.origData = atomicSaved[p.psn & MASK];
                    a.repeatedResponse = true;
                    respond(a);
                }
                default -> { if (p.ackReq) respond(ackPacket(psn(ePsn - 1), ACK_SYNDROME)); }
            }
        }
    }

    /** Response-stream packets leave in order: behind READ responses still queued. */
    private void respond(Pkt p) {
        if (respQueue.isEmpty()) sim.send(p);
        else {
            respQueue.add(p);
            pump();
        }
    }

    private Pkt ackPacket(int psn, int syndrome) {
        Pkt a = base();
        a.opcode = 0x11;
        a.psn = psn;
        a.syndrome = syndrome;
        a.msn = msn;
        return a;
    }

    private long execute(Pkt p) {
        int i = (int) ((p.atomicVa >>> 3) & 15);
        long orig = memory[i];
        if (p.opcode == 0x13) {
            if (orig == p.compare) memory[i] = p.swapAdd;
        } else {
            memory[i] = orig + p.swapAdd;
        }
        return orig;
    }

    private Pkt atomicAck(Pkt req) {
        Pkt a = base();
        a.opcode = 0x12;
        a.psn = req.psn;
        a.syndrome = ACK_SYNDROME;
        a.msn = msn;
        a.origData = atomicSaved[req.psn & MASK];
        if (meta) {
            a.msgId = req.msgId;
            a.spray = spray;
            a.rtx = req.rtx;
            a.pathId = 0;
            a.txTs = host.clock(sim.now);
        }
        return a;
    }

    /** READ responses for PSNs from..from+N-1 of a READ whose first PSN was origin (replay: a repeat). */
    private void readResponses(Pkt req, int from, int origin, long len, boolean replay) {
        int n = readSpan(len);
        long baseOffset = (long) diff(from, origin) * pmtu;
        for (int i = 0; i < n; i++) {
            Pkt r = base();
            r.psn = psn(from + i);
            r.opcode = n == 1 ? 0x10 : i == 0 ? 0x0D : i == n - 1 ? 0x0F : 0x0E;
            r.syndrome = ACK_SYNDROME;
            r.msn = msn;
            r.payloadLen = (int) Math.min(pmtu, Math.max(0, len - (long) i * pmtu));
            long offset = baseOffset + (long) i * pmtu;
            r.payloadSeed = (int) (req.msgId * 31 + offset + origin);
            if (meta) {
                r.msgId = req.msgId;
                r.msgOffset = offset;
                r.spray = spray;
                r.rtx = replay;
                r.pathId = 0;
            }
            r.repeatedResponse = replay;
            respQueue.add(r);
        }
        pump();
    }

    private void deliveredComplete(Pkt p) {
        TxRec rec = peer.ring[p.psn & MASK];
        if (rec != null && rec.msg.onDelivered != null) {
            Runnable r = rec.msg.onDelivered;
            rec.msg.onDelivered = null;
            sim.after(0, r);
        }
    }

    private void refill() {
        if (!sim.running()) return;
        if (recvBuffers < 64) recvBuffers++;
        sim.after(rnrRefill, this::refill);
    }

    // ================================================================== responder, MetaRoCE

    private void respondMeta(Pkt p) {
        OpcodeDef def = FrameBuilder.opcodeDefOrNull(p);
        if (def == null || def.role() != OpcodeDef.Role.REQUEST) return;
        if (p.ceStage != 0) ceTotal++;
        notify(p);
        boolean read = def.family().equals("read");
        int span = read ? readSpan(p.rethLen) : 1;
        int d = diff(p.psn, cum);
        boolean dup = d < 0 || rcvd[p.psn & MASK];
        if (dup) {
            if (!read && !def.family().equals("atomic")) sim.spurious(p);
            if (read) readResponses(p, p.psn, readOrigin[p.psn & MASK], p.rethLen, true);
            else if (def.family().equals("atomic")) {
                Pkt a = atomicAck(p);
                a.origData = atomicSaved[p.psn & MASK];
                a.rtx = true;
                a.repeatedResponse = true;
                respond(a);
            } else sendSack(p);
            return;
        }
        if (d >= RING / 2) return;
        boolean holeBefore = diff(highest, cum) >= 0;
        boolean newGap = diff(p.psn, psn(highest + 1)) > 0;
        for (int j = 0; j < span; j++) {
            rcvd[(p.psn + j) & MASK] = true;
            if (read) readOrigin[(p.psn + j) & MASK] = p.psn;
        }
        int last = psn(p.psn + span - 1);
        if (diff(last, highest) > 0) highest = last;
        switch (def.family()) {
            case "read" -> readResponses(p, p.psn, p.psn, p.rethLen, false);
            case "atomic" -> {
                atomicSaved[p.psn & MASK] = execute(p);
                respond(atomicAck(p));
            }
            default -> {
                TxRec rec = peer.ring[p.psn & MASK];
                if (rec != null) {
                    Msg m = rec.msg;
                    if (++m.deliveredPackets >= m.packets) deliveredComplete(p);
                }
            }
        }
        while (rcvd[cum & MASK] && diff(cum, highest) <= 0) {
            rcvd[cum & MASK] = false;
            cum = psn(cum + 1);
        }
        sinceSack++;
        boolean gap = diff(highest, cum) >= 0;
        boolean filled = d == 0 && holeBefore;
        if (p.sackReq || newGap || filled || sinceSack >= 64) sendSack(p);
        if (gap) armReorder();
        if (peer.credit && diff(creditGrantedPsn, cum) < creditWindow / 2) grant();
    }

    private void sendSack(Pkt trigger) {
        Pkt s = control(0xE0, controlPath(trigger.pathId));
        s.psn = trigger.psn;
        s.cumPsn = cum;
        s.basePsn = psn(cum + 1);
        long bits = 0;
        for (int i = 0; i < 64; i++) {
            int q = psn(cum + 1 + i);
            if (diff(q, highest) > 0) break;
            if (rcvd[q & MASK]) bits |= 1L << i;
        }
        s.bitmap = bits;
        s.echoTs = trigger.tsValid ? trigger.txTs : 0;
        s.ceCount = ceTotal & 0xFFFF;
        s.echoPathId = trigger.pathId;
        sinceSack = 0;
        sim.send(s);
    }

    private void armReorder() {
        if (reorderArmed || reorderTimeout <= 0) return;
        reorderArmed = true;
        int gapAt = cum;
        sim.after(reorderTimeout, () -> reorderFired(gapAt));
    }

    private void reorderFired(int gapAt) {
        reorderArmed = false;
        if (diff(highest, cum) < 0 || !sim.running()) return;
        if (cum == gapAt && (lastNackPsn != cum || sim.now - lastNackAt >= 4 * reorderTimeout)) {
            int count = 0;
            int q = cum;
            while (!rcvd[q & MASK] && diff(q, highest) < 0 && count < 0xFFFF) {
                count++;
                q = psn(q + 1);
            }
            Pkt n = control(0xE1, 0);
            n.psn = cum;
            n.nackFirst = cum;
            n.nackCount = Math.max(1, count);
            n.nackReason = 0x00;
            lastNackPsn = cum;
            lastNackAt = sim.now;
            sim.send(n);
        }
        armReorder();
    }

    private void grant() {
        creditGrantedPsn = psn(cum + creditWindow);
        Pkt c = control(0xE2, 0);
        c.grantedPsn = creditGrantedPsn;
        c.grantedBytes = ((long) diff(creditGrantedPsn, peer.startPsn) & 0xFFFFFFL) * pmtu;
        sim.send(c);
    }

    // ================================================================== planted injections

    /** Sends a packet this end built by hand (planted violations). */
    void inject(Pkt p) { sim.send(p); }

    Pkt newControl(int opcode, int path) { return control(opcode, path); }

    Pkt newAck(int psn, int syndrome) { return ackPacket(psn, syndrome); }

    int expectedPsn() { return meta ? cum : ePsn; }

    int msn() { return msn; }
}
