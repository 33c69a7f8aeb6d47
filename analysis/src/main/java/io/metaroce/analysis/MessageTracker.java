package io.metaroce.analysis;

import io.metaroce.protocol.OpcodeDef;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;

/**
 * The messages of the request streams, one {@link RdmaMessage} each, handed to a listener as they are decided
 * ({@code analyze --messages}, the GUI's Messages window). Fed by {@link AnalysisEngine} with every judged frame
 * (only when a listener asked for messages: otherwise the engine holds no tracker and pays one null check).
 *
 * <p>A message opens with its first packet (RoCEv2: First/Only; MetaRoCE: the first packet of its msg_id) and
 * is decided when the tap shows its end: the acknowledgement covering its last PSN (AETH ACK, NAK and RNR NAK
 * cover the PSNs before theirs; an MR-SACK those before its cumulative PSN; a READ its last response, an atomic
 * its acknowledgement). A message whose last packet passed but whose acknowledgement the tap does not show is
 * decided {@link #HOLD_NS} of capture time later, or when its flow has more than {@link #MAX_OPEN} open; what is
 * open at the end of the capture is decided then. Memory is per live flow (its open messages), never per
 * message decided. Not thread-safe (the analysis thread).
 */
final class MessageTracker {
    /** Open messages kept per flow; beyond it the oldest is decided as it stands (said in docs/robustness.md). */
    static final int MAX_OPEN = 4096;
    /** How long a message whose last packet passed waits for an acknowledgement the tap may never show. */
    static final long HOLD_NS = AnalysisEngine.MAX_HOLD_NS;
    /** Open messages searched for a packet's msg_id or PSN (newest first). */
    private static final int SEARCH = 256;

    private final RdmaMessage.Listener listener;
    /** The capture's first frame (times are printed from it). */
    private long originNs = -1;

    MessageTracker(RdmaMessage.Listener listener) { this.listener = listener; }

    /** One message being assembled. */
    static final class Open {
        long frame, firstNs, lastNs, firstU, lastU = Long.MIN_VALUE, highU, respHighU = Long.MIN_VALUE, bytes,
                dma = -1, imm = -1, rkey = -1, msgId = -1, completionNs = -1;
        int packets, unique, retx;
        String kind;
        /** Its First/Only packet was seen; a READ or atomic waiting for its response; a READ's last response seen. */
        boolean startSeen, answered, answerDone;
    }

    /** Ranges of skipped PSNs kept per flow (the oldest forgotten beyond it). */
    static final int MAX_GAPS = 64;

    /**
     * A flow's open messages, oldest first, the highest request PSN seen (unwrapped), and the PSNs it skipped
     * (RoCEv2): a resend of one of those is the first copy this tap shows, whose bytes count.
     */
    static final class Stream {
        final ArrayDeque<Open> open = new ArrayDeque<>();
        long maxU;
        boolean started;
        final long[] gapFrom = new long[MAX_GAPS], gapTo = new long[MAX_GAPS];
        int gaps;

        void addGap(long from, long to) {
            if (gaps == MAX_GAPS) {
                System.arraycopy(gapFrom, 1, gapFrom, 0, MAX_GAPS - 1);
                System.arraycopy(gapTo, 1, gapTo, 0, MAX_GAPS - 1);
                gaps--;
            }
            gapFrom[gaps] = from;
            gapTo[gaps++] = to;
        }

        /** Whether u was skipped (and is not any more). */
        boolean fillGap(long u) {
            for (int i = 0; i < gaps; i++) {
                long from = gapFrom[i], to = gapTo[i];
                if (u < from || u > to) continue;
                if (from == to) {
                    System.arraycopy(gapFrom, i + 1, gapFrom, i, gaps - i - 1);
                    System.arraycopy(gapTo, i + 1, gapTo, i, gaps - i - 1);
                    gaps--;
                } else if (u == from) {
                    gapFrom[i]++;
                } else if (u == to) {
                    gapTo[i]--;
                } else {
                    gapTo[i] = u - 1;
                    addGap(u + 1, to);
                }
                return true;
            }
            return false;
        }
    }

