package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL's completion-error warnings in the forms its versions print (from public job logs), read into the lookup
 * keys of {@code analyze --nccl}, and the lookup they give on a sample whose truth says which QP died.
 */
class NcclWarningTest {

    @Test
    void olderFormWithErrorAndNoGids() {
        NcclWarning w = NcclWarning.parse("node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion "
                + "from peer 10.2.0.5<33092> with error 12, opcode 0, len 0, vendor err 129 (Recv)");
        assertEquals(12, w.status());
        assertEquals("IBV_WC_RETRY_EXC_ERR", w.statusName());
        assertEquals(129, w.vendorErr());
        assertEquals("Recv", w.request());
        assertEquals("10.2.0.5<33092>", w.peer());
        assertNull(w.remoteGid());
        assertEquals(List.of("10.2.0.5"), w.peerAddresses());
        assertTrue(w.peerFromSocket(), "no GID: the key is the socket's address");
        assertTrue(w.meaning().startsWith("transport retry counter exceeded"));
    }

    @Test
    void gidFormKeysOnTheRemoteGidNotTheSocket() {
        NcclWarning w = NcclWarning.parse("[2026-03-03 12:11:38] host:185303:186751 [1] transport/net_ib.cc:2453 NCCL WARN "
                + "NET/IB: Got completion from peer 10.99.91.63<51161> with status=4 opcode=32614 len=32614 vendor err 81 "
                + "(Send) localGid ::ffff:10.99.92.59 remoteGids::ffff:10.88.1.7 hca mlx5_1");
        assertEquals(4, w.status());
        assertEquals("::ffff:10.88.1.7", w.remoteGid());
        assertEquals("::ffff:10.99.92.59", w.localGid());
        assertEquals("mlx5_1", w.hca());
        // IPv4 GIDs are IPv4-mapped; flows carry the IPv4 address (or, with a wrong GID index, the mapped IPv6 one).
        assertEquals(List.of("10.88.1.7", "::ffff:10.88.1.7"), w.peerAddresses());
        assertFalse(w.peerFromSocket());
        assertTrue(w.meaning().contains("host problem"), "a local protection error is not the network's: " + w.meaning());
    }

    @Test
    void symbolicStatusAndIpv6Gid() {
        NcclWarning w = NcclWarning.parse("NCCL WARN NET/IB: Got completion from peer 10.153.235.13<40554> with "
                + "status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_RECV_RDMA_WITH_IMM(129) vendor_err=129 localGid fd00::1 "
                + "remoteGids fd00:0:0:0::2 hca mlx5_1");
        assertEquals(12, w.status());
        assertEquals(129, w.vendorErr());
        assertNull(w.request());
        assertEquals(List.of("fd00::2"), w.peerAddresses(), "IPv6 written as flow ids write it (RFC 5952)");
    }

    @Test
    void cqeWarningGivesTheLocalQpNumber() {
        NcclWarning w = NcclWarning.parse("NCCL WARN NET/IB: ncclIbTest: Got CQE with error (devIndex=0, req=0x7fccfc04e028, "
                + "comm=0x7fccfc04e000 (recv), wr_id=0, qp_num=26257)");
        assertEquals(26257, w.qpNum());
        assertNull(w.status());
        assertTrue(w.peerAddresses().isEmpty());
    }

    @Test
    void hostNamePeerGivesNoAddressAndOtherLinesNoWarning() {
        NcclWarning w = NcclWarning.parse("NET/IB: Got completion from peer node20<57713> with status=4 opcode=0 len=0 vendor err 81 (Send) hca mlx5_0");
        assertEquals("node20<57713>", w.peer());
        assertTrue(w.peerAddresses().isEmpty());
        assertNull(NcclWarning.parse("NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.2.0.4<0>"));
        assertNull(NcclWarning.parse("Got CQE with error (devIndex=0)"), "a CQE warning without qp_num names no key");
        // Found by NcclLogFuzzTest: a qp_num beyond 24 bits is no QP key (it looked up a flow id no QP can have).
        assertNull(NcclWarning.parse("Got CQE with error (devIndex=0, qp_num=262526257)").qpNum());
        assertNull(NcclWarning.parse(""));
        // A status beyond verbs.h's table and one beyond an int: named by number, never an exception.
        assertNull(NcclWarning.parse("Got completion from peer 1.2.3.4 with status=99").statusName());
        assertNull(NcclWarning.parse("Got completion from peer 1.2.3.4 with status=99999999999").status());
    }

    @Test
    void scanKeepsEachWarningOnce() {
        String a = "r0 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1> with error 12, opcode 0, len 0, vendor err 129 (Send)";
        String b = "r0 NCCL WARN NET/IB : Got completion from peer 10.0.0.3<1> with error 5, opcode 0, len 0, vendor err 249 (Send)";
        List<NcclWarning> l = NcclWarning.scan(List.of("NCCL INFO start", a, "[t2] " + a, b, a));
        assertEquals(2, l.size());
        assertEquals(12, l.get(0).status());
        assertTrue(l.get(1).meaning().contains("first warning"), "a flush names no cause of its own: " + l.get(1).meaning());
    }

