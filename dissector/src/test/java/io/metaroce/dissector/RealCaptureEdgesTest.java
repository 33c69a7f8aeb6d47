package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.protocol.Severity;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Edges real captures showed (issue 9): frames a capturing device cut without recording it (item 2), and ICRCs
 * broken by a capture point that rewrote the UDP source port (item 9).
 */
class RealCaptureEdgesTest {
    private final Dissector dissector = new Dissector();

    /** Vector frames over IPv4/IPv6 UDP with a good ICRC. */
    private java.util.List<TestFrames.Frame> goodRoceV2() {
        Dissection d = new Dissection();
        return TestFrames.vectors().stream().filter(f -> {
            f.dissect(dissector, d);
            return d.icrcStatus() == IcrcStatus.GOOD && !d.isRoceV1();
        }).toList();
    }

    @Test
    void icrcBrokenOnlyByARewrittenSourcePortNamesThePort() {
        Dissection d = new Dissection();
        int n = 0;
        for (TestFrames.Frame f : goodRoceV2()) {
            f.dissect(dissector, d);
            int sportAt = d.bthOffset() - 8;
            byte[] b = f.bytes().clone();
            int original = ((b[sportAt] & 0xFF) << 8) | (b[sportAt + 1] & 0xFF);
            int rewritten = original == 4791 ? 4792 : 4791;
            b[sportAt] = (byte) (rewritten >>> 8);
            b[sportAt + 1] = (byte) rewritten;
            dissector.dissect(MemorySegment.ofArray(b), 1, 0, f.originalLength(), f.linkType(), f.fcsLength(), d);
            assertEquals(IcrcStatus.BAD, d.icrcStatus(), f.label());
            assertEquals(original, d.icrcMatchingPort(), f.label());
            String want = String.format("ICRC matches with UDP source port 0x%04x: the port was rewritten after the sender", original);
            assertTrue(d.expert().stream().anyMatch(e -> e.message().contains(want)), f.label() + " " + d.expert());
            n++;
        }
        assertTrue(n >= 20, "frames tried: " + n);
    }

    @Test
    void icrcBrokenElsewhereNamesNoPort() {
        Dissection d = new Dissection();
        for (TestFrames.Frame f : goodRoceV2()) {
            f.dissect(dissector, d);
            byte[] b = f.bytes().clone();
            int at = d.bthOffset() + 9; // PSN: invariant, not a port
            b[at] ^= 0x01;
            dissector.dissect(MemorySegment.ofArray(b), 1, 0, f.originalLength(), f.linkType(), f.fcsLength(), d);
            assertEquals(IcrcStatus.BAD, d.icrcStatus(), f.label());
            assertEquals(-1, d.icrcMatchingPort(), f.label());
            assertTrue(d.expert().stream().noneMatch(e -> e.message().contains("matches with UDP source port")), f.label());
        }
    }

    /** A device cut the frame inside the payload and recorded orig_len = cap_len: no ICRC verdict, one clear item. */
    @Test
    void frameShorterThanItsIpLengthIsUncheckedNotBad() {
        Dissection clean = new Dissection(), d = new Dissection();
        int n = 0;
        for (TestFrames.Frame f : goodRoceV2()) {
            f.dissect(dissector, clean);
            if (clean.payloadLength() < 8 || clean.fcsStatus() != null) continue;
            int cut = clean.payloadOffset() + 4;
            byte[] b = Arrays.copyOf(f.bytes(), cut);
            dissector.dissect(MemorySegment.ofArray(b), 1, 0, cut, f.linkType(), f.fcsLength(), d);
            assertEquals(IcrcStatus.UNCHECKED, d.icrcStatus(), f.label() + " " + d.expert());
            assertTrue(d.shortFrame(), f.label());
            assertFalse(d.truncated(), f.label() + ": not a snap-length cut");
            assertEquals(clean.payloadLength(), d.payloadLength(), f.label());
            assertTrue(d.expert().stream().anyMatch(e -> e.severity() == Severity.WARN
                    && e.message().startsWith("frame shorter than its IP length")), f.label() + " " + d.expert());
            assertTrue(d.expert().stream().noneMatch(e -> e.message().contains("ICRC 0x")), f.label() + " " + d.expert());
            n++;
        }
        assertTrue(n >= 10, "frames tried: " + n);
    }

    /** The external captures folder (-Dmetaroce.external or ../shared/reference/external-pcaps), or null. */
    static Path externalDir() {
        String p = System.getProperty("metaroce.external");
        for (String c : p != null && !p.isBlank() ? new String[] {p}
                : new String[] {"../../shared/reference/external-pcaps", "../shared/reference/external-pcaps"}) {
            if (Files.isRegularFile(Path.of(c, "SOURCES.md"))) return Path.of(c);
        }
        return null;
    }

