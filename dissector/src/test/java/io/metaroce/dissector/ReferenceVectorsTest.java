package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.protocol.Severity;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The reference vectors of shared/reference/pcaps (copied into src/test/resources/vectors) decode to the
 * values their index files and rocev2-facts.md give (tshark 4.0.17 and scapy agree on them).
 */
class ReferenceVectorsTest {

    @Test
    void workedExampleWriteOnlyHasTheDocumentedFieldsAndIcrc() throws Exception {
        DissectedFrame f = DissectedFrame.read(DissectedFrame.vector("roce_write_only_icrc.pcap")).get(0);
        assertEquals("eth:ip:udp:bth:reth", f.protocols());
        assertEquals(0x0A, f.num("bth.opcode"));
        assertEquals(0xFFFF, f.num("bth.p_key"));
        assertEquals(0x12, f.num("bth.dest_qp"));
        assertEquals(1, f.num("bth.ack_req"));
        assertEquals(203, f.num("bth.psn"));
        assertEquals(0x00007f0000002000L, f.num("reth.virtual_address"));
        assertEquals(0x5678, f.num("reth.r_key"));
        assertEquals(16, f.num("reth.dma_length"));
        assertEquals(16, f.num("payload.len"));
        assertEquals("192.168.1.10", f.first("ip.src"));
        assertEquals(26, f.num("ip.dscp"));
        assertEquals(2, f.num("ip.ecn"));
        // rocev2-facts.md §5: wire bytes 1f a2 a6 c1 are the CRC value 0xC1A6A21F.
        assertEquals(0xC1A6A21FL, f.num("icrc.value"));
        assertEquals(IcrcStatus.GOOD, f.icrc());
        assertTrue(f.expert().isEmpty(), f.expert().toString());
    }