    /** UCX's two-line error CQE (ucx #6000): status from the mlx5 syndrome, the QP line joined by its prefix. */
    @Test
    void ucxErrorCqeWithItsQpLine() {
        List<NcclWarning> l = NcclWarning.scan(List.of(
                "[compute001:31180:0:31180] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)",
                "[compute001:31175:0:31175] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x16 vend 0x81 hw_synd 0/0)",
                "[compute001:31180:0:31180] ib_mlx5_log.c:143  DCI QP 0x14e4 wqe[0]: SEND s-e [rqpn 0x2248a rmac 50:6b:4b:cb:be:ce sgix 0 dgid ::ffff:10.0.0.2 tc 0] [inl len 18]",
                "[compute001:31175:0:31175] ib_mlx5_log.c:143  RC QP 0x156d wqe[3]: RDMA_WRITE s-- [rva 0x7f00 rkey 0x2d] [va 0x7f10 len 8192 lkey 0x15]",
                // The same failure printed again by the same process: one warning.
                "[compute001:31180:0:31180] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)",
                "[compute001:31180:0:31180] ib_mlx5_log.c:143  DCI QP 0x14e4 wqe[0]: SEND s-e [rqpn 0x2248a rmac 50:6b:4b:cb:be:ce sgix 0 dgid ::ffff:10.0.0.2 tc 0] [inl len 18]"));
        assertEquals(2, l.size(), l.toString());
        NcclWarning dci = l.get(0);
        assertEquals(12, dci.status());
        assertEquals(0x15, dci.syndrome());
        assertEquals("UCX error CQE", dci.kind());
        assertEquals(0x81, dci.vendorErr());
        assertEquals("mlx5_0:1", dci.hca());
        assertEquals(0x14e4, dci.qpNum());
        assertEquals(0x2248a, dci.remoteQp());
        assertEquals(List.of("10.0.0.2", "::ffff:10.0.0.2"), dci.peerAddresses());
        assertTrue(dci.describe().contains("mlx5 syndrome 0x15") && dci.describe().contains("remote QP 0x2248a"), dci.describe());
        NcclWarning rc = l.get(1);
        assertEquals(13, rc.status(), "synd 0x16: RNR retry counter exceeded");
        assertEquals(0x156d, rc.qpNum());
        assertNull(rc.remoteQp());
        assertTrue(rc.peerAddresses().isEmpty());
        assertTrue(rc.meaning().startsWith("RNR retry"), rc.meaning());
    }

    @Test
    void ucxOneLineFormsAndWhatIsNotOne() {
        NcclWarning old = NcclWarning.parse("[ast1815:6807 :0:6807] ib_mlx5_log.c:115  FATAL: Error on mlx5_3:1 QP 0xe6d7 "
                + "wqe[7821]: Transport retry count exceeded (synd 0x15 vend 0x81) opcode SEND");
        assertEquals(12, old.status());
        assertEquals(0xe6d7, old.qpNum());
        assertEquals("mlx5_3:1", old.hca());
        // The QP line alone is no warning; an unknown syndrome has no status but still the QP key.
        assertNull(NcclWarning.parse("[h:1:0:1] ib_mlx5_log.c:143  DCI QP 0x14e4 wqe[0]: SEND s-e [rqpn 0x2248a]"));
        NcclWarning odd = NcclWarning.parse("Error on QP 0x12 wqe[001]: Generic (synd 0x99 vend 0x0 hw 0x0) opcode SEND");
        assertNull(odd.status());
        assertEquals(0x12, odd.qpNum());
        assertTrue(odd.meaning().contains("GENERAL_ERR"), odd.meaning());
        // A QP line with another prefix does not join an error line (processes interleave); the error stays alone.
        List<NcclWarning> l = NcclWarning.scan(List.of(
                "[a:1:0:1] x.c:1 Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)",
                "[b:2:0:2] x.c:1 RC QP 0x77 wqe[0]: SEND s-e"));
        assertEquals(1, l.size());
        assertNull(l.get(0).qpNum());
    }

