package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * MetaRoCE v1 frames built from the spec tables (every tver-1 opcode, with and without spray, IPv4 and
 * IPv6, random values in every field of every header) decode field for field, with a good ICRC and no
 * expert error; a corrupted ICRC is reported.
 */
class MetaRoceRoundTripTest {
    private static final long SEED = 0x5EED_0001L;

    @Test
    void everyMetaRoceOpcodeRoundTripsFieldForField() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        int frames = 0, fieldsChecked = 0;
        for (OpcodeDef op : Spec.OPCODES_TVER1) {
            if (op == null) continue;
            for (boolean spray : new boolean[] {false, true}) {
                for (boolean v6 : new boolean[] {false, true}) {
                    FrameBuilder b = new FrameBuilder().opcode(op.code(), 1).spray(spray).ipv6(v6)
                            .payload(op.payload() ? (op.payloadBytes() >= 0 ? op.payloadBytes() : rnd.nextInt(0, 300)) : 0);
                    Map<String, Long> expected = new LinkedHashMap<>();
                    for (String h : new String[] {"mrth"}) randomFields(rnd, FrameBuilder.header(h), expected);
                    for (int h : b.chain()) randomFields(rnd, Spec.HEADERS.get(h), expected);
                    expected.put("mrth.version", 1L);
                    expected.put("mrth.spray", spray ? 1L : 0L);
                    expected.put("bth.psn", rnd.nextLong(1 << 24));
                    expected.put("bth.dest_qp", rnd.nextLong(1 << 24));
                    expected.forEach(b::set);
                    Dissection d = dissect(b.build());
                    String what = op.label() + (spray ? " spray" : "") + (v6 ? " ipv6" : "") + " seed=" + SEED;
                    assertEquals(IcrcStatus.GOOD, d.icrcStatus(), what);
                    assertTrue(d.expert().stream().noneMatch(e -> e.severity() == Severity.ERROR), what + ": " + d.expert());
                    assertEquals(op, d.opcode(), what);
                    FrameFields ff = new FrameFields().of(d);
                    for (var e : expected.entrySet()) {
                        FieldDef f = FieldCatalog.get().field(e.getKey());
                        assertEquals(1, ff.count(f), what + ": " + e.getKey());
                        assertEquals((long) e.getValue(), ff.longValue(f, 0), what + ": " + e.getKey());
                        fieldsChecked++;
                    }
                    frames++;
                }
            }
        }
        assertEquals(4 * 25 + 4 * 6, frames, "25 RC opcodes (0x00-0x14, 0x16-0x17, 0x1C-0x1D) and six MetaRoCE control opcodes, x spray x IP version");
        assertTrue(fieldsChecked > 1500, "fields checked: " + fieldsChecked);
    }

    @Test
    void sprayedWriteMiddleCarriesTheRethAndIsDecodedWithIt() {
        byte[] frame = new FrameBuilder().opcode(0x07, 1).spray(true).payload(256)
                .set("reth.dma_length", 4096).set("mrth.msg_offset", 256).set("mrth.path_id", 7).build();
        Dissection d = dissect(frame);
        assertEquals("eth:ip:udp:bth:mrth:reth", d.protocols());
        assertEquals(4096, d.get(FieldCatalog.get().field("reth.dma_length").id(), -1));
        assertEquals(256, d.payloadLength());
        Dissection plain = dissect(new FrameBuilder().opcode(0x07, 1).spray(false).payload(256).build());
        assertEquals("eth:ip:udp:bth:mrth", plain.protocols());
    }

    @Test
    void wrongIcrcIsReportedWithBothValues() {
        Dissection d = dissect(new FrameBuilder().opcode(0xE0, 1).corruptIcrc().build());
        assertEquals(IcrcStatus.BAD, d.icrcStatus());
        assertTrue(d.expert().stream().anyMatch(e -> e.group() == ExpertItem.Group.CHECKSUM
                && e.message().startsWith("bad ICRC 0x") && e.message().contains("computed 0x")), d.expert().toString());
    }

    @Test
    void metaRoceOpcodesUnderTver0AreVendorSpecificNotes() {
        // 0xE0 is MR-SACK only with tver 1; with tver 0 it is "vendor-specific, not decoded" (a note, §5).
        byte[] frame = new FrameBuilder().opcode(0x11, 0).set("bth.opcode", 0xE0).build();
        Dissection d = dissect(frame);
        assertEquals(null, d.opcode());
        assertTrue(d.expert().stream().anyMatch(e -> e.severity() == Severity.NOTE && e.message().contains("vendor-specific")), d.expert().toString());
    }

    private static void randomFields(SplittableRandom rnd, HeaderDef h, Map<String, Long> out) {
        for (int i = h.firstField(); i < h.firstField() + h.fieldCount(); i++) {
            FieldDef f = Spec.FIELDS.get(i);
            if (f.isSubfield() || f.bitWidth() > 64 || f.type() == io.metaroce.protocol.ValueType.BYTES) continue;
            long v = f.bitWidth() == 64 ? rnd.nextLong() : rnd.nextLong(1L << f.bitWidth());
            out.put(f.name(), v);
        }
    }

    private static Dissection dissect(byte[] frame) {
        return new Dissector().dissect(MemorySegment.ofArray(frame), 1, 0, frame.length, 1, -1, new Dissection());
    }
}
