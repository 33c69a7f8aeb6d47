package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.metaroce.dissector.FieldNode.Kind;
import io.metaroce.protocol.Expert;
import io.metaroce.protocol.HeaderDef;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The GUI's field tree ({@link KaitaiFrameTree}: Kaitai values and Kaitai byte ranges) agrees with the flyweight
 * dissector's ({@link FrameTree}) on every frame of every bundled sample: same layers at the same bytes, and for
 * every field of the catalogue the same display text (value, enum name) and the same bytes, every field inside its
 * header. Frames cut short or with an unknown opcode give what was readable plus an expert item, never an exception.
 */
class KaitaiFrameTreeTest {
    /** Link layers the Kaitai entry point (Ethernet) does not model; their transport is still parsed by Kaitai. */
    private static final Set<String> NO_KAITAI = Set.of("sll", "sll2");

    @Test
    void everyFrameOfEverySampleAgreesWithTheFlyweights() throws Exception {
        FrameFields ff = new FrameFields();
        long[] fields = {0}, bitFields = {0}, trailers = {0};
        List<String> problems = new ArrayList<>();
        long frames = FrameTreeTest.forEachSampleFrame((d, where) -> {
            String ctx = where + " " + d.protocols() + ": ";
            FrameTree flyweight = FrameTree.of(d, ff.of(d));
            KaitaiLayers k = KaitaiFrameTree.parse(d);
            FrameTree kaitai = KaitaiFrameTree.of(d, ff, k);
            FrameTreeTest.check(kaitai, d, ctx);
            long[] n = compare(flyweight, kaitai, k, d, ctx, problems);
            fields[0] += n[0];
            bitFields[0] += n[1];
            trailers[0] += n[2];
            if (problems.size() > 20) fail(String.join("\n", problems));
        });
        if (!problems.isEmpty()) fail(problems.size() + " disagreements:\n" + String.join("\n", problems));
        assertTrue(frames > 1000, "frames: " + frames);
        assertTrue(fields[0] > 20 * frames, "fields compared: " + fields[0]);
        assertTrue(bitFields[0] > 5 * frames, "bit fields compared: " + bitFields[0]);
        assertTrue(trailers[0] > frames / 2, "frames whose ICRC position was compared: " + trailers[0]);
        System.out.println("KaitaiFrameTreeTest: " + frames + " sample frames, " + fields[0] + " fields (" + bitFields[0]
                + " bit fields) agree with the flyweights");
    }

