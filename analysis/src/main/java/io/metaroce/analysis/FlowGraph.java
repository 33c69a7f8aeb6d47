package io.metaroce.analysis;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExtraFields;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameSummary;
import io.metaroce.dissector.IcrcStatus;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.Deth;
import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Nacketh;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The flow graph (Wireshark's Statistics > Flow Graph, tshark's {@code -z flow}): a ladder diagram whose node
 * columns are the hosts and whose rows are the frames, each an arrow from its sender to its receiver with the QP
 * numbers at its ends, a label (the Info column: opcode, PSN, AETH syndrome) and a comment that says what the
 * analysis decided about the frame (retransmission and its cause, spurious, NAK, CNP, CE mark, RNR...). Both front
 * ends build their rows here ({@code dissect -z flow} and the GUI's Flow Graph window), so they agree.
 *
 * <p>The nodes are learned from a pass over the frames ({@link Nodes}, in the order of first appearance, the
 * sender before the receiver, as Wireshark orders them); a row is made for one frame at a time ({@link #row}),
 * so that nothing grows with the frames.
 */
public final class FlowGraph {
    private FlowGraph() { }

    /** Which frames: every one, or the RoCE ones (RoCEv1/v2, MetaRoCE, CNPs, CM MADs). */
    public enum Type { ANY, ROCE }

    /**
     * How a frame's ends are named: by network address (the host), or by address and QP (one column per QP
     * endpoint; tshark's "standard" is its address-and-port view).
     */
    public enum Mode { STANDARD, NETWORK }

    /**
     * One row: frame number, time since the capture's first frame, the two ends (node names), the label, the QP
     * numbers at the ends (-1: none or unknown) and the comment (empty: the analysis says nothing). The GUI colours
     * a row by the packet list's colouring rules, which it matches on the frame itself.
     */
    public record Row(long frame, long relativeNanos, String from, String to, String label, long fromQp, long toQp,
                      String comment) { }

    /** Most nodes kept: a capture with more hosts puts the others in one column, {@link #OTHER}. */
    public static final int MAX_NODES = 256;
    /** The column of the hosts past {@link #MAX_NODES}. */
    public static final String OTHER = "(other hosts)";

    private static final FieldCatalog C = FieldCatalog.get();
    private static final FieldDef RETX = C.field("analysis.retransmission"), CAUSE = C.field("analysis.retransmission_cause"),
            SPURIOUS = C.field("analysis.spurious"), ORIGINAL = C.field("analysis.original_frame"),
            INFERRED = C.field("analysis.retransmission_inferred"), OOO = C.field("analysis.out_of_order"),
            DUP = C.field("analysis.duplicate"), GAP = C.field("analysis.psn_gap"),
            ACK_UNSEEN = C.field("analysis.ack_of_unseen"), ACK_FIRST = C.field("analysis.ack_before_request"),
            REPEAT = C.field("analysis.repeated_response"), CE_NO_CNP = C.field("analysis.ce_without_cnp");

    /** Whether the type keeps the frame. */
    public static boolean selects(Type type, Dissection d) {
        return type == Type.ANY || d.isRoce();
    }

    /**
     * The QP that sent the frame: a datagram's source QP (DETH: CM MADs, UD), else the destination QP of the
     * other direction of its connection as the analysis paired them; -1 when unknown (no analysis, no pair).
     */
    public static long sourceQp(Dissection d, AnalysisFrameFields analysis) {
        if (!d.isRoce()) return -1;
        int deth = d.offsetOf(Deth.HEADER);
        if (deth >= 0 && deth + Deth.SIZE <= d.capturedLength()) return Deth.srcQp(d.data(), deth);
        return analysis == null ? -1 : analysis.sourceQp(d);
    }

    /** The name of the sender's node (mode NETWORK: its address; STANDARD: with its QP when known). */
    public static String from(Mode mode, Dissection d, long sourceQp) {
        String a = FrameSummary.source(d, FrameSummary.Style.LINE);
        return mode == Mode.STANDARD && sourceQp >= 0 ? a + ":" + qp(sourceQp) : a;
    }

    /** The name of the receiver's node. */
    public static String to(Mode mode, Dissection d) {
        String a = FrameSummary.destination(d, FrameSummary.Style.LINE);
        return mode == Mode.STANDARD && d.isRoce() ? a + ":" + qp(d.destQp()) : a;
    }

    /** A QP number as the ladder shows it: 0x and its hex digits, short ("0x13"). */
    public static String qp(long qp) { return "0x" + Long.toHexString(qp); }

    /** The row of a dissected frame (analysis fields attached, if any). */
    public static Row row(Mode mode, Dissection d, AnalysisFrameFields analysis) {
        long src = sourceQp(d, analysis);
        return new Row(d.number(), d.timeNanos() - d.firstTimeNanos(), from(mode, d, src), to(mode, d), label(d), src,
                d.isRoce() ? d.destQp() : -1, comment(d));
    }

    /**
     * The arrow's label: the packet list's Info with the PSN after the opcode ("RC RDMA WRITE First PSN=5", "RC
     * Acknowledge PSN=24 [NAK seq err] MSN=4"); a CM MAD by its message ("CM ConnectRequest").
     */
    public static String label(Dissection d) {
        String info = FrameSummary.info(d, FrameSummary.Style.LIST);
        if (!d.isRoce() || d.opcode() == null) return info;
        int cm = info.indexOf(" CM ");
        if (cm >= 0) return info.substring(cm + 1);
        String op = d.opcode().label();
        if (!info.startsWith(op)) return info;
        return op + " PSN=" + d.psn() + info.substring(op.length());
    }

    /** What the analysis and the dissector decided about the frame, "; " between the findings; empty for none. */
    public static String comment(Dissection d) {
        StringBuilder b = new StringBuilder();
        ExtraFields x = d.extra();
        if (has(x, RETX)) {
            add(b, has(x, INFERRED) ? "Retransmission, first copy unseen" : "Retransmission");
            int c = x.indexOf(CAUSE);
            if (c >= 0 && x.stringValue(c) != null) b.append(" (").append(x.stringValue(c)).append(')');
            int o = x.indexOf(ORIGINAL);
            if (o >= 0) b.append(" of frame ").append(x.longValue(o));
            if (has(x, SPURIOUS)) add(b, "spurious");
        }
        if (has(x, REPEAT)) add(b, "Repeated response");
        if (has(x, DUP)) add(b, "Duplicate");
        if (has(x, OOO)) add(b, "Out of order");
        int gap = x.indexOf(GAP);
        if (gap >= 0 && x.longValue(gap) > 0) add(b, "PSN gap " + x.longValue(gap));
        if (has(x, ACK_UNSEEN)) add(b, "ACK of an unseen PSN");
        if (has(x, ACK_FIRST)) add(b, "ACK before its request");
        int aeth = d.offsetOf(Aeth.HEADER);
        if (aeth >= 0 && aeth + Aeth.SIZE <= d.capturedLength()) {
            int kind = Aeth.syndromeKind(d.data(), aeth), code = Aeth.syndromeCode(d.data(), aeth);
            if (kind == 3) {
                EnumValueDef e = Spec.ENUM_NAK_CODE.of(code);
                add(b, "NAK " + (e == null ? "code " + code : e.label()));
                if (code == 0) b.append(", resend from PSN ").append(d.psn());
            } else if (kind == 1) {
                add(b, "RNR NAK, retry after " + Spec.ENUM_RNR_TIMER.label(code));
            }
        }
        int nack = d.offsetOf(Nacketh.HEADER);
        if (nack >= 0 && nack + Nacketh.SIZE <= d.capturedLength()) {
            EnumValueDef r = Spec.ENUM_NACK_REASON.of(Nacketh.reason(d.data(), nack));
            add(b, "NACK " + (r == null ? "" : r.label() + " ") + "from PSN " + Nacketh.firstPsn(d.data(), nack));
        }
        if (isCnp(d)) add(b, "CNP: slow down QP " + qp(d.destQp()));
        if (d.ecn() == 3) add(b, "CE mark");
        if (has(x, CE_NO_CNP)) add(b, "CE without CNP");
        if (d.icrcStatus() == IcrcStatus.BAD) add(b, "Bad ICRC");
        return b.toString();
    }

    private static boolean isCnp(Dissection d) {
        return d.opcode() != null && "cnp".equals(d.opcode().family());
    }

    private static boolean has(ExtraFields x, FieldDef f) {
        int i = x.indexOf(f);
        return i >= 0 && x.longValue(i) != 0;
    }

    private static void add(StringBuilder b, String s) {
        if (b.length() > 0) b.append("; ");
        b.append(s);
    }

    /**
     * The node columns, learned from the frames: each name with where it was first met (frame number * 2, +1 for
     * a receiver), so that two learners (one per worker) merge into the order one learner in capture order would
     * have found. At most {@link #MAX_NODES}, then {@link #OTHER}.
     */
    public static final class Nodes {
        private final Map<String, Long> first = new HashMap<>();
        private List<String> ordered;
        private Map<String, Integer> index;

        /** Learns both ends of a row. */
        public void learn(long frame, String from, String to) {
            learn(from, frame * 2);
            learn(to, frame * 2 + 1);
        }

        private void learn(String name, long order) {
            Long o = first.get(name);
            if (o == null) {
                if (first.size() >= MAX_NODES) name = OTHER;
                o = first.get(name);
            }
            if (o == null || order < o) first.put(name, order);
            ordered = null;
        }

        /** Adds another learner's nodes. */
        public void merge(Nodes other) {
            for (Map.Entry<String, Long> e : other.first.entrySet()) learn(e.getKey(), e.getValue());
        }

        /** The node names in column order. */
        public List<String> ordered() {
            if (ordered == null) {
                List<Map.Entry<String, Long>> l = new ArrayList<>(first.entrySet());
                l.sort(Map.Entry.comparingByValue());
                List<String> names = new ArrayList<>();
                index = new HashMap<>();
                for (Map.Entry<String, Long> e : l) {
                    index.put(e.getKey(), names.size());
                    names.add(e.getKey());
                }
                ordered = List.copyOf(names);
            }
            return ordered;
        }

        /** The column of a node name (a name never learned goes to the {@link #OTHER} column, or the last). */
        public int column(String name) {
            ordered();
            Integer i = index.get(name);
            if (i == null) i = index.get(OTHER);
            return i == null ? Math.max(0, ordered.size() - 1) : i;
        }

        public int size() { return first.size(); }

        /** A copy (for another thread to read while this one goes on learning). */
        public Nodes copy() {
            Nodes n = new Nodes();
            n.first.putAll(first);
            return n;
        }
    }

    /**
     * tshark's ASCII layout of the ladder (sequence_analysis_dump_to_file) with {@link #WIDTH} characters a node: the
     * one text writer of {@code dissect -z flow} and the GUI Flow Graph's "Export... as ASCII", so both write the
     * same bytes. As tshark, a label is cut to its arrow's span and the comment follows the row in full.
     */
    public static final class Text {
        /** Characters per node column; tshark's is 20, too narrow for a label with its PSN ("RC RDMA WRITE First PSN=5"). */
        public static final int WIDTH = 40;

        private final Nodes nodes;
        private final List<String> names;
        private final String empty;

        public Text(Nodes nodes) {
            this.nodes = nodes;
            this.names = nodes.ordered();
            StringBuilder e = new StringBuilder();
            for (int i = 0; i < names.size(); i++) e.append(pad("|", WIDTH));
            this.empty = e.append('|').toString();
        }

        /** Two lines: the even nodes above, the odd ones below, each over two columns (tshark's). */
        public String header() {
            StringBuilder b = new StringBuilder("|Time     ");
            for (int i = 0; i < names.size(); i += 2) b.append(pad("| " + names.get(i), WIDTH * 2));
            b.append("|\n|         ").append(pad("|", WIDTH));
            for (int i = 1; i < names.size(); i += 2) {
                String s = "| " + names.get(i);
                if (s.length() < WIDTH) s = pad(s, WIDTH) + "| ";
                b.append(pad(s, WIDTH * 2));
            }
            return b.append('\n').toString();
        }

        /** A frame's two lines: time, label over the arrow, comment; then the arrow with the QP numbers at its ends. */
        public String row(Row r) {
            int from = nodes.column(r.from()), to = nodes.column(r.to());
            int start = from * WIDTH + WIDTH / 2, end = to * WIDTH + WIDTH / 2, width;
            if (start != end) width = Math.abs(end - start);
            else {
                end = start + WIDTH;
                width = WIDTH;
            }
            StringBuilder b = new StringBuilder(2 * empty.length() + 64);
            b.append(pad("|" + seconds(r.relativeNanos()), 10));
            StringBuilder line = new StringBuilder(empty);
            overwrite(line, r.label(), start, end);
            b.append(line).append(r.comment()).append("\n|         ");
            line = new StringBuilder(empty);
            String arrow = start < end ? "-".repeat(width - 2) + ">" : "<" + "-".repeat(width - 2);
            overwrite(line, arrow, start, end);
            String src = r.fromQp() < 0 ? "" : "(" + qp(r.fromQp()) + ")";
            String dst = r.toQp() < 0 ? "" : "(" + qp(r.toQp()) + ")";
            int slot = WIDTH / 2 - 1;
            if (start < end) {
                overwrite(line, src, start - slot, start - 1);
                overwrite(line, dst, end + 1, end + slot);
            } else {
                overwrite(line, src, start + 1, start + slot);
                overwrite(line, dst, end - slot, end + 1);
            }
            return b.append(line).append('\n').toString();
        }

        /** tshark's overwrite: text over the span p1..p2 (either order), cut to it, the line keeping its length. */
        public static void overwrite(StringBuilder s, String text, int p1, int p2) {
            if (p1 == p2 || text.isEmpty()) return;
            int pos = Math.max(0, Math.min(p1, p2)), len = Math.abs(p2 - p1);
            if (len > text.length()) len = text.length();
            else text = text.substring(0, len);
            if (pos > s.length()) pos = s.length();
            s.delete(pos, Math.min(pos + len, s.length())).insert(pos, text);
        }

        /** Seconds with 9 decimals ("0.000019476"; String.format cost a third of the rendering). */
        public static String seconds(long ns) {
            String sign = ns < 0 ? "-" : "";
            ns = Math.abs(ns);
            String frac = Long.toString(ns % 1_000_000_000L);
            return sign + ns / 1_000_000_000L + "." + "0".repeat(9 - frac.length()) + frac;
        }

        private static String pad(String s, int width) {
            return s.length() >= width ? s : s + " ".repeat(width - s.length());
        }
    }
}
