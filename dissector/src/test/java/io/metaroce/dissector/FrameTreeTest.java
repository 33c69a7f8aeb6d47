package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FieldNode.Kind;
import io.metaroce.protocol.Expert;
import io.metaroce.protocol.Ip;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The frame tree's byte ranges are true: on every frame of the bundled samples (samples/captures,
 * samples/reference) the roots tile the captured bytes in order, every layer lies inside the captured bytes,
 * every field inside its layer, every carried header inside the field that carries it.
 */
class FrameTreeTest {
    private static final Path SAMPLES = Path.of("..", "samples");

    static List<Path> sampleCaptures() throws Exception {
        List<Path> out = new ArrayList<>();
        for (String dir : List.of("captures", "reference")) {
            try (Stream<Path> s = Files.list(SAMPLES.resolve(dir))) {
                s.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted().forEach(out::add);
            }
        }
        assertTrue(out.size() >= 15, "bundled samples found under " + SAMPLES.toAbsolutePath() + ": " + out);
        return out;
    }

    /** What {@link #forEachSampleFrame} hands out: the frame, dissected, and where it is ({@code file#frame}). */
    interface SampleFrame {
        void visit(Dissection d, String where) throws Exception;
    }

    /**
     * Dissects every frame of every bundled sample ({@link #sampleCaptures()}) into one reused {@link Dissection}, as
     * the tools do, and hands each to {@code visitor}; returns the number of frames.
     */
    static long forEachSampleFrame(SampleFrame visitor) throws Exception {
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        long frames = 0;
        for (Path p : sampleCaptures()) {
            try (PacketSource src = CaptureFiles.open(p)) {
                while (src.next()) {
                    dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    visitor.visit(d, p.getFileName() + "#" + src.frameNumber());
                    frames++;
                }
            }
        }
        return frames;
    }

    @Test
    void everyNodeOfEverySampleFrameLiesWhereItSays() throws Exception {
        FrameFields ff = new FrameFields();
        long[] fields = {0};
        long frames = forEachSampleFrame((d, where) -> fields[0] += check(FrameTree.of(d, ff.of(d)), d, where + " " + d.protocols() + ": "));
        assertTrue(frames > 1000, "frames: " + frames);
        assertTrue(fields[0] > 20 * frames, "fields: " + fields[0]);
    }

    static long check(FrameTree t, Dissection d, String ctx) {
        int at = 0;
        for (FieldNode r : t.roots()) {
            if (!r.hasBytes()) continue;
            assertEquals(at, r.offset(), ctx + "roots tile the frame in order: " + t.roots());
            at = r.end();
        }
        assertEquals(d.capturedLength(), at, ctx + "roots cover the captured bytes: " + t.roots());
        assertEquals(d.layerCount(), t.layers().size(), ctx);
        int prevOffset = -1;
        long fields = 0;
        for (int i = 0; i < t.layers().size(); i++) {
            FieldNode layer = t.layers().get(i);
            assertEquals(Kind.LAYER, layer.kind());
            assertEquals(d.layerOffset(i), layer.offset(), ctx);
            assertTrue(layer.offset() >= 0 && layer.end() <= d.capturedLength(), ctx + layer);
            assertTrue(layer.offset() >= prevOffset, ctx + "layers in wire order");
            prevOffset = layer.offset();
            fields += inside(layer, layer, ctx);
        }
        if (t.payload() != null) for (FieldNode c : t.payload().children()) assertInside(c, t.payload(), ctx);
        if (t.icrc() != null && t.icrc().hasBytes()) assertEquals(4, t.icrc().length(), ctx);
        // Expert items: anchors inside the frame, each item on exactly one node (or on the frame).
        long placed = t.frameExpert().size() + placed(t.roots());
        assertEquals(t.expert().size(), placed, ctx + t.expert());
        for (ExpertItem e : t.expert()) {
            assertTrue(e.layer() < d.layerCount(), ctx + e);
            if (e.field() >= 0) assertEquals(d.layerHeader(e.layer()), io.metaroce.protocol.Spec.FIELDS.get(e.field()).header(), ctx + e);
            if (e.hasRange()) assertTrue(e.length() >= 0 && e.offset() + e.length() <= d.capturedLength(), ctx + e);
        }
        return fields;
    }

    private static long placed(List<FieldNode> nodes) {
        long n = 0;
        for (FieldNode c : nodes) n += c.expert().size() + placed(c.children());
        return n;
    }