    /** Compares the two trees; returns {fields, bit fields, 1 if the ICRC position was} compared. */
    static long[] compare(FrameTree fw, FrameTree kt, KaitaiLayers k, Dissection d, String ctx, List<String> problems) {
        long fields = 0, bits = 0, trailer = 0;
        if (!fw.expert().equals(kt.expert())) problems.add(ctx + "expert items: flyweight " + fw.expert() + ", Kaitai " + kt.expert());
        assertEquals(fw.layers().size(), kt.layers().size(), ctx);
        int[] seen = new int[io.metaroce.protocol.Spec.HEADERS.size()];
        for (int i = 0; i < fw.layers().size(); i++) {
            FieldNode a = fw.layers().get(i), b = kt.layers().get(i);
            HeaderDef h = a.header();
            int occurrence = seen[h.index()]++;
            KaitaiLayers.Placed placed = k.get(h, occurrence);
            if (placed == null) {
                if (!NO_KAITAI.contains(h.id()) && !h.pseudo()) problems.add(ctx + "layer " + h.id() + " #" + occurrence + " not read by Kaitai");
                continue;
            }
            // The Kaitai header is where the dissector put it, as long as the catalogue says.
            if (placed.start() != d.layerOffset(i) || placed.end() - placed.start() != h.size())
                problems.add(ctx + h.id() + ": Kaitai [" + placed.start() + ", " + placed.end() + "), dissector at " + d.layerOffset(i)
                        + " size " + h.size());
            if (a.offset() != b.offset() || a.length() != b.length()) problems.add(ctx + "layer ranges " + a + " / " + b);
            List<FieldNode> fa = flatten(a), fb = flatten(b);
            if (fa.size() != fb.size()) {
                problems.add(ctx + h.id() + ": flyweight fields " + fa + ", Kaitai " + fb);
                continue;
            }
            for (int j = 0; j < fa.size(); j++) {
                FieldNode x = fa.get(j), y = fb.get(j);
                if (x.field() != y.field() || !x.value().equals(y.value()) || x.offset() != y.offset() || x.length() != y.length()
                        || x.bitMask() != y.bitMask())
                    problems.add(ctx + "flyweight " + x + " mask " + x.bitMask() + ", Kaitai " + y + " mask " + y.bitMask());
                if (y.field() != null && y.offset() >= 0 && !(y.offset() >= b.offset() && y.end() <= b.end()))
                    problems.add(ctx + y + " outside its header " + b);
                if (y.field() != null) {
                    fields++;
                    if (y.bitMask() != 0) bits++;
                    // Kaitai's own end of a field (not a value instance) is where the catalogue says the field ends.
                    KaitaiLayers.Value v = placed.value(y.field());
                    if (!y.field().isSubfield() && (v == null || v.end() != y.end()))
                        problems.add(ctx + y + ": Kaitai end " + (v == null ? "none" : v.end()));
                }
            }
        }
        // Payload, pad and ICRC (the tree's ranges come from the dissection): where Kaitai read them.
        if (d.isRoce() && k.icrcStart() >= 0 && kt.icrc() != null && kt.icrc().hasBytes()) {
            if (k.icrcStart() != kt.icrc().offset()) problems.add(ctx + "ICRC at " + kt.icrc().offset() + ", Kaitai " + k.icrcStart());
            if (k.padStart() >= 0 && d.payloadLength() >= 0 && k.padStart() != d.payloadOffset() + d.payloadLength())
                problems.add(ctx + "pad at " + (d.payloadOffset() + d.payloadLength()) + ", Kaitai " + k.padStart());
            // (An opcode the dissector does not know leaves its bytes undecoded, where Kaitai reads them as payload.)
            if (k.payloadStart() >= 0 && d.payloadOffset() >= 0 && k.payloadStart() != d.payloadOffset())
                problems.add(ctx + "payload at " + d.payloadOffset() + ", Kaitai " + k.payloadStart());
            trailer = 1;
        }
        return new long[] {fields, bits, trailer};
    }

    /** A layer's FIELD and OPTIONS nodes, subfields included, depth first (carried headers excluded). */
    private static List<FieldNode> flatten(FieldNode layer) {
        List<FieldNode> out = new ArrayList<>();
        for (FieldNode c : layer.children()) flatten(c, out);
        return out;
    }

    private static void flatten(FieldNode n, List<FieldNode> out) {
        if (n.kind() == Kind.LAYER) return;
        out.add(n);
        for (FieldNode c : n.children()) flatten(c, out);
    }

    // ------------------------------------------------------------------ malformed frames

