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
 * <p>UCX (MPI and NCCL's UCX plugin) prints the mlx5 error CQE instead, its QP on a second line with the same prefix
 * (a DC initiator's also its target's number and GID); older UCX and SPDK on one line:
 * <pre>
 * [node1:31180:0:31180] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)
 * [node1:31180:0:31180] ib_mlx5_log.c:143  DCI QP 0x14e4 wqe[0]: SEND s-e [rqpn 0x2248a rmac 50:6b:4b:cb:be:ce sgix 0 dgid fe80::526b:4bff:fecb:bece tc 0] [inl len 18]
 * [node2:6807 :0:6807] ib_mlx5_log.c:115  FATAL: Error on mlx5_3:1 QP 0xe6d7 wqe[7821]: Transport retry count exceeded (synd 0x15 vend 0x81) opcode SEND
 * </pre>
 * The CQE syndrome gives the completion status as the mlx5 provider maps it ({@code synd 0x15}: 12, retry counter
 * exceeded); the QP is the local one, {@code rqpn} the remote one (the destination QP of the packets the QP sent).
 *
 * @param line the warning as given (trimmed)
 * @param status the work completion status ({@code ibv_wc_status}), null when not printed
 * @param vendorErr the NIC's vendor syndrome, null when not printed
 * @param request "Send" or "Recv" (the NCCL request the completion belongs to), null when not printed
 * @param peer the peer as printed ({@code 10.2.0.5<33092>}, or a host name), null when not printed
 * @param localGid the local GID as printed, null when not printed
 * @param remoteGid the remote GID as printed, null when not printed
 * @param qpNum the local QP number ({@code qp_num=}), null when not printed
 * @param hca the NIC ({@code hca mlx5_1}, UCX's {@code mlx5_0:1}), null when not printed
 * @param remoteQp the remote QP number (UCX's {@code rqpn}), null when not printed
 * @param syndrome the mlx5 CQE syndrome (UCX's {@code synd}), null when not printed
 * @param loggedAt the time stamp the line starts with (UCX's, or one a logger or {@code kubectl logs --timestamps}
 *                 put there), null when none
 */
public record NcclWarning(String line, Integer status, Integer vendorErr, String request, String peer, String localGid,
                          String remoteGid, Integer qpNum, String hca, Integer remoteQp, Integer syndrome,
                          LogTime loggedAt) {

    private static final Pattern PEER = Pattern.compile("from peer (\\S+?)(?:<\\d+>)?(?:\\s|$)");
    private static final Pattern PEER_PRINTED = Pattern.compile("from peer (\\S+?)(?:\\s|$)");
    private static final Pattern STATUS = Pattern.compile("(?:status=(?:\\w+\\()?|with error )(\\d+)");
    private static final Pattern VENDOR = Pattern.compile("vendor[ _]err[ =](\\d+)");
    private static final Pattern REQUEST = Pattern.compile("\\((Send|Recv)\\)");
    private static final Pattern LOCAL_GID = Pattern.compile("localGid\\s*([0-9A-Fa-f:.]+)");
    private static final Pattern REMOTE_GID = Pattern.compile("remoteGids?\\s*([0-9A-Fa-f:.]+)");
    private static final Pattern QP_NUM = Pattern.compile("qp_num=(\\d+)");
    private static final Pattern HCA = Pattern.compile("hca (\\S+)");
    private static final Pattern UCX_CQE = Pattern.compile("\\(synd 0x([0-9A-Fa-f]+) vend 0x([0-9A-Fa-f]+)");
    private static final Pattern UCX_DEVICE = Pattern.compile("\\bon ([A-Za-z0-9_]+:\\d+)");
    private static final Pattern UCX_QP = Pattern.compile("\\bQP 0x([0-9A-Fa-f]{1,6}) wqe\\[");
    private static final Pattern UCX_RQPN = Pattern.compile("\\brqpn 0x([0-9A-Fa-f]{1,6})\\b");
    private static final Pattern UCX_DGID = Pattern.compile("\\bdgid ([0-9A-Fa-f:.]+)");
    private static final Pattern LINE_PREFIX = Pattern.compile("^(?:\\[[^\\]]*\\]\\s*)+");

    /** The warning in a log line, or null when the line holds none (any other line of a log). */
    public static NcclWarning parse(String line) {
        if (line == null) return null;
        String l = line.trim();
        Matcher cqe = UCX_CQE.matcher(l);
        if (cqe.find()) return ucx(l, cqe);
        boolean completion = l.contains("Got completion from peer");
        boolean ncclCqe = l.contains("Got CQE with error") && l.contains("qp_num=");
        if (!completion && !ncclCqe) return null;
        String peer = group(PEER_PRINTED, l);
        return new NcclWarning(l, integer(STATUS, l), integer(VENDOR, l), group(REQUEST, l), peer,
                group(LOCAL_GID, l), group(REMOTE_GID, l), qpNumber(integer(QP_NUM, l)), group(HCA, l), null, null,
                LogTime.of(l));
    }

    /** UCX's error CQE line (the QP on it, or on the line after it: {@link #withQpLine}). */
    private static NcclWarning ucx(String l, Matcher cqe) {
        int synd = Integer.parseInt(last(cqe.group(1)), 16), vend = Integer.parseInt(last(cqe.group(2)), 16);
        return new NcclWarning(l, statusOfSyndrome(synd), vend, null, null, null, group(UCX_DGID, l), hex(UCX_QP, l),
                group(UCX_DEVICE, l), hex(UCX_RQPN, l), synd, LogTime.of(l));
    }

    /** UCX's line after the error CQE: this warning with the QP, remote QP and GID it names; null when it is not one. */
    NcclWarning withQpLine(String next) {
        String n = next.trim();
        Integer qp = hex(UCX_QP, n);
        if (syndrome == null || qpNum != null || qp == null || UCX_CQE.matcher(n).find()) return null;
        return new NcclWarning(line + "\n" + n, status, vendorErr, request, peer, localGid, group(UCX_DGID, n), qp, hca,
                hex(UCX_RQPN, n), syndrome, loggedAt);
    }

    /**
     * Every warning of a log, in order, without repeats (a rank prints the same one for each failed request). UCX's
     * QP line joins the error line before it with the same {@code [host:pid:tid]} prefix (processes interleave).
     */
    public static List<NcclWarning> scan(Iterable<String> lines) {
        List<NcclWarning> out = new ArrayList<>();
        java.util.Set<String> kept = new java.util.HashSet<>();
        // Index in out of each prefix's UCX warning still waiting for its QP line.
        Map<String, Integer> awaitingQp = new java.util.HashMap<>();
        for (String line : lines) {
            NcclWarning w = parse(line);
            if (w == null) {
                Integer i = awaitingQp.get(prefix(line));
                NcclWarning joined = i == null ? null : out.get(i).withQpLine(line);
                if (joined != null) {
                    awaitingQp.remove(prefix(line));
                    out.set(i, joined);
                    keepOnce(out, i, kept);
                }
            } else if (w.syndrome() != null && w.qpNum() == null) {
                Integer before = awaitingQp.put(prefix(line), out.size());
                if (before != null) keepOnce(out, before, kept);
                out.add(w);
            } else if (kept.add(w.keyText())) {
                out.add(w);
            }
        }
        for (Integer i : awaitingQp.values()) keepOnce(out, i, kept);
        List<NcclWarning> distinct = new ArrayList<>();
        for (NcclWarning w : out) if (w != null) distinct.add(w);
        return distinct;
    }

    /** Keeps the (now complete) warning at i only when no warning before it was the same one. */
    private static void keepOnce(List<NcclWarning> out, int i, java.util.Set<String> kept) {
        if (!kept.add(out.get(i).keyText())) out.set(i, null);
    }

    /** A log line's {@code [..]} prefixes (UCX: {@code [host:pid:tid]}, with a time stamp before it when configured). */
    private static String prefix(String line) {
        Matcher m = LINE_PREFIX.matcher(line.trim());
        return m.find() ? m.group().trim() : "";
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

    /**
     * The completion status the mlx5 provider reports for an error CQE's syndrome (rdma-core's mlx5 cq.c), null for a
     * syndrome it does not map (IBV_WC_GENERAL_ERR there).
     */
    static Integer statusOfSyndrome(int synd) {
        return switch (synd) {
            case 0x01 -> 1;    // local length
            case 0x02 -> 2;    // local QP operation
            case 0x04 -> 4;    // local protection
            case 0x05 -> 5;    // work request flushed
            case 0x06 -> 6;    // memory window bind
            case 0x10 -> 7;    // bad response
            case 0x11 -> 8;    // local access
            case 0x12 -> 9;    // remote invalid request
            case 0x13 -> 10;   // remote access
            case 0x14 -> 11;   // remote operation
            case 0x15 -> 12;   // transport retry counter exceeded
            case 0x16 -> 13;   // RNR retry counter exceeded
            case 0x22 -> 16;   // remote aborted
            default -> null;
        };
    }

    /** The status' name in verbs.h, or null. */
    public String statusName() {
        return status == null || status < 0 || status >= STATUS_NAMES.length ? null : "IBV_WC_" + STATUS_NAMES[status];
    }

    /** What the status means for someone with a capture of the QP: which finding to look for, or why none. */
    public String meaning() {
        if (status == null && syndrome != null) {
            return "an error CQE the mlx5 provider reports as IBV_WC_GENERAL_ERR: the findings of the QPs it names below";
        }
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

    /** What printed it, for the report: "NCCL warning" or "UCX error CQE". */
    public String kind() { return syndrome != null ? "UCX error CQE" : "NCCL warning"; }

    /** One line for the text report. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        b.append(status == null ? "no status" : "status " + status + (statusName() == null ? "" : " " + statusName()));
        if (syndrome != null) b.append(String.format(", mlx5 syndrome 0x%x", syndrome));
        if (vendorErr != null) b.append(", vendor err ").append(vendorErr).append(String.format(" (0x%x)", vendorErr));
        if (request != null) b.append(", ").append(request);
        if (peer != null) b.append(", peer ").append(peer);
        if (localGid != null) b.append(", localGid ").append(localGid);
        if (remoteGid != null) b.append(", remoteGids ").append(remoteGid);
        if (qpNum != null) b.append(String.format(", qp_num %d (0x%x)", qpNum, qpNum));
        if (remoteQp != null) b.append(String.format(", remote QP 0x%x", remoteQp));
        if (hca != null) b.append(", hca ").append(hca);
        return b.toString();
    }

    public Map<String, Object> toJsonMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", syndrome != null ? "ucx" : "nccl");
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
        m.put("remote_qp", remoteQp);
        m.put("syndrome", syndrome);
        m.put("peer_addresses", peerAddresses());
        m.put("logged_at", loggedAt == null ? null : loggedAt.text());
        m.put("line", line);
        return m;
    }

    /** What makes two warnings the same one (the line's time stamp and process prefix aside). */
    private String keyText() {
        return status + "|" + vendorErr + "|" + request + "|" + peer + "|" + localGid + "|" + remoteGid + "|" + qpNum + "|" + hca
                + "|" + remoteQp + "|" + syndrome;
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

    /** A QP number is 24 bits: a larger qp_num is no key (a damaged line), not a QP of the capture. */
    private static Integer qpNumber(Integer n) {
        return n == null || n < 0 || n > 0xFFFFFF ? null : n;
    }

    private static Integer hex(Pattern p, String l) {
        String g = group(p, l);
        return g == null ? null : Integer.valueOf(g, 16);
    }

    /** The last two hex digits: a byte-wide field printed with more digits than it has is read as the byte. */
    private static String last(String hex) {
        return hex.length() > 2 ? hex.substring(hex.length() - 2) : hex;
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