    @Test
    void garbageFramesGiveATreeThatStillTilesTheirBytes() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(0x7EE5L);
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        FrameFields ff = new FrameFields();
        byte[] good = new FrameBuilder().opcode(0x0A, 1).payload(40).build();
        for (int i = 0; i < 20000; i++) {
            byte[] b;
            if (i % 2 == 0) {
                b = good.clone();
                for (int k = rnd.nextInt(1, 6); k > 0; k--) b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                b = java.util.Arrays.copyOf(b, rnd.nextInt(1, b.length + 1));
            } else {
                b = new byte[rnd.nextInt(1, 200)];
                rnd.nextBytes(b);
            }
            int linkType = new int[] {1, 101, 113, 276}[rnd.nextInt(4)];
            long original = rnd.nextBoolean() ? b.length : b.length + rnd.nextInt(1, 100);
            dissector.dissect(MemorySegment.ofArray(b), i + 1, 0, original, linkType, rnd.nextInt(3) == 0 ? 4 : -1, d);
            check(FrameTree.of(d, ff.of(d)), d, "garbage #" + i + " " + d.protocols() + ": ");
        }
    }

    /** Every descendant of n lies inside n; returns the number of FIELD nodes. */
    private static long inside(FieldNode n, FieldNode layer, String ctx) {
        long fields = n.kind() == Kind.FIELD ? 1 : 0;
        for (FieldNode c : n.children()) {
            assertInside(c, n, ctx);
            if (c.kind() == Kind.FIELD) {
                assertNotNull(c.value(), ctx + c);
                assertEquals(c.occurrence(), layer.occurrence(), ctx + c);
            }
            if (c.kind() != Kind.LAYER) fields += inside(c, layer, ctx);
        }
        return fields;
    }

    private static void assertInside(FieldNode c, FieldNode parent, String ctx) {
        assertTrue(c.hasBytes() && c.offset() >= parent.offset() && c.end() <= parent.end(),
                ctx + c + " lies inside " + parent);
    }

    @Test
    void ipv4OptionsBelongToTheIpLayer() {
        byte[] plain = new FrameBuilder().opcode(0x04, 0).payload(8).build();
        // Insert 8 bytes of options (two NOPs + end of list, padded) after the 20-byte IPv4 header.
        byte[] frame = new byte[plain.length + 8];
        System.arraycopy(plain, 0, frame, 0, 34);
        frame[34] = 1;
        frame[35] = 1;
        System.arraycopy(plain, 34, frame, 42, plain.length - 34);
        MemorySegment s = MemorySegment.ofArray(frame);
        Ip.hdrLen(s, 14, 7);
        Ip.len(s, 14, Ip.len(s, 14) + 8);
        Ip.checksum(s, 14, FrameBuilder.ipv4Checksum(s, 14));
        Dissection d = new Dissector().dissect(s, 1, 0, frame.length, 1, -1, new Dissection());
        assertEquals("eth:ip:udp:bth", d.protocols(), d.expert().toString());
        assertEquals(28, d.layerLength(1));
        assertEquals(42, d.layerOffset(2));
        FrameTree t = FrameTree.of(d);
        FieldNode options = t.layers().get(1).children().getLast();
        assertEquals(Kind.OPTIONS, options.kind());
        assertEquals(34, options.offset());
        assertEquals(8, options.length());
        assertEquals(frame.length - 4, d.icrcOffset());
        assertEquals(frame.length - 4, t.icrc().offset());
    }

    @Test
    void bitFieldsCarryTheirMaskAndExpertItemsSitOnTheirNodes() {
        byte[] frame = new FrameBuilder().opcode(0x04, 0).payload(8).set("ip.version", 5).corruptIcrc().build();
        Dissection d = new Dissector().dissect(MemorySegment.ofArray(frame), 1, 0, frame.length, 1, -1, new Dissection());
        FrameTree t = FrameTree.of(d);
        FieldNode ip = t.layers().get(1);
        FieldNode version = ip.children().getFirst();
        assertEquals("ip.version", version.field().name());
        assertEquals(14, version.offset());
        assertEquals(1, version.length());
        assertEquals(0xF0, version.bitMask());
        assertEquals(List.of(Expert.IP_VERSION_BAD), version.expert().stream().map(ExpertItem::def).toList());
        assertEquals(List.of(Expert.ICRC_BAD), t.icrc().expert().stream().map(ExpertItem::def).toList());
        FieldNode src = ip.children().stream().filter(n -> "ip.src".equals(n.field() == null ? null : n.field().name())).findFirst().orElseThrow();
        assertEquals(0, src.bitMask());
        assertEquals(26, src.offset());
        assertEquals(4, src.length());
    }
}