    @Test
    void aFrameCutShortShowsWhatWasReadablePlusAnExpertItem() {
        byte[] whole = new FrameBuilder().opcode(0x0A, 1).payload(64).build();   // MetaRoCE WRITE Only: bth mrth reth
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        FrameFields ff = new FrameFields();
        for (int cut = 1; cut < whole.length; cut++) {
            byte[] b = Arrays.copyOf(whole, cut);
            dissector.dissect(MemorySegment.ofArray(b), 1, 0, whole.length, 1, -1, d);
            String ctx = "cut at " + cut + " (" + d.protocols() + "): ";
            FrameTree flyweight = FrameTree.of(d, ff.of(d));
            KaitaiLayers k = KaitaiFrameTree.parse(d);
            FrameTree t = KaitaiFrameTree.of(d, ff, k);
            FrameTreeTest.check(t, d, ctx);
            // Past the last header only payload and ICRC are cut: a snap length, as in tshark no expert item.
            if (cut < 86) assertFalse(t.expert().isEmpty(), ctx + "an expert item says a header is cut");
            // Every header the dissector could read, Kaitai read too, with the same fields at the same bytes.
            List<String> problems = new ArrayList<>();
            compare(flyweight, t, k, d, ctx, problems);
            if (!problems.isEmpty()) fail(String.join("\n", problems));
        }
        // Cut inside the RETH: the BTH and MRTH are whole, shown with their values.
        int rethAt = 14 + 20 + 8 + 12 + 16;
        byte[] b = Arrays.copyOf(whole, rethAt + 5);
        dissector.dissect(MemorySegment.ofArray(b), 1, 0, whole.length, 1, -1, d);
        FrameTree t = KaitaiFrameTree.of(d, ff.of(d));
        assertTrue(d.protocols().startsWith("eth:ip:udp:bth:mrth"), d.protocols());
        FieldNode bth = t.layers().get(3);
        assertEquals("bth", bth.header().id());
        assertEquals(14 + 20 + 8, bth.offset());
        assertTrue(bth.children().stream().anyMatch(c -> c.field() != null && c.field().name().equals("bth.opcode")
                && c.value().contains("0x0a")), bth.children().toString());
        assertTrue(t.expert().stream().anyMatch(e -> e.def() == Expert.FRAME_CUT_BY_SNAPLEN || e.group() == ExpertItem.Group.MALFORMED),
                t.expert().toString());
    }

    @Test
    void anUnknownOpcodeShowsTheBthAndAnExpertItem() {
        byte[] b = new FrameBuilder().opcode(0x04, 0).payload(16).build();
        b[14 + 20 + 8] = (byte) 0x1F;      // not defined for RoCEv2
        Dissection d = new Dissector().dissect(MemorySegment.ofArray(b), 1, 0, b.length, 1, -1, new Dissection());
        FrameTree t = KaitaiFrameTree.of(d, new FrameFields().of(d));
        FrameTreeTest.check(t, d, "opcode 0x1f: ");
        FieldNode bth = t.layers().stream().filter(l -> l.header().id().equals("bth")).findFirst().orElseThrow();
        FieldNode opcode = bth.children().getFirst();
        assertEquals("bth.opcode", opcode.field().name());
        assertEquals("0x1f", opcode.value());
        assertEquals(42, opcode.offset());
        assertTrue(t.expert().stream().anyMatch(e -> e.def() == Expert.BTH_OPCODE_UNDEFINED), t.expert().toString());
        assertNotNull(t.icrc(), "the ICRC is still found");
    }

    @Test
    void garbageFramesNeverThrowAndStillTileTheirBytes() {
        SplittableRandom rnd = new SplittableRandom(0x6A17A1L);
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        FrameFields ff = new FrameFields();
        byte[] good = new FrameBuilder().opcode(0x0A, 1).payload(40).build();
        for (int i = 0; i < 5000; i++) {
            byte[] b;
            if (i % 2 == 0) {
                b = good.clone();
                for (int k = rnd.nextInt(1, 6); k > 0; k--) b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                b = Arrays.copyOf(b, rnd.nextInt(1, b.length + 1));
            } else {
                b = new byte[rnd.nextInt(1, 200)];
                rnd.nextBytes(b);
            }
            int linkType = new int[] {1, 101, 113, 276}[rnd.nextInt(4)];
            long original = rnd.nextBoolean() ? b.length : b.length + rnd.nextInt(1, 100);
            dissector.dissect(MemorySegment.ofArray(b), i + 1, 0, original, linkType, rnd.nextInt(3) == 0 ? 4 : -1, d);
            FrameTreeTest.check(KaitaiFrameTree.of(d, ff.of(d)), d, "garbage #" + i + " " + d.protocols() + ": ");
        }
    }
}