    // ------------------------------------------------------------------ input

    /** A judged frame of flow fl; about: the data flow an acknowledgement or response is about (or null). */
    void frame(Flow fl, Flow about, FrameFacts f, long captureFirstNs) {
        if (originNs < 0) originNs = captureFirstNs;
        switch (f.opcode.role()) {
            case REQUEST:
                request(fl, f);
                break;
            case RESPONSE:
                if (about != null && about.msgStream != null) response(about, f);
                break;
            case ACK:
                if (about != null && about.msgStream != null && f.hasAeth) ack(about, f);
                break;
            case CONTROL:
                if (about != null && about.msgStream != null && f.hasSack && (f.opcodeKinds() & OpcodeKinds.CONTROL_MASK) == OpcodeKinds.SACK) {
                    Stream s = about.msgStream;
                    cover(about, Psn.unwrap(s.maxU, f.sackCum), f.timeNs);
                }
                break;
            default:
                break;
        }
    }

    private void request(Flow fl, FrameFacts f) {
        int kinds = f.opcodeKinds();
        if ((kinds & OpcodeKinds.UD) != 0) {
            // QP 1 carries CM MADs, not application messages (as analyze's Msgs column).
            if (f.destQp == 1) return;
            long t = f.timeNs;
            listener.message(new RdmaMessage(f.number, t - originNs, fl.id, fl.key.destQp(), f.hasDeth ? f.dethSrcQp : -1,
                    kind(f, kinds), f.psn, f.psn, 1, f.payloadLength, -1, 0, -1, 0, f.hasImm ? f.immData & 0xFFFFFFFFL : -1, -1, -1,
                    RdmaMessage.COMPLETE));
            return;
        }
        Stream s = fl.msgStream;
        if (s == null) s = fl.msgStream = new Stream();
        OpcodeDef op = f.opcode;
        long u;
        if (!s.started) {
            s.started = true;
            u = Psn.ORIGIN + (f.psn & Psn.MASK);
            s.maxU = u - 1;
        } else {
            u = Psn.unwrap(s.maxU, f.psn);
            if (u - s.maxU >= StreamLimits.NEW_STREAM_JUMP) {
                // The QP started over (reused, or a capture far apart): what was open ends here.
                flush(fl);
                s.maxU = u - 1;
                s.gaps = 0;
            }
        }
        boolean rtx, firstCopy = false;
        Open m;
        if (f.tver == 1) {
            // MetaRoCE names its message and its copies: msg_id and the rtx flag.
            rtx = f.rtx;
            m = byId(s, f.msgId);
            if (m == null) {
                if (rtx && u <= s.maxU) return; // a resend of a message already decided
                m = open(fl, s, f, u, kinds);
                m.msgId = f.msgId;
            } else if (u < m.firstU) {
                m.firstU = u;
            }
            if (op.isFirstOrOnly()) m.startSeen = true;
        } else {
            // RoCEv2 sends its PSNs in order on one path: one at or below the highest sent is sent again.
            rtx = u <= s.maxU;
            if (rtx) firstCopy = s.gaps > 0 && s.fillGap(u);
            else if (u > s.maxU + 1) s.addGap(s.maxU + 1, u - 1);
            m = rtx ? byPsn(s, u) : null;
            if (m == null) {
                if (rtx && !op.isFirstOrOnly()) return; // a resend of a message already decided
                Open cur = op.isFirstOrOnly() ? null : current(s, u);
                if (cur == null) {
                    if (rtx && u < oldestFirst(s)) return; // resent First of a decided message (spurious)
                    m = open(fl, s, f, u, kinds);
                } else {
                    m = cur;
                }
            }
        }
        m.packets++;
        if (rtx) m.retx++;
        // Bytes of each PSN once: a first copy, or the first copy this tap shows (a PSN it skipped, or past the
        // message's highest).
        if (!rtx || firstCopy || u > m.highU) {
            m.bytes += f.payloadLength;
            m.unique++;
        }
        if (u > m.highU) m.highU = u;
        if (f.timeNs > m.lastNs) m.lastNs = f.timeNs;
        if (f.hasReth && m.dma < 0) m.dma = f.rethLen;
        if (op.isLastOrOnly()) {
            if (!m.answered) m.lastU = u;
            m.kind = kind(f, kinds);
            if (f.hasImm) m.imm = f.immData & 0xFFFFFFFFL;
            if (f.hasIeth) m.rkey = f.iethRkey & 0xFFFFFFFFL;
        }
        if (u > s.maxU) s.maxU = u;
        // One look at the oldest message per request: decided by time or by the cap.
        Open h = s.open.peekFirst();
        if (h != null && (s.open.size() > MAX_OPEN || h != m && h.lastNs + HOLD_NS < f.timeNs && ended(h))) {
            s.open.pollFirst();
            emit(fl, h);
        }
    }

