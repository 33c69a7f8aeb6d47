package io.metaroce.dissector.stats;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameFields;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Service Response Time for RDMA operations (tshark's {@code -z rpc,srt} / {@code -z smb2,srt} for RoCE; the GUI's
 * Statistics > Service Response Time > RoCE): per operation, the calls answered and the min / max / sum of the time
 * from the request to its response. The pairing is the analysis' own ({@code analysis.ack_rtt_ns} on a request, the
 * time to the ACK, READ response or ATOMIC ACKNOWLEDGE that first covered its PSN): this only adds it up, so it needs
 * the frames with their analysis fields attached. A call is the packet that ends a reliable request (a READ or ATOMIC
 * request, the Last or Only packet of a SEND or WRITE): the acknowledgement answers the message there. A
 * retransmitted request is not a new call (its original's time already runs to the response). A request the analysis
 * found no response for is an open request (tshark's srt tables leave those out; its rtd tables count them as "Open
 * requests"; here one line under the rows). A request answered in a capture taken at the responder carries no
 * ack_rtt_ns (the analysis gives none there: the time would not be the requester's): a line of its own. The table is a
 * handful of counters whatever the capture: its state does not grow with frames or QPs.
 */
public final class ServiceResponseTime {
    /** The operations, in the table's order (its Index column). */
    public static final List<String> PROCEDURES = List.of("SEND", "RDMA WRITE", "RDMA READ", "Compare & Swap",
            "Fetch & Add", "RDMA FLUSH", "RDMA ATOMIC WRITE");

    private static final FieldCatalog C = FieldCatalog.get();
    private static final FieldDef RTT = C.field("analysis.ack_rtt_ns"), ACKED = C.field("analysis.acked_by_frame"),
            RETX = C.field("analysis.retransmission"), FLOW = C.field("analysis.flow");

    private final long[] calls = new long[PROCEDURES.size()], min = new long[PROCEDURES.size()],
            max = new long[PROCEDURES.size()], sum = new long[PROCEDURES.size()];
    private long open, untimed;

    public ServiceResponseTime() {
        java.util.Arrays.fill(min, Long.MAX_VALUE);
    }

    /**
     * The procedure (index in {@link #PROCEDURES}) an opcode's packet is a call of, or -1: only the packets that end
     * a request of a reliable service (RC, RD, XRC; UC and UD get no response).
     */
    public static int procedure(OpcodeDef op) {
        if (op == null || op.role() != OpcodeDef.Role.REQUEST || !op.isLastOrOnly()) return -1;
        String s = op.service();
        if (s == null || s.equals("uc") || s.equals("ud")) return -1;
        return switch (op.family()) {
            case "send" -> 0;
            case "write" -> (op.code() & 0x1F) == 0x1D ? 6 : 1;
            case "read" -> 2;
            case "atomic" -> (op.code() & 0x1F) == 0x13 ? 3 : 4;
            case "flush" -> 5;
            default -> -1;
        };
    }

    /** Counts a frame (with its analysis fields attached): a call when it ends a request the analysis answered. */
    public void add(Dissection d, FrameFields ff) {
        int p = procedure(d.opcode());
        if (p < 0 || ff.count(FLOW) == 0 || ff.count(RETX) != 0) return;
        if (ff.count(RTT) != 0) {
            long ns = ff.longValue(RTT, 0);
            calls[p]++;
            sum[p] += ns;
            if (ns < min[p]) min[p] = ns;
            if (ns > max[p]) max[p] = ns;
        } else if (ff.count(ACKED) == 0) {
            open++;
        } else {
            untimed++;
        }
    }

    /** Adds another reader's counts (the same procedures). */
    public void merge(ServiceResponseTime o) {
        for (int i = 0; i < calls.length; i++) {
            calls[i] += o.calls[i];
            sum[i] += o.sum[i];
            min[i] = Math.min(min[i], o.min[i]);
            max[i] = Math.max(max[i], o.max[i]);
        }
        open += o.open;
        untimed += o.untimed;
    }

    /** One row of the table: a procedure with at least one call; times in ns. */
    public record Row(int index, String procedure, long calls, long minNs, long maxNs, long avgNs, long sumNs) {
        /** A display filter for this procedure's calls: the opcodes that end its requests. */
        public String filter() { return ServiceResponseTime.filter(index); }
    }

    /** The procedures with calls, in the table's order. */
    public List<Row> rows() {
        List<Row> l = new ArrayList<>();
        for (int i = 0; i < calls.length; i++) {
            if (calls[i] == 0) continue;
            l.add(new Row(i, PROCEDURES.get(i), calls[i], min[i], max[i], sum[i] / calls[i], sum[i]));
        }
        return l;
    }

    /** Requests the analysis saw no response for. */
    public long open() { return open; }

    /** Requests answered in a capture taken at the responder, where the analysis gives no time. */
    public long untimed() { return untimed; }

    /**
     * The display filter of a procedure's calls: {@code bth.opcode in {...}} over the opcodes (both transport
     * versions) that end its requests.
     */
    public static String filter(int procedure) {
        java.util.TreeSet<Integer> codes = new java.util.TreeSet<>();
        for (List<OpcodeDef> t : List.of(Spec.OPCODES_TVER0, Spec.OPCODES_TVER1)) {
            for (OpcodeDef op : t) if (op != null && procedure(op) == procedure) codes.add(op.code());
        }
        StringBuilder b = new StringBuilder("bth.opcode in {");
        String sep = "";
        for (int c : codes) {
            b.append(sep).append(String.format(Locale.ROOT, "0x%02x", c));
            sep = " ";
        }
        return b.append('}').toString();
    }

    /**
     * tshark's srt table (ui/cli/tap-srt.c): the title, the field the procedures come from, a row per procedure with
     * calls (seconds with 6 decimals, rounded to the microsecond), then our open requests and tshark's footer.
     */
    public String text() {
        StringBuilder b = new StringBuilder("\n===================================================================\n");
        b.append("RoCE SRT Statistics:\nFilter: bth.opcode\n");
        b.append(String.format(Locale.ROOT, "Index  %-22s Calls    Min SRT    Max SRT    Avg SRT    Sum SRT\n", "Procedure"));
        for (Row r : rows()) {
            b.append(String.format(Locale.ROOT, "%5d  %-22s %6d %s %s %s %s\n", r.index(), r.procedure(), r.calls(),
                    seconds(r.minNs()), seconds(r.maxNs()), seconds(r.avgNs()), seconds(r.sumNs())));
        }
        b.append("Open requests: ").append(open).append('\n');
        if (untimed > 0) b.append("Answered, no time (capture at the responder): ").append(untimed).append('\n');
        return b.append("==================================================================\n").toString();
    }

    /** ns as tshark's "%3d.%06d" of seconds, rounded to the microsecond. */
    public static String seconds(long ns) {
        long us = (ns + 500) / 1000;
        return String.format(Locale.ROOT, "%3d.%06d", us / 1_000_000L, us % 1_000_000L);
    }
}