    @Test
    void oracleCaptureDecodesEveryOpcodeFamily() throws Exception {
        List<DissectedFrame> frames = DissectedFrame.read(DissectedFrame.vector("roce_v4_oracle.pcap"));
        assertEquals(25, frames.size());
        // frame -> {opcode, dest_qp, psn} from tshark_oracle.out.txt
        long[][] bth = {{4, 0x12, 100}, {6, 0x12, 200}, {7, 0x12, 201}, {8, 0x12, 202}, {10, 0x12, 203}, {12, 0x12, 204},
                {13, 0x11, 204}, {14, 0x11, 205}, {15, 0x11, 206}, {17, 0x11, 203}, {17, 0x11, 207}, {17, 0x11, 208},
                {129, 0x11, 0}, {100, 0x33, 16}, {5, 0x12, 209}, {23, 0x12, 210}, {11, 0x12, 211}, {19, 0x12, 212},
                {20, 0x12, 213}, {18, 0x11, 212}, {17, 0x11, 214}, {17, 0x11, 214}, {17, 0x11, 214}, {17, 0x11, 213},
                {36, 0x12, 5}};
        for (int i = 0; i < 25; i++) {
            DissectedFrame f = frames.get(i);
            assertEquals(bth[i][0], f.num("bth.opcode"), "opcode of frame " + (i + 1));
            assertEquals(bth[i][1], f.num("bth.dest_qp"), "dest_qp of frame " + (i + 1));
            assertEquals(bth[i][2], f.num("bth.psn"), "psn of frame " + (i + 1));
            assertEquals(IcrcStatus.GOOD, f.icrc(), "ICRC of frame " + (i + 1));
            assertTrue(f.expert().isEmpty(), "frame " + (i + 1) + ": " + f.expert());
        }
        // Extension headers (tshark_oracle.out.txt, block 2).
        assertEquals(0x00007f0000001000L, frames.get(1).num("reth.virtual_address"));
        assertEquals(2560, frames.get(1).num("reth.dma_length"));
        assertEquals(3072, frames.get(5).num("reth.dma_length"));
        assertEquals(0x11111111L, frames.get(13).num("deth.q_key"));
        assertEquals(0x22, frames.get(13).num("deth.src_qp"));
        assertEquals(2, frames.get(13).num("bth.pad_cnt"));
        assertEquals(10, frames.get(13).num("payload.len"));
        assertEquals(0xDEADBEEFL, frames.get(14).num("immdt.immediate"));
        assertEquals(0x00ABCDEFL, frames.get(15).num("ieth.r_key"));
        assertEquals(0xCAFEF00DL, frames.get(16).num("immdt.immediate"));
        assertEquals(4369, frames.get(17).num("atomiceth.swap_or_add"));
        assertEquals(8738, frames.get(17).num("atomiceth.compare"));
        assertEquals(0x00007f0000004000L, frames.get(17).num("atomiceth.virtual_address"));
        assertEquals(8738, frames.get(19).num("atomicacketh.original_remote_data"));
        // AETH: syndrome byte and its kind/code (block 3).
        long[][] aeth = {{7, 31, 0, 31, 3}, {9, 31, 0, 31, 4}, {10, 31, 0, 31, 3}, {11, 96, 3, 0, 4}, {12, 46, 1, 14, 4},
                {20, 31, 0, 31, 7}, {21, 97, 3, 1, 7}, {22, 98, 3, 2, 7}, {23, 99, 3, 3, 7}, {24, 8, 0, 8, 7}};
        for (long[] a : aeth) {
            DissectedFrame f = frames.get((int) a[0] - 1);
            assertEquals(a[1], f.num("aeth.syndrome"), "syndrome of frame " + a[0]);
            assertEquals(a[2], f.num("aeth.syndrome.kind"), "kind of frame " + a[0]);
            assertEquals(a[3], f.num("aeth.syndrome.code"), "code of frame " + a[0]);
            assertEquals(a[4], f.num("aeth.msn"), "msn of frame " + a[0]);
        }
        // ICRC values: tshark prints the wire bytes read big-endian (block 3); ours is the CRC value.
        long[][] icrc = {{7, 0x5da301e9L}, {9, 0xf7fb67ddL}, {10, 0xb46f0f32L}, {11, 0xb4e73e24L}, {12, 0xf7fc8b8fL},
                {14, 0x2d973945L}, {18, 0xf5f500c7L}, {20, 0xcf6b1075L}, {1, 0xccb748e2L}, {16, 0xae40eb3cL}};
        for (long[] c : icrc) {
            assertEquals(Integer.toUnsignedLong(Integer.reverseBytes((int) c[1])), frames.get((int) c[0] - 1).num("icrc.value"),
                    "ICRC of frame " + c[0]);
        }
        // The CNP: BECN set, 16 reserved bytes, ICRC good (tshark cannot decode 0x81 at all).
        DissectedFrame cnp = frames.get(12);
        assertEquals("eth:ip:udp:bth:cnp", cnp.protocols());
        assertEquals(1, cnp.num("bth.becn"));
        assertEquals(48, cnp.num("ip.dscp"));
    }

    @Test
    void ipv6AndVlanFramesDecodeWithTheirAddressesAndTags() throws Exception {
        List<DissectedFrame> v6 = DissectedFrame.read(DissectedFrame.vector("roce_v6.pcap"));
        assertEquals("eth:ipv6:udp:bth:reth", v6.get(0).protocols());
        assertEquals(0x12345, v6.get(0).num("ipv6.flow"));
        assertEquals(300, v6.get(0).num("bth.psn"));
        assertEquals(16, v6.get(0).num("reth.dma_length"));
        assertEquals(0x00042d4aL, v6.get(0).num("icrc.value")); // rocev2-facts.md §5: three implementations agree
        assertEquals(IcrcStatus.GOOD, v6.get(0).icrc());
        assertEquals(1, v6.get(1).num("aeth.msn"));
        assertEquals(IcrcStatus.GOOD, v6.get(1).icrc());
        List<DissectedFrame> vlan = DissectedFrame.read(DissectedFrame.vector("roce_vlan.pcap"));
        assertEquals("eth:vlan:ip:udp:bth:reth", vlan.get(0).protocols());
        assertEquals(100, vlan.get(0).num("vlan.id"));
        assertEquals(3, vlan.get(0).num("vlan.pcp"));
        assertEquals(400, vlan.get(0).num("bth.psn"));
        assertEquals(Integer.toUnsignedLong(Integer.reverseBytes(0x9c2cfec6)), vlan.get(0).num("icrc.value"));
        assertEquals(IcrcStatus.GOOD, vlan.get(0).icrc());
    }

