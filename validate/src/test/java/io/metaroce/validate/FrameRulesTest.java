package io.metaroce.validate;

import static io.metaroce.validate.BuiltCapture.A;
import static io.metaroce.validate.BuiltCapture.B;
import static io.metaroce.validate.BuiltCapture.v1;
import static io.metaroce.validate.BuiltCapture.v2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.protocol.Severity;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rule per capture, built with the FrameBuilder: the capture breaks only that rule, which is reported at the
 * right frame with the severity its tap allows; the same frames built to the spec give no finding.
 */
class FrameRulesTest {
    @TempDir
    Path dir;

    private FileResult run(BuiltCapture c, String tap, ValidateSettings.Builder b) throws Exception {
        Path f = c.write(dir.resolve("c" + System.nanoTime() + ".pcap"));
        FileResult r = FileValidator.validate(f, (tap == null ? b : b.tap(tap)).build(), false, null);
        assertNull(r.error(), r.error());
        return r;
    }

    private FileResult run(BuiltCapture c, String tap) throws Exception { return run(c, tap, new ValidateSettings.Builder()); }

    /** The findings are exactly one, of this rule, at this frame, with this severity. */
    private static void only(FileResult r, String rule, long frame, Severity sev) {
        List<Finding> fs = r.findings();
        assertEquals(1, fs.size(), () -> "expected only " + rule + " at " + frame + ", got " + fs);
        Finding f = fs.get(0);
        assertEquals(rule, f.rule(), f::toString);
        assertEquals(frame, f.frame(), f::toString);
        assertEquals(sev, f.severity(), f::toString);
    }

    private static BuiltCapture writes(int n, int firstPsn) {
        BuiltCapture c = new BuiltCapture();
        for (int i = 0; i < n; i++) c.add(v2(0x0A, A, B).payload(256).set("bth.psn", firstPsn + i).set("reth.dma_length", 256));
        return c;
    }

    @Test
    void cleanFramesGiveNoFinding() throws Exception {
        BuiltCapture c = writes(4, 100);
        c.add(v2(0x11, B, A).set("bth.psn", 103).set("aeth.syndrome", 0x1F).set("aeth.msn", 4).set("bth.dest_qp", 0x44));
        for (String tap : new String[] {"host:10.0.0.1", "host:10.0.0.2", "mirror", "auto"}) {
            FileResult r = run(c, tap);
            assertTrue(r.findings().isEmpty(), tap + ": " + r.findings());
        }
    }

    @Test
    void icrcIsAnErrorWhereTheNicCannotHaveFilledItInLater() throws Exception {
        BuiltCapture c = writes(3, 7);
        c.add(v2(0x0A, A, B).payload(256).set("bth.psn", 10).set("reth.dma_length", 256).corruptIcrc());
        only(run(c, "host:10.0.0.2"), "MR-FRAME-001", 4, Severity.ERROR);
        only(run(c, "mirror"), "MR-FRAME-001", 4, Severity.ERROR);
        only(run(c, "host:10.0.0.1"), "MR-FRAME-001", 4, Severity.NOTE);
        only(run(c, "host:10.0.0.1", new ValidateSettings.Builder().offloaded(false)), "MR-FRAME-001", 4, Severity.ERROR);
    }

    @Test
    void padOnAFirstPacket() throws Exception {
        BuiltCapture c = new BuiltCapture();
        c.add(v2(0x06, A, B).payload(254).set("bth.psn", 1).set("reth.dma_length", 1278));
        only(run(c, "mirror"), "MR-FRAME-004", 1, Severity.ERROR);
    }

    @Test
    void reservedBitsAreAWarning() throws Exception {
        BuiltCapture c = writes(2, 50);
        c.add(v2(0x0A, A, B).payload(256).set("bth.psn", 52).set("reth.dma_length", 256).set("bth.resv7", 5));
        only(run(c, "mirror"), "MR-HDR-003", 3, Severity.WARN);
        only(run(c, "mirror", new ValidateSettings.Builder().severity("MR-HDR-003", "error")), "MR-HDR-003", 3, Severity.ERROR);
        assertTrue(run(c, "mirror", new ValidateSettings.Builder().skipRules(List.of("MR-HDR-*"))).findings().isEmpty());
    }