    /** The lookup a warning gives equals the one its keys give as --qp/--peer: the dead QP of the truth. */
    @Test
    void lookupOnTheRetryExhaustedSample() throws Exception {
        DiagnosisTruthTest.Run run = DiagnosisTruthTest.run("rocev2-retry-exhausted");
        String dead = run.diagnosis().findings().stream().filter(f -> f.rule().equals("qp-retry-exhausted"))
                .findFirst().orElseThrow().subject();
        String peer = dead.substring(dead.indexOf('>') + 1, dead.indexOf('/'));
        NcclWarning w = NcclWarning.parse("NET/IB: Got completion from peer 192.168.0.9<7> with status=12 opcode=0 len=0 "
                + "vendor err 129 (Send) localGid ::ffff:10.0.0.1 remoteGids::ffff:" + peer + " hca mlx5_0");
        Diagnosis byWarning = new DiagnosisOptions(null, null, null, Diagnoser.DEFAULT_PFC_WATCHDOG_NS, List.of(w)).apply(run.diagnosis());
        Diagnosis byPeer = new DiagnosisOptions(null, null, peer).apply(run.diagnosis());
        assertEquals(byPeer.flows(), byWarning.flows());
        assertEquals(byPeer.findings(), byWarning.findings());
        assertTrue(byWarning.findings().stream().anyMatch(f -> f.subject().equals(dead)));
        assertEquals("--peer " + peer, byWarning.lookup(), "the mapped form found nothing and is not listed");
        assertEquals(List.of(w), byWarning.nccl());
        assertTrue(byWarning.toJsonMap().toString().contains("status_name=IBV_WC_RETRY_EXC_ERR"));

        // Two warnings (two peers, one unknown to the capture): the union, in the complete diagnosis' order.
        NcclWarning other = NcclWarning.parse("Got completion from peer 10.9.9.9<1> with error 12, opcode 0, len 0, vendor err 129 (Send)");
        Diagnosis both = new DiagnosisOptions(null, null, null, Diagnoser.DEFAULT_PFC_WATCHDOG_NS, List.of(other, w)).apply(run.diagnosis());
        assertEquals(byPeer.flows().keySet(), both.flows().keySet());
        // UCX names the dead QP's destination QP (rqpn) and the peer's GID: the same flows as --peer, the dead one
        // first found by its destination QP even where nothing answered it.
        Integer destQp = Integer.parseInt(dead.substring(dead.indexOf("/0x") + 3), 16);
        List<NcclWarning> ucx = NcclWarning.scan(List.of(
                "[n1:7:0:7] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)",
                String.format("[n1:7:0:7] ib_mlx5_log.c:143  RC QP 0xabcdef wqe[0]: SEND s-e [rqpn 0x%x dgid ::ffff:%s tc 0]", destQp, peer)));
        Diagnosis byUcx = new DiagnosisOptions(null, null, null, Diagnoser.DEFAULT_PFC_WATCHDOG_NS, ucx).apply(run.diagnosis());
        assertTrue(byUcx.flows().containsKey(dead), byUcx.flows().toString());
        assertTrue(byPeer.flows().keySet().containsAll(byUcx.flows().keySet()));
        assertTrue(byUcx.findings().stream().anyMatch(f -> f.subject().equals(dead)));
        // A time stamp on the line: the report says where it falls against the capture (the sample starts 2026-01-01).
        NcclWarning late = NcclWarning.parse("2026-01-01T00:03:00Z " + w.line());
        assertEquals(new LogTime(1_767_225_780_000_000_000L, true), late.loggedAt());
        StringBuilder text = new StringBuilder();
        new DiagnosisOptions(null, null, null, Diagnoser.DEFAULT_PFC_WATCHDOG_NS, List.of(late)).apply(run.diagnosis()).appendText(text);
        assertTrue(text.toString().matches("(?s).*\\n    logged at 2026-01-01T00:03:00.000000Z, 3\\.0 min after the capture's "
                + "first frame \\(2026-01-01T00:00:00\\.\\d{6}Z\\)\\n.*"), text.toString());
        NcclWarning early = NcclWarning.parse("[1767225000.5] " + w.line());
        text.setLength(0);
        new DiagnosisOptions(null, null, null, Diagnoser.DEFAULT_PFC_WATCHDOG_NS, List.of(early)).apply(run.diagnosis()).appendText(text);
        assertTrue(text.toString().contains("before the capture's first frame") && text.toString().contains("cannot hold"), text.toString());
        assertEquals("2026-01-01T00:03:00Z", late.toJsonMap().get("logged_at"));
        // Several time-stamped warnings: the one logged first is named (a job's first error is the cause).
        text.setLength(0);
        Diagnosis two = new DiagnosisOptions(null, null, null, Diagnoser.DEFAULT_PFC_WATCHDOG_NS, List.of(late, early)).apply(run.diagnosis());
        two.appendText(text);
        assertTrue(text.toString().contains("NCCL warning 2 of 2 (the first logged: the others may be its consequences): "), text.toString());
        assertFalse(text.toString().contains("1 of 2 (the first"), text.toString());
        assertEquals(1, ((Map<?, ?>) two.toJsonMap().get("lookup")).get("nccl_first_logged"));
        text.setLength(0);
        new DiagnosisOptions(null, null, null, Diagnoser.DEFAULT_PFC_WATCHDOG_NS, List.of(late, w)).apply(run.diagnosis()).appendText(text);
        assertFalse(text.toString().contains("the first logged"), "one without a time stamp: no order to tell");
        assertNull(w.toJsonMap().get("logged_at"));
        // --qp given with the warning replaces its QP key (none here): flows with that QPN towards the peer only.
        Integer qpn = Integer.parseInt(dead.substring(dead.indexOf("/0x") + 3), 16);
        Diagnosis narrowed = new DiagnosisOptions(null, qpn, null, Diagnoser.DEFAULT_PFC_WATCHDOG_NS, List.of(w)).apply(run.diagnosis());
        assertEquals(new DiagnosisOptions(null, qpn, peer).apply(run.diagnosis()).flows(), narrowed.flows());
    }
}