    /** A READ response or atomic acknowledgement about flow fl. */
    private void response(Flow fl, FrameFacts f) {
        Stream s = fl.msgStream;
        long u = Psn.unwrap(s.maxU, f.psn);
        Open m = null;
        int n = 0;
        for (Iterator<Open> it = s.open.descendingIterator(); it.hasNext() && n < SEARCH; n++) {
            Open o = it.next();
            if (o.firstU <= u) {
                if (o.answered) m = o;
                break;
            }
        }
        long t = f.timeNs;
        if (f.tver == 0) cover(fl, m == null ? u + 1 : m.firstU, t);
        if (m == null) return;
        m.packets++;
        if (u <= m.respHighU) {
            m.retx++; // the responder answered again (the READ was resent)
        } else {
            m.bytes += f.payloadLength;
            m.respHighU = u;
        }
        if (u > m.highU) m.highU = u;
        if (t > m.lastNs) m.lastNs = t;
        boolean read = (f.opcodeKinds() & OpcodeKinds.READ) != 0;
        if (!read || f.opcode.isLastOrOnly()) {
            m.lastU = u;
            m.answerDone = true;
            m.completionNs = t - m.firstNs;
            s.open.remove(m);
            emit(fl, m);
        }
    }

    /** An AETH ACK (covers its PSN), NAK or RNR NAK (cover the PSNs before theirs) about flow fl. */
    private void ack(Flow fl, FrameFacts f) {
        long u = Psn.unwrap(fl.msgStream.maxU, f.psn);
        cover(fl, f.aethKind == 0 ? u + 1 : u, f.timeNs);
    }

    /** Every PSN before toU is acknowledged at time t: the SEND/WRITE messages it covers whole are decided. */
    private void cover(Flow fl, long toU, long t) {
        Stream s = fl.msgStream;
        for (Iterator<Open> it = s.open.iterator(); it.hasNext(); ) {
            Open m = it.next();
            if (m.firstU >= toU) break;
            if (m.answered || m.lastU == Long.MIN_VALUE || m.lastU >= toU) continue;
            m.completionNs = t - m.firstNs;
            it.remove();
            emit(fl, m);
        }
    }

    // ------------------------------------------------------------------ end

    /** Decides every open message of flow fl as it stands (the end of the capture, an evicted flow, a new stream). */
    void flush(Flow fl) {
        Stream s = fl.msgStream;
        if (s == null) return;
        for (Open m = s.open.pollFirst(); m != null; m = s.open.pollFirst()) emit(fl, m);
    }

    /** The end of the pass: every flow's open messages, in the order of the flows. */
    void finish(List<Flow> flows) {
        for (Flow fl : flows) flush(fl);
    }

    // ------------------------------------------------------------------ helpers

    private Open open(Flow fl, Stream s, FrameFacts f, long u, int kinds) {
        Open m = new Open();
        m.frame = f.number;
        m.firstNs = m.lastNs = f.timeNs;
        m.firstU = u;
        m.highU = u - 1;
        m.startSeen = f.opcode.isFirstOrOnly();
        m.answered = (kinds & (OpcodeKinds.READ | OpcodeKinds.ATOMIC)) != 0;
        m.kind = kind(f, kinds);
        s.open.addLast(m);
        return m;
    }