    static Path external(String name) {
        Path d = externalDir();
        return d != null && Files.isRegularFile(d.resolve(name)) ? d.resolve(name) : null;
    }

    /** Item 4: Mellanox DC reuses the RD opcodes with an 8-byte header after the BTH; decoded as tshark does. */
    @Test
    void mellanoxDcIsDecodedLikeTshark() throws Exception {
        Path f = external("m3_dc-small.pcap");
        Assumptions.assumeTrue(f != null, "external captures not found (../shared/reference/external-pcaps)");
        java.util.List<DissectedFrame> frames = DissectedFrame.read(f);
        DissectedFrame w = frames.get(0), ack = frames.get(2);
        assertEquals("eth:ip:udp:bth:dceth:rdeth:deth:reth", w.protocols());
        assertEquals(8, w.num("reth.dma_length"));
        assertEquals(0x7fb235d09a00L, w.num("reth.virtual_address"));
        assertEquals(0x53829, w.num("reth.r_key"));
        assertEquals(6414926, w.num("rdeth.ee_context"));
        assertEquals(0xc0dc, w.num("deth.q_key"));
        assertEquals("eth:ip:udp:bth:dceth:aeth", ack.protocols());
        assertEquals(6414927, ack.num("aeth.msn"));
        for (DissectedFrame x : frames) {
            for (String r : new String[] {"rdeth.resv8", "deth.resv8"}) {
                if (x.has(r)) assertEquals(0, x.num(r), "frame " + x.number() + " " + r + ": no misaligned header");
            }
        }
    }

    /** SOURCES.md: rdma-nccl2 holds 489 frames cut to 243 bytes (orig_len = cap_len) and bad ICRCs (one port per QP). */
    @Test
    void rdmaNccl2CutFramesAndRewrittenPort() throws Exception {
        Path f = external("m3_rdma-nccl2.pcap");
        Assumptions.assumeTrue(f != null, "external captures not found (../shared/reference/external-pcaps)");
        int cut = 0, bad = 0, good = 0;
        Dissection d = new Dissection();
        try (PacketSource src = CaptureFiles.open(f)) {
            while (src.next()) {
                dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength(), d);
                if (d.shortFrame()) {
                    cut++;
                    assertEquals(IcrcStatus.UNCHECKED, d.icrcStatus(), "frame " + d.number());
                }
                if (d.icrcStatus() == IcrcStatus.BAD) {
                    bad++;
                    assertTrue(d.icrcMatchingPort() >= 0, "frame " + d.number() + ": every bad ICRC has its port");
                    if (d.number() == 12) assertEquals(0xf046, d.icrcMatchingPort());
                }
                if (d.icrcStatus() == IcrcStatus.GOOD) good++;
            }
        }
        assertEquals(489, cut);
        assertEquals(20, bad);
        assertEquals(0, good);
    }

    /** Item 5: native InfiniBand in ERF records decodes like tshark: LRH (and GRH), BTH, CM, SEND, READ, WRITE, ACK. */
    @Test
    void erfInfiniBandDecodes() throws Exception {
        Path f = external("m3_ib2.pcap");
        Assumptions.assumeTrue(f != null, "external captures not found (../shared/reference/external-pcaps)");
        java.util.List<DissectedFrame> frames = DissectedFrame.read(f);
        assertEquals(127, frames.size());
        java.util.Set<String> stacks = new java.util.TreeSet<>();
        for (DissectedFrame x : frames) {
            assertTrue(x.protocols().startsWith("lrh:"), "frame " + x.number() + " " + x.protocols());
            assertTrue(x.has("bth.opcode"), "frame " + x.number());
            assertTrue(x.expert().stream().noneMatch(e -> e.severity() == Severity.ERROR), "frame " + x.number() + " " + x.expert());
            stacks.add(x.protocols());
        }
        DissectedFrame req = frames.get(2);
        assertTrue(req.protocols().startsWith("lrh:bth:deth:mad:cm_req"), req.protocols());
        assertEquals(18, req.num("lrh.slid"));
        assertEquals(12, req.num("lrh.dlid"));
        assertEquals(2, req.num("lrh.lnh"));
        assertTrue(stacks.containsAll(java.util.List.of("lrh:grh:bth:deth", "lrh:bth:reth", "lrh:bth:aeth")), stacks.toString());
    }
}
