package io.metaroce.analysis;

import java.util.Locale;

/**
 * One RDMA message (a work request as the wire shows it) of a request stream, as {@code analyze --messages}
 * prints it and the GUI's Messages window lists it: the First..Last (or Only) packets of a SEND, WRITE (with
 * immediate), SEND with invalidate, a READ request with its READ responses, an atomic with its acknowledgement,
 * or one UD datagram. Built by {@link MessageTracker} in the analysis pass; immutable.
 *
 * <p>Times are nanoseconds; {@link #startNs} counts from the capture's first frame (as analyze prints times).
 * A value the tap cannot tell is -1 (JSON {@code null}, text {@code -}).
 */
public final class RdmaMessage {
    /** Receives each message as the analysis decides it (on the analysis thread). */
    public interface Listener {
        void message(RdmaMessage m);
    }

    /** Every packet from First to Last seen, no acknowledgement of the last one seen at this tap. */
    public static final String COMPLETE = "complete";
    /** Every packet seen and the acknowledgement (READ: the last response; atomic: its acknowledgement) too. */
    public static final String ACKED = "acked";
    /** The capture ended (or the QP started a new stream) before the message's last packet. */
    public static final String INCOMPLETE = "incomplete";
    /** The capture holds no first packet of it: it starts mid-message (or the first packet never reached the tap). */
    public static final String CUT = "cut";

    final long frame, startNs, durationNs, completionNs, dmaLength, bytes, immediate, invalidateRkey, msgId;
    final String flow, kind, status;
    final int firstPsn, lastPsn, packets, retransmitted, destQp, srcQp;

    RdmaMessage(long frame, long startNs, String flow, int destQp, int srcQp, String kind, int firstPsn, int lastPsn,
                int packets, long bytes, long dmaLength, long durationNs, long completionNs, int retransmitted,
                long immediate, long invalidateRkey, long msgId, String status) {
        this.frame = frame;
        this.startNs = startNs;
        this.flow = flow;
        this.destQp = destQp;
        this.srcQp = srcQp;
        this.kind = kind;
        this.firstPsn = firstPsn;
        this.lastPsn = lastPsn;
        this.packets = packets;
        this.bytes = bytes;
        this.dmaLength = dmaLength;
        this.durationNs = durationNs;
        this.completionNs = completionNs;
        this.retransmitted = retransmitted;
        this.immediate = immediate;
        this.invalidateRkey = invalidateRkey;
        this.msgId = msgId;
        this.status = status;
    }

    /** The number of the message's first packet in the capture (the first seen, for a cut message). */
    public long frame() { return frame; }

    /** Time of the first packet since the capture's first frame. */
    public long startNs() { return startNs; }

    /** The request flow, as analyze names flows ({@code src>dst/0xqp}). */
    public String flow() { return flow; }

    /** The flow's destination QP. */
    public int destQp() { return destQp; }

    /** The sending QP where the capture tells it (the paired flow's destination QP, a UD datagram's DETH), else -1. */
    public int srcQp() { return srcQp; }

    /** SEND, SEND_IMM, SEND_INV, WRITE, WRITE_IMM, READ, CMP_SWAP, FETCH_ADD, ATOMIC_WRITE, FLUSH, UD_SEND, UD_SEND_IMM. */
    public String kind() { return kind; }

    /** PSN of the first packet (for a cut message: of the first seen). */
    public int firstPsn() { return firstPsn; }

    /** PSN of the last packet (a READ: of its last response); the highest seen while it is incomplete. */
    public int lastPsn() { return lastPsn; }

    /** Packets seen, retransmitted copies and READ responses included. */
    public int packets() { return packets; }

    /** Payload bytes seen, each PSN once (a READ: its responses'). */
    public long bytes() { return bytes; }

    /** The RETH's DMA length (WRITE, READ), else -1. */
    public long dmaLength() { return dmaLength; }

    /** First to last packet on the wire (a READ: to its last response). */
    public long durationNs() { return durationNs; }

    /** First packet to the acknowledgement covering the last, -1 when the tap did not show it. */
    public long completionNs() { return completionNs; }

    /** Packets of the message sent again (a PSN at or below the highest sent, or MetaRoCE's rtx flag). */
    public int retransmitted() { return retransmitted; }

    /** The immediate data (32 bits), -1 when the message carries none. */
    public long immediate() { return immediate; }

    /** The rkey a SEND with invalidate names, -1 when none. */
    public long invalidateRkey() { return invalidateRkey; }

    /** MetaRoCE's msg_id, -1 for RoCEv2 (which carries none). */
    public long msgId() { return msgId; }