    @Test
    void controlPacketFlags() throws Exception {
        BuiltCapture c = new BuiltCapture();
        c.add(v1(0xE4, false, A, B).set("probeeth.probe_seq", 1));
        c.add(v1(0xE4, false, A, B).set("probeeth.probe_seq", 2).set("bth.ack_req", 1));
        only(run(c, "mirror"), "MR-CTL-001", 2, Severity.ERROR);
    }

    @Test
    void udPayloadAbovePmtu() throws Exception {
        BuiltCapture c = new BuiltCapture();
        c.add(v2(0x64, A, B).payload(1024).set("bth.psn", 5));
        c.add(v2(0x64, A, B).payload(2048).set("bth.psn", 6));
        assertTrue(run(c, "mirror").findings().isEmpty());
        only(run(c, "mirror", new ValidateSettings.Builder().pmtu("0x000021", 1024)), "MR-UD-001", 2, Severity.ERROR);
    }

    @Test
    void pathRules() throws Exception {
        BuiltCapture c = new BuiltCapture();
        c.add(v1(0x0A, false, A, B).payload(256).set("bth.psn", 1).set("reth.dma_length", 256).set("mrth.msg_id", 1)
                .set("udp.srcport", 50000));
        c.add(v1(0x0A, false, A, B).payload(256).set("bth.psn", 2).set("reth.dma_length", 256).set("mrth.msg_id", 2)
                .set("udp.srcport", 50003).set("mrth.path_id", 3));
        only(run(c, "mirror"), "MR-PATH-001", 2, Severity.ERROR);
        BuiltCapture d = new BuiltCapture();
        d.add(v1(0x0A, true, A, B).payload(256).set("bth.psn", 1).set("reth.dma_length", 256).set("mrth.msg_id", 1)
                .set("udp.srcport", 50000));
        d.add(v1(0x0A, true, A, B).payload(256).set("bth.psn", 2).set("reth.dma_length", 256).set("mrth.msg_id", 2)
                .set("udp.srcport", 50001).set("mrth.path_id", 1));
        d.add(v1(0x0A, true, A, B).payload(256).set("bth.psn", 3).set("reth.dma_length", 256).set("mrth.msg_id", 3)
                .set("udp.srcport", 50009).set("mrth.path_id", 2));
        only(run(d, "mirror"), "MR-PATH-002", 3, Severity.ERROR);
    }

    @Test
    void skippedPsnIsAnErrorOnlyAtTheSendersTap() throws Exception {
        BuiltCapture c = writes(3, 1000);
        c.add(v2(0x0A, A, B).payload(256).set("bth.psn", 1005).set("reth.dma_length", 256));
        only(run(c, "host:10.0.0.1"), "MR-SEQ-001", 4, Severity.ERROR);
        only(run(c, "host:10.0.0.2"), "MR-SEQ-001", 4, Severity.NOTE);
        only(run(c, "mirror"), "MR-SEQ-001", 4, Severity.NOTE);
    }

    @Test
    void writeLengthAgainstItsReth() throws Exception {
        BuiltCapture c = writes(2, 1);
        c.add(v2(0x0A, A, B).payload(256).set("bth.psn", 3).set("reth.dma_length", 300));
        only(run(c, "host:10.0.0.1"), "MR-SEQ-004", 3, Severity.ERROR);
    }

    @Test
    void ackOfUnsentPsn() throws Exception {
        BuiltCapture c = writes(3, 20);
        c.add(v2(0x11, B, A).set("bth.psn", 25).set("aeth.syndrome", 0x1F).set("aeth.msn", 3).set("bth.dest_qp", 0x44));
        only(run(c, "host:10.0.0.1"), "MR-ACK-001", 4, Severity.ERROR);
        only(run(c, "mirror"), "MR-ACK-001", 4, Severity.NOTE);
    }
}
