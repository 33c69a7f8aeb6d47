package io.metaroce.validate;

import static io.metaroce.validate.BuiltCapture.A;
import static io.metaroce.validate.BuiltCapture.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.dissector.FrameBuilder;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.ValueType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MR-HDR-003 on every reserved bit the builder can set: every numeric reserved field of every header of every
 * opcode's chain (both transport versions, sprayed and not), set to its lowest bit, its highest bit and all ones,
 * each in a frame of its own, is reported at that frame and named; the same frames with the field 0 give no
 * MR-HDR-003. The rule first tests the reserved bits of a frame's headers as a few precomputed byte masks and
 * reads the fields one by one only when one is set: a mask that missed a bit would let that frame pass here.
 */
class ReservedFieldsTest {
    @TempDir
    Path dir;

    /** A frame of the opcode to set one field in, with the frame's own defaults. */
    private record Kind(OpcodeDef op, int tver, boolean spray) {
        /** Each frame its own PSN: two equal frames in a row would be a capture duplicate, judged once. */
        FrameBuilder frame(long psn) {
            FrameBuilder b = tver == 0 ? BuiltCapture.v2(op.code(), A, B) : BuiltCapture.v1(op.code(), spray, A, B);
            b.set("bth.psn", psn);
            if (op.payload() && op.payloadBytes() < 0) b.payload(256);
            return b;
        }

        /** The headers of the frame the builder writes (before the chain: IP, UDP, BTH, and MRTH for tver 1). */
        Set<Integer> headers() {
            Set<Integer> h = new LinkedHashSet<>(List.of(Ip.HEADER, io.metaroce.protocol.Udp.HEADER, io.metaroce.protocol.Bth.HEADER));
            if (tver == 1) h.add(Mrth.HEADER);
            for (int c : op.chain(spray)) h.add(c);
            return h;
        }
    }

    @Test
    void everyReservedBitIsFound() throws Exception {
        List<Kind> kinds = new ArrayList<>();
        // Not UD (its own checks) nor RD: the dissector reads RD opcodes with Mellanox DC's header chain, which
        // the builder does not write.
        for (OpcodeDef op : Spec.OPCODES_TVER0) {
            if (op != null && !"ud".equals(op.service()) && !"rd".equals(op.service())) kinds.add(new Kind(op, 0, false));
        }
        for (OpcodeDef op : Spec.OPCODES_TVER1) {
            if (op == null || "ud".equals(op.service()) || "rd".equals(op.service())) continue;
            kinds.add(new Kind(op, 1, false));
            if (op.sprayChain() != null) kinds.add(new Kind(op, 1, true));
        }
        BuiltCapture c = new BuiltCapture();
        Map<Long, String> expected = new TreeMap<>();
        Set<Long> clean = new LinkedHashSet<>();
        Set<String> fieldsCovered = new LinkedHashSet<>();
        long frame = 0;
        for (Kind k : kinds) {
            c.add(k.frame(frame + 1));
            clean.add(++frame);
            for (int h : k.headers()) {
                var hd = Spec.HEADERS.get(h);
                for (int fid = hd.firstField(); fid < hd.firstField() + hd.fieldCount(); fid++) {
                    FieldDef fd = Spec.FIELDS.get(fid);
                    if (!fd.reserved() || fd.type() == ValueType.BYTES || fd.bitWidth() > 64) continue;
                    int w = fd.mask() != 0 ? Long.bitCount(fd.mask()) : fd.bitWidth();
                    for (long v : new LinkedHashSet<>(List.of(1L, 1L << (w - 1), w == 64 ? -1L : (1L << w) - 1))) {
                        c.add(k.frame(frame + 1).set(fd.name(), v));
                        expected.put(++frame, fd.name() + " = 0x" + Long.toHexString(v));
                        fieldsCovered.add(fd.name());
                    }
                }
            }
        }
        Path f = c.write(dir.resolve("reserved.pcap"));
        FileResult r = FileValidator.validate(f, new ValidateSettings.Builder().tap("mirror").build(), false, null);
        assertNull(r.error(), r.error());
        Map<Long, String> found = new TreeMap<>();
        for (Finding x : r.findings()) if (x.rule().equals("MR-HDR-003")) found.put(x.frame(), x.message());
        for (var e : expected.entrySet()) {
            String m = found.get(e.getKey());
            Supplier<String> why = () -> "frame " + e.getKey() + " sets " + e.getValue() + ": " + m;
            assertTrue(m != null && m.contains(e.getValue()), why);
        }
        for (long n : clean) assertNull(found.get(n), () -> "frame " + n + " has no reserved bit set: " + found.get(n));
        assertEquals(expected.size(), found.size(), "MR-HDR-003 on exactly the frames that set a reserved bit");
        // The frames reach the reserved fields of the transport headers, MetaRoCE's and the extension headers.
        assertTrue(fieldsCovered.containsAll(List.of("ip.flags_rb", "bth.resv7", "bth.resv6", "mrth.resv_flags")), fieldsCovered::toString);
        assertTrue(fieldsCovered.size() >= 10, fieldsCovered::toString);
    }
}
