package io.metaroce.analysis.diagnosis;

import io.metaroce.dissector.Addresses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An NCCL completion-error warning, as an operator pastes it from a job's log: what it says (status, vendor error,
 * peer, GIDs, QP number) and the diagnosis lookup keys it gives ({@code analyze --nccl}).
 *
 * <p>NCCL has printed this warning in several forms over the years and its forks print more; all of them name the
 * peer, most the work-completion status and vendor error, recent ones the RoCE GIDs, and its CQE warning the local
 * QP number. The parse is by keyword, so a form we have not seen still gives the keys it carries:
 * <pre>
 * NET/IB : Got completion from peer 10.2.0.5&lt;33092&gt; with error 12, opcode 0, len 0, vendor err 129 (Recv)
 * NET/IB: Got completion from peer 10.99.91.63&lt;51161&gt; with status=4 opcode=0 len=0 vendor err 81 (Send) localGid ::ffff:10.99.92.59 remoteGids::ffff:10.99.91.63 hca mlx5_1
 * NET/IB: Got completion from peer 10.153.235.13&lt;40554&gt; with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_RECV_RDMA_WITH_IMM(129) vendor_err=129 localGid ::ffff:1.1.2.2 remoteGids::ffff:1.1.1.4 hca mlx5_1
 * NET/IB: ncclIbTest: Got CQE with error (devIndex=0, req=0x7fcc, comm=0x7fcc (recv), wr_id=0, qp_num=26257)
 * </pre>
 * The peer NCCL prints is its socket's address, which is often the bootstrap interface's and not the RoCE one: the
 * remote GID, when printed, is the RoCE address (an IPv4 GID is IPv4-mapped), so it is the key.
 *
 * @param line the warning as given (trimmed)
 * @param status the work completion status ({@code ibv_wc_status}), null when not printed
 * @param vendorErr the NIC's vendor syndrome, null when not printed
 * @param request "Send" or "Recv" (the NCCL request the completion belongs to), null when not printed
 * @param peer the peer as printed ({@code 10.2.0.5<33092>}, or a host name), null when not printed
 * @param localGid the local GID as printed, null when not printed
 * @param remoteGid the remote GID as printed, null when not printed
 * @param qpNum the local QP number ({@code qp_num=}), null when not printed
 * @param hca the NIC ({@code hca mlx5_1}), null when not printed
 */