    /** {@link #COMPLETE}, {@link #ACKED}, {@link #INCOMPLETE} or {@link #CUT}. */
    public String status() { return status; }

    /** Whether the message is of this QP (either direction: -1 is every QP) and to or from this address (null: any). */
    public boolean matches(int qp, String peer) {
        if (qp >= 0 && destQp != qp && srcQp != qp) return false;
        if (peer == null) return true;
        int gt = flow.indexOf('>'), slash = flow.lastIndexOf('/');
        return flow.substring(0, gt).equals(peer) || flow.substring(gt + 1, slash).equals(peer);
    }

    /** The text form's header (see {@link #appendText}). */
    public static final String TEXT_HEADER = String.format(Locale.ROOT, "%8s %11s  %-36s %-12s %8s %8s %5s %10s %10s %11s %11s %4s %10s %10s  %s",
            "Frame", "Time", "Flow", "Kind", "FirstPSN", "LastPSN", "Pkts", "Bytes", "DMALen", "Dur(us)", "Compl(us)", "Rtx",
            "Imm", "InvRkey", "Status");

    /** One aligned line under {@link #TEXT_HEADER}, with its newline. */
    public void appendText(StringBuilder b) {
        b.append(String.format(Locale.ROOT, "%8d %11s  %-36s %-12s %8d %8d %5d %10d %10s %11s %11s %4d %10s %10s  %s",
                frame, seconds(startNs), flow, kind, firstPsn, lastPsn, packets, bytes,
                dmaLength < 0 ? "-" : Long.toString(dmaLength), micros(durationNs), completionNs < 0 ? "-" : micros(completionNs),
                retransmitted, hex(immediate), hex(invalidateRkey), status)).append('\n');
    }

    private static String seconds(long ns) {
        StringBuilder b = new StringBuilder(16);
        appendSeconds(b, ns);
        return b.toString();
    }

    private static String micros(long ns) { return String.format(Locale.ROOT, "%.3f", ns / 1e3); }

    private static String hex(long v) {
        if (v < 0) return "-";
        StringBuilder b = new StringBuilder(10);
        appendHex(b, v);
        return b.toString();
    }

    /** 0x and eight hex digits (String.format took about a microsecond per call: 200,000 messages, 0.2 s). */
    private static void appendHex(StringBuilder b, long v) {
        b.append("0x");
        for (int shift = 28; shift >= 0; shift -= 4) b.append(Character.forDigit((int) (v >>> shift) & 0xF, 16));
    }

    /** Seconds with six decimals, as {@link Reports#seconds} prints them (rounded to the nearest microsecond), without String.format. */
    static void appendSeconds(StringBuilder b, long ns) {
        if (ns < 0) {
            b.append('-');
            ns = -ns;
        }
        long us = (ns + 500) / 1000;
        b.append(us / 1_000_000).append('.');
        long frac = us % 1_000_000;
        for (long d = 100_000; d > frac && d > 1; d /= 10) b.append('0');
        b.append(frac);
    }

    /** One JSON object on one line (snake_case keys as analyze's other JSON; null where the tap cannot tell). */
    public String toJson() {
        StringBuilder b = new StringBuilder(320);
        b.append("{\"frame\":").append(frame)
                .append(",\"time\":");
        appendSeconds(b, startNs);
        b.append(",\"flow\":\"").append(flow).append('"')
                .append(",\"kind\":\"").append(kind).append('"')
                .append(",\"first_psn\":").append(firstPsn)
                .append(",\"last_psn\":").append(lastPsn)
                .append(",\"packets\":").append(packets)
                .append(",\"bytes\":").append(bytes)
                .append(",\"dma_length\":").append(dmaLength < 0 ? "null" : Long.toString(dmaLength))
                .append(",\"duration_ns\":").append(durationNs)
                .append(",\"completion_ns\":").append(completionNs < 0 ? "null" : Long.toString(completionNs))
                .append(",\"retransmitted\":").append(retransmitted)
                .append(",\"immediate\":");
        appendQuotedHex(b, immediate);
        b.append(",\"invalidate_rkey\":");
        appendQuotedHex(b, invalidateRkey);
        b.append(",\"msg_id\":").append(msgId < 0 ? "null" : Long.toString(msgId))
                .append(",\"status\":\"").append(status).append("\"}");
        return b.toString();
    }

    private static void appendQuotedHex(StringBuilder b, long v) {
        if (v < 0) {
            b.append("null");
            return;
        }
        b.append('"');
        appendHex(b, v);
        b.append('"');
    }

    @Override
    public String toString() { return toJson(); }
}