    @Test
    void edgeCasesGetTheRightVerdicts() throws Exception {
        List<DissectedFrame> frames = DissectedFrame.read(DissectedFrame.vector("roce_edge.pcap"));
        // 1: opcode 0x80 is the CNP class, not the RoCEv2 CNP: a warning, not decoded.
        assertTrue(frames.get(0).expert().stream().anyMatch(e -> e.severity() == Severity.WARN && e.message().contains("CNP class")));
        // 2: XRC SEND Only carries an XRCETH (tshark does not parse it).
        assertEquals("eth:ip:udp:bth:xrceth", frames.get(1).protocols());
        // 3: RD SEND Only: RDETH, DETH (tshark mis-decodes RD as Mellanox DC).
        assertEquals("eth:ip:udp:bth:rdeth:deth", frames.get(2).protocols());
        assertEquals(0x55, frames.get(2).num("rdeth.ee_context"));
        assertEquals(IcrcStatus.GOOD, frames.get(2).icrc());
        // 4: bad ICRC de ad be ef is caught (tshark shows it silently).
        assertEquals(IcrcStatus.BAD, frames.get(3).icrc());
        assertEquals(0xEFBEADDEL, frames.get(3).num("icrc.value"));
        assertTrue(frames.get(3).expert().stream().anyMatch(e -> e.severity() == Severity.ERROR && e.message().contains("bad ICRC")));
        // 5: UDP 4792 is not RoCE unless asked (tshark -d udp.port==4792,infiniband).
        assertFalse(frames.get(4).has("bth.opcode"));
        DissectedFrame asked = DissectedFrame.read(DissectedFrame.vector("roce_edge.pcap"),
                new Dissector(DissectorConfig.DEFAULT.withPorts(Set.of(4791, 4792)))).get(4);
        assertEquals(4, asked.num("bth.opcode"));
        assertEquals(503, asked.num("bth.psn"));
        // 6: ECN CE and FECN rewritten in flight: the ICRC still verifies (both are masked).
        assertEquals(3, frames.get(5).num("ip.ecn"));
        assertEquals(1, frames.get(5).num("bth.fecn"));
        assertEquals(IcrcStatus.GOOD, frames.get(5).icrc());
    }

    @Test
    void connectionManagementMadsYieldQpnsStartingPsnsAndIpCmHeader() throws Exception {
        List<DissectedFrame> frames = DissectedFrame.read(DissectedFrame.vector("roce_cm.pcap"));
        DissectedFrame req = frames.get(0), rep = frames.get(1);
        assertEquals("eth:ip:udp:bth:deth:mad:cm_req:ip_cm", req.protocols());
        assertEquals(0x80010000L, req.num("deth.q_key"));
        assertEquals(0x07, req.num("mad.mgmt_class"));
        assertEquals(0x0010, req.num("mad.attribute_id"));
        assertEquals(0x12345678L, req.num("mad.transaction_id"));
        assertEquals(0x11, req.num("cm_req.local_qpn"));
        assertEquals(100, req.num("cm_req.starting_psn"));
        assertEquals(0x0000000001064E21L, req.num("cm_req.service_id"));
        assertEquals(3, req.num("cm_req.path_mtu")); // IB MTU code 3 = 1024 bytes
        assertEquals(40000, req.num("ip_cm.src_port"));
        assertEquals("::ffff:192.168.1.10", req.first("ip_cm.src_ip"));
        assertEquals("::ffff:192.168.1.20", req.first("ip_cm.dst_ip"));
        assertEquals("eth:ip:udp:bth:deth:mad:cm_rep", rep.protocols());
        assertEquals(0x12, rep.num("cm_rep.local_qpn"));
        assertEquals(5000, rep.num("cm_rep.starting_psn"));
        assertTrue(frames.get(2).protocols().endsWith("cm_rtu"));
        assertTrue(frames.get(5).protocols().endsWith("cm_dreq"));
        assertEquals(0x12, frames.get(5).num("cm_dreq.remote_qpn"));
        assertTrue(frames.get(6).protocols().endsWith("cm_drep"));
        for (DissectedFrame f : frames) assertEquals(IcrcStatus.GOOD, f.icrc(), "frame " + f.number());
    }
}