public record NcclWarning(String line, Integer status, Integer vendorErr, String request, String peer, String localGid,
                          String remoteGid, Integer qpNum, String hca) {

    private static final Pattern PEER = Pattern.compile("from peer (\\S+?)(?:<\\d+>)?(?:\\s|$)");
    private static final Pattern PEER_PRINTED = Pattern.compile("from peer (\\S+?)(?:\\s|$)");
    private static final Pattern STATUS = Pattern.compile("(?:status=(?:\\w+\\()?|with error )(\\d+)");
    private static final Pattern VENDOR = Pattern.compile("vendor[ _]err[ =](\\d+)");
    private static final Pattern REQUEST = Pattern.compile("\\((Send|Recv)\\)");
    private static final Pattern LOCAL_GID = Pattern.compile("localGid\\s*([0-9A-Fa-f:.]+)");
    private static final Pattern REMOTE_GID = Pattern.compile("remoteGids?\\s*([0-9A-Fa-f:.]+)");
    private static final Pattern QP_NUM = Pattern.compile("qp_num=(\\d+)");
    private static final Pattern HCA = Pattern.compile("hca (\\S+)");

    /** The warning in a log line, or null when the line holds none (any other line of a log). */
    public static NcclWarning parse(String line) {
        if (line == null) return null;
        String l = line.trim();
        boolean completion = l.contains("Got completion from peer");
        boolean cqe = l.contains("Got CQE with error") && l.contains("qp_num=");
        if (!completion && !cqe) return null;
        String peer = group(PEER_PRINTED, l);
        return new NcclWarning(l, integer(STATUS, l), integer(VENDOR, l), group(REQUEST, l), peer,
                group(LOCAL_GID, l), group(REMOTE_GID, l), integer(QP_NUM, l), group(HCA, l));
    }

    /** Every warning of a log, in order, without repeats (a rank prints the same one for each failed request). */
    public static List<NcclWarning> scan(Iterable<String> lines) {
        Map<String, NcclWarning> seen = new LinkedHashMap<>();
        for (String line : lines) {
            NcclWarning w = parse(line);
            if (w != null) seen.putIfAbsent(w.keyText(), w);
        }
        return new ArrayList<>(seen.values());
    }

    /**
     * The addresses to look the peer up by: the remote GID's (both forms when it is an IPv4-mapped GID, since a
     * misconfigured GID index sends such a GID in IPv6 packets), else the printed peer's when it is an address.
     * Empty when the warning names the peer only by host name.
     */
    public List<String> peerAddresses() {
        List<String> out = new ArrayList<>();
        if (remoteGid != null) addAddress(remoteGid, out);
        if (out.isEmpty() && peer != null) {
            Matcher m = PEER.matcher("from peer " + peer + " ");
            if (m.find()) addAddress(m.group(1), out);
        }
        return out;
    }

    /** True when the peer key comes from the socket address NCCL printed (no remote GID): maybe not the RoCE one. */
    public boolean peerFromSocket() { return remoteGid == null || Addresses.canonical(remoteGid) == null; }

    /** The status' name in verbs.h, or null. */
    public String statusName() {
        return status == null || status < 0 || status >= STATUS_NAMES.length ? null : "IBV_WC_" + STATUS_NAMES[status];
    }

    /** What the status means for someone with a capture of the QP: which finding to look for, or why none. */
    public String meaning() {
        if (status == null) return "no completion status printed: the findings of the QPs it names below";
        return switch (status) {
            case 12 -> "transport retry counter exceeded: the requester resent its oldest unacknowledged request "
                    + "retry_cnt times without an answer (loss, a dead peer, a link down, an unreachable address or GID); "
                    + "the findings below say which";
            case 13 -> "RNR retry counter exceeded: the responder answered RNR NAKs (no receive buffer posted) "
                    + "rnr_retry times; see qp-rnr below";
            case 5 -> "work request flushed: the QP was already in the error state; the first warning of the job, "
                    + "not this one, names the cause";
            case 9 -> "remote invalid request: the responder NAKed the request (AETH invalid request: a message "
                    + "longer than its receive buffer, an opcode its QP does not allow); the NAK is in the capture";
            case 10 -> "remote access error: the responder NAKed an RDMA READ/WRITE/atomic (AETH remote access error: "
                    + "rkey, bounds or permissions); the NAK is in the capture, the cause is in the application";
            case 11 -> "remote operation error: the responder could not complete the request (AETH remote "
                    + "operational error); the NAK is in the capture";
            case 4, 8, 1, 2 -> "a local error (memory registration, GPUDirect RDMA, work request): a host problem "
                    + "the network did not cause; a clean capture of the QP confirms it";
            case 20 -> "response timeout: the QP got no response in time; the findings below say whether requests "
                    + "were lost or never answered";
            default -> "completion status " + status + (statusName() == null ? "" : " (" + statusName() + ")")
                    + ": the findings of the QPs below";
        };
    }

    /** One line for the text report. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        b.append(status == null ? "no status" : "status " + status + (statusName() == null ? "" : " " + statusName()));
        if (vendorErr != null) b.append(", vendor err ").append(vendorErr).append(String.format(" (0x%x)", vendorErr));
        if (request != null) b.append(", ").append(request);
        if (peer != null) b.append(", peer ").append(peer);
        if (localGid != null) b.append(", localGid ").append(localGid);
        if (remoteGid != null) b.append(", remoteGids ").append(remoteGid);
        if (qpNum != null) b.append(String.format(", qp_num %d (0x%x)", qpNum, qpNum));
        if (hca != null) b.append(", hca ").append(hca);
        return b.toString();
    }

    public Map<String, Object> toJsonMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status);
        m.put("status_name", statusName());
        m.put("meaning", meaning());
        m.put("vendor_err", vendorErr);
        m.put("request", request);
        m.put("peer", peer);
        m.put("local_gid", localGid);
        m.put("remote_gid", remoteGid);
        m.put("qp_num", qpNum);
        m.put("hca", hca);
        m.put("peer_addresses", peerAddresses());
        m.put("line", line);
        return m;
    }

    /** What makes two warnings the same one (the line's time stamp and process prefix aside). */
    private String keyText() {
        return status + "|" + vendorErr + "|" + request + "|" + peer + "|" + localGid + "|" + remoteGid + "|" + qpNum + "|" + hca;
    }

    private static void addAddress(String text, List<String> out) {
        String a = Addresses.canonical(text);
        if (a == null) return;
        out.add(a);
        // An IPv4-mapped GID: flow ids write it "::ffff:a.b.c.d" when it travelled in IPv6 packets.
        if (!a.contains(":") && text.contains(":")) out.add(text.toLowerCase());
    }

    private static String group(Pattern p, String l) {
        Matcher m = p.matcher(l);
        return m.find() ? m.group(1) : null;
    }

    private static Integer integer(Pattern p, String l) {
        String g = group(p, l);
        if (g == null) return null;
        try {
            return Integer.valueOf(g);
        } catch (NumberFormatException e) {
            return null;   // more digits than an int: not a status we know
        }
    }

    /** ibv_wc_status names, by value (verbs.h). */
    private static final String[] STATUS_NAMES = {
        "SUCCESS", "LOC_LEN_ERR", "LOC_QP_OP_ERR", "LOC_EEC_OP_ERR", "LOC_PROT_ERR", "WR_FLUSH_ERR", "MW_BIND_ERR",
        "BAD_RESP_ERR", "LOC_ACCESS_ERR", "REM_INV_REQ_ERR", "REM_ACCESS_ERR", "REM_OP_ERR", "RETRY_EXC_ERR",
        "RNR_RETRY_EXC_ERR", "LOC_RDD_VIOL_ERR", "REM_INV_RD_REQ_ERR", "REM_ABORT_ERR", "INV_EECN_ERR",
        "INV_EEC_STATE_ERR", "FATAL_ERR", "RESP_TIMEOUT_ERR", "GENERAL_ERR"
    };
}