    /** The open message with this MetaRoCE msg_id (newest first), or null. */
    private static Open byId(Stream s, long id) {
        int n = 0;
        for (Iterator<Open> it = s.open.descendingIterator(); it.hasNext() && n < SEARCH; n++) {
            Open o = it.next();
            if (o.msgId == id) return o;
        }
        return null;
    }

    /** The open message a resent PSN u belongs to (newest first), or null. */
    private static Open byPsn(Stream s, long u) {
        int n = 0;
        for (Iterator<Open> it = s.open.descendingIterator(); it.hasNext() && n < SEARCH; n++) {
            Open o = it.next();
            if (o.firstU <= u) {
                // A READ owns the PSNs after its own up to the next message's (its responses'): a READ resent
                // for its missing responses starts at the first of them.
                long end = o.answered ? (isRead(o) ? Long.MIN_VALUE : o.firstU) : o.lastU;
                return end == Long.MIN_VALUE || u <= end ? o : null;
            }
        }
        return null;
    }

    /** The message a new Middle/Last packet continues: the newest, if it is a SEND/WRITE without its Last. */
    private static Open current(Stream s, long u) {
        Open o = s.open.peekLast();
        return o != null && !o.answered && o.lastU == Long.MIN_VALUE && o.firstU <= u ? o : null;
    }

    private static long oldestFirst(Stream s) {
        Open o = s.open.peekFirst();
        return o == null ? Long.MAX_VALUE : o.firstU;
    }

    /** Whether the message's last packet went by (a READ or atomic: its request; waiting for the answer). */
    private static boolean ended(Open m) { return m.answered || m.lastU != Long.MIN_VALUE; }

    private void emit(Flow fl, Open m) {
        String status;
        if (!m.startSeen) status = RdmaMessage.CUT;
        else if (m.completionNs >= 0) status = RdmaMessage.ACKED;
        // A READ is whole with its last response (then acked); an atomic's request is the whole message.
        else if (m.answered ? !isRead(m) : m.lastU != Long.MIN_VALUE) status = RdmaMessage.COMPLETE;
        else status = RdmaMessage.INCOMPLETE;
        long last = m.lastU != Long.MIN_VALUE ? m.lastU : Math.max(m.highU, m.firstU);
        listener.message(new RdmaMessage(m.frame, m.firstNs - originNs, fl.id, fl.key.destQp(),
                fl.peer != null ? fl.peer.key.destQp() : -1, m.kind, Psn.wrap(m.firstU), Psn.wrap(last), m.packets, m.bytes,
                m.dma, m.lastNs - m.firstNs, m.completionNs, m.retx, m.imm, m.rkey, m.msgId, status));
    }

    private static boolean isRead(Open m) { return "READ".equals(m.kind); }

    /** The message kind a packet shows (its opcode family; with immediate or invalidate from its headers). */
    static String kind(FrameFacts f, int kinds) {
        if ((kinds & OpcodeKinds.UD) != 0) return f.hasImm ? "UD_SEND_IMM" : "UD_SEND";
        OpcodeDef op = f.opcode;
        String family = op.family();
        if (family == null) return "OTHER";
        switch (family) {
            case "send":
                return f.hasImm ? "SEND_IMM" : f.hasIeth ? "SEND_INV" : "SEND";
            case "write":
                return op.id().endsWith("rdma_atomic_write") ? "ATOMIC_WRITE" : f.hasImm ? "WRITE_IMM" : "WRITE";
            case "read":
                return "READ";
            case "atomic":
                return op.id().endsWith("compare_swap") ? "CMP_SWAP" : op.id().endsWith("fetch_add") ? "FETCH_ADD" : "ATOMIC";
            case "flush":
                return "FLUSH";
            default:
                return family.toUpperCase(java.util.Locale.ROOT);
        }
    }
}
