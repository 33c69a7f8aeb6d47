package io.metaroce.dissector;

import static io.metaroce.protocol.Severity.ERROR;
import static io.metaroce.protocol.Severity.NOTE;
import static io.metaroce.protocol.Severity.WARN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.metaroce.dissector.TestFrames.Frame;
import io.metaroce.dissector.TestFrames.Net;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile input: the dissector never throws and always says what is wrong. Seeded ({@code -Dhostile.seed=...}):
 * (a) every valid frame cut at every length, as a snap-length cut and as a short frame; (b) random bit and byte
 * flips, which the ICRC must catch from the BTH on; (c) random garbage on every link type; (d) a directed list
 * of malformed frames, each with the expert message it must produce. Every dissection also satisfies
 * {@link #checkInvariants}: no fallback "frame ends unexpectedly" (a missed bounds check), every layer fully
 * captured, a consistent transport/ICRC state, and every catalogue field readable through {@link FrameFields}.
 */
class HostileInputTest {
    private static final long SEED = TestFrames.seed("hostile.seed");
    private static final String FALLBACK = "frame ends unexpectedly";
    private static final int FLIPS_PER_FRAME = 40;
    private static final int GARBAGE = 6000;
    /** Generated frames cut at every length (besides all vector frames). */
    private static final int GENERATED_CUT_FRAMES = 30;

    private final Dissector dissector = new Dissector();
    private final Dissection d = new Dissection();
    private final FrameFields fields = new FrameFields();
    private int dissections;

    @BeforeAll
    static void printSeed() {
        System.out.println("HostileInputTest seed=" + SEED + " (rerun with -Dhostile.seed=" + SEED + ")");
    }

    // ------------------------------------------------------------------ (a) cuts

    /**
     * Snap-length cut (captured = cut, original = full): nothing is called malformed that was not before, every
     * new expert item is a capture note, and a cut inside the datagram sets truncated(); a RoCE frame then has
     * no ICRC verdict (UNCHECKED, or NONE with a "cut by the snap length" note when a header is missing).
     * Short frame (captured = original = cut): never truncated(), and a cut inside the datagram is an ERROR.
     * Either way the layers are a prefix of the full frame's, and a cut in the trailer changes nothing.
     */
    @Test
    void everyCutOfAValidFrameIsReported() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        List<Frame> frames = new ArrayList<>(TestFrames.vectors());
        List<Frame> generated = TestFrames.generatedMix(rnd, false);
        for (int i = 0; i < GENERATED_CUT_FRAMES; i++) frames.add(generated.get(rnd.nextInt(generated.size())));
        int cuts = 0;
        for (Frame f : frames) {
            Dissection clean = new Dissection();
            f.dissect(dissector, clean);
            assertFalse(clean.truncated(), f.label());
            assertTrue(clean.layerCount() > 0, f.label());
            int content = contentEnd(clean);
            List<String> cleanLayers = layers(clean);
            List<String> cleanErrors = messages(clean, ERROR);
            for (int cut = 0; cut < f.bytes().length; cut++, cuts++) {
                byte[] part = Arrays.copyOf(f.bytes(), cut);
                int c = cut;
                withBytes(part, () -> checkCut(f, clean, content, cleanLayers, cleanErrors, part, c));
            }
        }
        System.out.println("HostileInputTest: " + frames.size() + " frames, " + cuts + " cut lengths, " + dissections + " dissections");
    }

    private void checkCut(Frame f, Dissection clean, int content, List<String> cleanLayers, List<String> cleanErrors,
                          byte[] part, int cut) {
        String ctx = ctx(f.label() + " snap-cut at " + cut + " of " + f.bytes().length, part);
        dissect(ctx, part, f.originalLength(), f.linkType(), f.fcsLength());
        assertPrefix(ctx, cleanLayers, layers(d));
        for (String e : messages(d, ERROR)) assertTrue(cleanErrors.contains(e), () -> ctx + "new error: " + e);
        for (ExpertItem e : d.expert()) {
            if (clean.expert().contains(e) || e.group() == ExpertItem.Group.CAPTURE) continue;
            fail(ctx + "a snap-length cut produced " + e);
        }
        if (cut < content) {
            assertTrue(d.truncated(), () -> ctx + "truncated()");
            if (clean.isRoce()) {
                assertTrue(d.icrcStatus() == IcrcStatus.UNCHECKED
                        || d.icrcStatus() == IcrcStatus.NONE && has(d, ExpertItem.Group.CAPTURE),
                        () -> ctx + "ICRC " + d.icrcStatus() + ", expert " + d.expert());
            }
        } else {
            assertEquals(cleanLayers, layers(d), ctx + "trailer cut");
            assertEquals(clean.icrcStatus(), d.icrcStatus(), ctx + "trailer cut");
        }

        String shortCtx = ctx(f.label() + " short frame of " + cut + " of " + f.bytes().length, part);
        dissect(shortCtx, part, cut, f.linkType(), f.fcsLength());
        assertPrefix(shortCtx, cleanLayers, layers(d));
        assertFalse(d.truncated(), () -> shortCtx + "a short frame is not a snap-length cut");
        if (cut < content) {
            assertEquals(ERROR, d.worstSeverity(), () -> shortCtx + "expert " + d.expert());
        } else {
            assertEquals(cleanLayers, layers(d), shortCtx + "trailer cut");
        }
    }

    // ------------------------------------------------------------------ (b) flips

    /**
     * Random bit flips and byte changes in valid frames never throw. A change at or after the BTH, up to the end
     * of the ICRC, that touches a non-variant bit yields the bad-ICRC error (or, when a tver flip makes the
     * packet too short for an MRTH, the MRTH error that stops decoding before the ICRC). A change that only
     * touches ICRC-variant BTH bits (FECN, BECN, resv6) leaves the ICRC good.
     */
    @Test
    void flipsAreCaughtByTheIcrc() {
        SplittableRandom rnd = new SplittableRandom(SEED ^ 0x243F6A8885A308D3L);
        List<Frame> frames = new ArrayList<>();
        for (Frame f : TestFrames.vectors()) {
            f.dissect(dissector, d);
            if (d.icrcStatus() == IcrcStatus.GOOD) frames.add(f);
        }
        int vectorFrames = frames.size();
        assertTrue(vectorFrames >= 40, "vector frames with a good ICRC: " + vectorFrames);
        frames.addAll(TestFrames.generatedMix(rnd, false));
        HeaderDef bth = TestFrames.header("bth");
        int covered = 0, variant = 0;
        for (Frame f : frames) {
            Dissection clean = new Dissection();
            f.dissect(dissector, clean);
            assertEquals(IcrcStatus.GOOD, clean.icrcStatus(), f.label());
            int bthOff = clean.bthOffset();
            int icrcEnd = transportEnd(clean);
            for (int i = 0; i < FLIPS_PER_FRAME; i++) {
                byte[] b = f.bytes().clone();
                int pos = rnd.nextInt(10) < 7 ? rnd.nextInt(bthOff, icrcEnd) : rnd.nextInt(b.length);
                int mask = rnd.nextInt(10) < 7 ? 1 << rnd.nextInt(8) : rnd.nextInt(1, 256);
                b[pos] ^= (byte) mask;
                int[] verdict = new int[1];
                withBytes(b, () -> verdict[0] = checkFlip(f, clean, bth, bthOff, icrcEnd, b, pos, mask));
                if (verdict[0] == 1) covered++;
                if (verdict[0] == 2) variant++;
            }
        }
        assertTrue(covered > frames.size() * FLIPS_PER_FRAME / 2, "flips in the ICRC-covered part: " + covered);
        System.out.println("HostileInputTest: " + frames.size() + " frames (" + vectorFrames + " vectors), "
                + frames.size() * FLIPS_PER_FRAME + " flips, " + covered + " caught by the ICRC, " + variant + " in variant bits");
    }

    /** Returns 0 outside the checked region, 1 when the ICRC caught the change, 2 for ICRC-variant bits only. */
    private int checkFlip(Frame f, Dissection clean, HeaderDef bth, int bthOff, int icrcEnd, byte[] b, int pos, int mask) {
        String ctx = ctx(f.label() + " with byte " + pos + " ^= 0x" + Integer.toHexString(mask), b);
        dissect(ctx, b, b.length, f.linkType(), f.fcsLength());
        if (pos < bthOff || pos >= icrcEnd) return 0;
        if (onlyVariantBits(bth, pos - bthOff, mask)) {
            assertEquals(IcrcStatus.GOOD, d.icrcStatus(), () -> ctx + "only ICRC-variant bits changed");
            assertEquals(clean.expert(), d.expert(), ctx);
            return 2;
        }
        assertFalse(d.expert().isEmpty(), () -> ctx + "no expert item");
        boolean badIcrc = d.icrcStatus() == IcrcStatus.BAD && messages(d, ERROR).stream().anyMatch(m -> m.startsWith("bad ICRC"));
        boolean mrthMissing = d.icrcStatus() == IcrcStatus.NONE && d.tver() == 1 && clean.tver() != 1
                && messages(d, ERROR).stream().anyMatch(m -> m.startsWith("MRTH truncated"));
        assertTrue(badIcrc || mrthMissing, () -> ctx + "ICRC " + d.icrcStatus() + ", expert " + d.expert());
        return 1;
    }

    /** True when every bit of mask in byte at (relative to the BTH) lies in an ICRC-variant BTH field. */
    private static boolean onlyVariantBits(HeaderDef bth, int at, int mask) {
        if (at >= bth.size()) return false;
        for (int bit = 0; bit < 8; bit++) {
            if ((mask & (0x80 >>> bit)) == 0) continue;
            int b = at * 8 + bit;
            boolean inVariant = false;
            for (FieldDef f : TestFrames.fieldsOf(bth)) {
                if (f.icrcVariant() && !f.isSubfield() && b >= f.bitOffset() && b < f.bitOffset() + f.bitWidth()) inVariant = true;
            }
            if (!inVariant) return false;
        }
        return true;
    }

    // ------------------------------------------------------------------ (c) garbage

    /**
     * Random bytes, and valid datagrams behind the right link header with a few bytes overwritten, cut, or behind
     * up to 30 VLAN tags, on every link type the dissector handles plus unknown ones; random original lengths
     * (also shorter than captured) and FCS lengths. Never throws, never hangs, invariants hold.
     */
    @Test
    void garbageOnEveryLinkTypeNeverThrows() {
        SplittableRandom rnd = new SplittableRandom(SEED ^ 0x13198A2E03707344L);
        int[] linkTypes = {1, 101, 113, 276, 228, 229, 12, 14, 147, 0};
        List<Frame> templates = TestFrames.generatedMix(rnd, true);
        int unknown = 0;
        for (int i = 0; i < GARBAGE; i++) {
            int linkType = linkTypes[rnd.nextInt(linkTypes.length)];
            if (linkType == 0) linkType = rnd.nextInt();
            byte[] b = switch (rnd.nextInt(4)) {
                case 0 -> random(rnd, rnd.nextInt(rnd.nextBoolean() ? 24 : 400));
                case 1 -> corrupt(rnd, behindLinkHeader(rnd, linkType, templates.get(rnd.nextInt(templates.size()))));
                case 2 -> cut(rnd, behindLinkHeader(rnd, linkType, templates.get(rnd.nextInt(templates.size()))));
                default -> corrupt(rnd, vlanTagged(rnd, templates.get(rnd.nextInt(templates.size())), rnd.nextInt(31)));
            };
            long original = switch (rnd.nextInt(10)) {
                case 0, 1 -> b.length + rnd.nextInt(1, 200);
                case 2 -> Math.max(0, b.length - rnd.nextInt(1, 64));
                case 3 -> rnd.nextLong(0, 1L << 40);
                default -> b.length;
            };
            int fcs = switch (rnd.nextInt(6)) {
                case 0 -> 0;
                case 1 -> 4;
                case 2 -> rnd.nextInt(-8, 12);
                default -> -1;
            };
            String ctx = ctx("garbage #" + i + " link type " + linkType + " original " + original + " fcs " + fcs, b);
            dissect(ctx, b, original, linkType, fcs);
            if (!List.of(1, 101, 113, 276, 228, 229, 12, 14).contains(linkType)) {
                unknown++;
                assertEquals(List.of("frame.link_type_unsupported: link type " + linkType + " is not decoded"),
                        d.expert().stream().map(e -> e.id() + ": " + e.message()).toList(), ctx);
            }
        }
        assertTrue(unknown > 0);
        System.out.println("HostileInputTest: " + GARBAGE + " garbage frames");
    }

    private static byte[] random(SplittableRandom rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** Overwrites 0..4 random bytes. */
    private static byte[] corrupt(SplittableRandom rnd, byte[] b) {
        for (int k = rnd.nextInt(5); k > 0 && b.length > 0; k--) b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
        return b;
    }

    private static byte[] cut(SplittableRandom rnd, byte[] b) {
        return Arrays.copyOf(b, rnd.nextInt(b.length + 1));
    }

    /** The network-layer part of a template behind the link header of linkType (random bytes for unknown types). */
    private static byte[] behindLinkHeader(SplittableRandom rnd, int linkType, Frame template) {
        MemorySegment t = MemorySegment.ofArray(template.bytes());
        int netOff = 14;
        while (netOff < template.bytes().length && isTpid(t, netOff - 2)) netOff += 4;
        int etype = Short.toUnsignedInt(t.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), netOff - 2));
        byte[] net = Arrays.copyOfRange(template.bytes(), netOff, template.bytes().length);
        int linkHeader = switch (linkType) {
            case 1 -> 14;
            case 113 -> TestFrames.header("sll").size();
            case 276 -> TestFrames.header("sll2").size();
            case 101, 228, 229, 12, 14 -> 0;
            default -> rnd.nextInt(24);
        };
        byte[] out = new byte[linkHeader + net.length];
        rnd.nextBytes(out);
        System.arraycopy(net, 0, out, linkHeader, net.length);
        MemorySegment s = MemorySegment.ofArray(out);
        switch (linkType) {
            case 1 -> TestFrames.set(s, 0, "eth.type", etype);
            case 113 -> TestFrames.set(s, 0, "sll.etype", etype);
            case 276 -> TestFrames.set(s, 0, "sll2.etype", etype);
            default -> { }
        }
        return out;
    }

    private static boolean isTpid(MemorySegment s, int off) {
        int v = Short.toUnsignedInt(s.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), off));
        return v == 0x8100 || v == 0x88A8 || v == 0x9100;
    }

    /** The template with n more VLAN tags right after the Ethernet header. */
    private static byte[] vlanTagged(SplittableRandom rnd, Frame template, int n) {
        byte[] t = template.bytes();
        byte[] out = new byte[t.length + 4 * n];
        System.arraycopy(t, 0, out, 0, 12);
        for (int i = 0; i < n; i++) {
            int tpid = TestFrames.TPIDS[rnd.nextInt(3)];
            out[12 + 4 * i] = (byte) (tpid >>> 8);
            out[13 + 4 * i] = (byte) tpid;
            out[14 + 4 * i] = (byte) rnd.nextInt(256);
            out[15 + 4 * i] = (byte) rnd.nextInt(256);
        }
        System.arraycopy(t, 12, out, 12 + 4 * n, t.length - 12);
        return out;
    }

    // ------------------------------------------------------------------ (d) directed

    private static final int IP = 14, UDP = 34, BTH = 42;

    /** RC SEND Only (tver 0) or a tver 1 frame over Ethernet/IPv4 (IHL 5) with payloadLen payload bytes. */
    private static MemorySegment v4(int tver, int opcode, int payloadLen) {
        SplittableRandom rnd = new SplittableRandom(SEED);
        OpcodeDef def = (tver == 1 ? Spec.OPCODES_TVER1 : Spec.OPCODES_TVER0).get(opcode);
        Frame f;
        do {
            f = TestFrames.frame(rnd, Net.IPV4, 0, tver, def, false, 0x11, new byte[payloadLen], 0, List.of(), false, "directed");
        } while (f.bthOffset() != BTH);
        return MemorySegment.ofArray(f.bytes());
    }

    private static MemorySegment sendOnly(int payloadLen) { return v4(0, 0x04, payloadLen); }

    private static void set(MemorySegment s, int off, String field, long value) { TestFrames.set(s, off, field, value); }

    /** Recomputes and stores the ICRC of an Ethernet/IPv4 (IHL 5) frame whose ICRC is its last 4 bytes. */
    private static MemorySegment fixIcrc(MemorySegment s) {
        int icrcOff = (int) s.byteSize() - 4;
        long crc = new Icrc().overIp(s, IP, 20, false, BTH, icrcOff);
        s.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), icrcOff, (int) crc);
        return s;
    }

    private Dissection run(MemorySegment s) { return run(s, s.byteSize(), 1); }

    private Dissection run(MemorySegment s, long original, int linkType) {
        byte[] b = s.toArray(ValueLayout.JAVA_BYTE);
        return dissect(ctx("directed", b), b, original, linkType, -1);
    }

    private static void assertExpert(Dissection d, Severity severity, String fragment) {
        for (ExpertItem e : d.expert()) if (e.severity() == severity && e.message().contains(fragment)) return;
        fail("no " + severity + " expert item containing \"" + fragment + "\" in " + d.expert() + " (" + d.protocols() + ")");
    }

    @Test
    void ipv4HeaderLengthBelowFive() {
        MemorySegment s = sendOnly(8);
        set(s, IP, "ip.hdr_len", 3);
        assertExpert(run(s), ERROR, "IPv4 header length 12 bytes is below the minimum of 20");
        assertFalse(d.hasLayer(TestFrames.header("udp").index()));
    }

    @Test
    void ipv4HeaderLengthBeyondTheFrame() {
        MemorySegment s = sendOnly(0).asSlice(0, IP + 40);
        set(s, IP, "ip.hdr_len", 15);
        assertExpert(run(s), ERROR, "IPv4 truncated: 60 bytes needed, 40 left");
        assertExpert(run(s, s.byteSize() + 100, 1), NOTE, "IPv4 cut by the snap length: 40 of 60 bytes captured");
        assertTrue(d.truncated());
    }

    @Test
    void ipv4TotalLengthZeroAndHuge() {
        MemorySegment s = sendOnly(8);
        set(s, IP, "ip.len", 0);
        assertExpert(run(s), ERROR, "IPv4 total length 0 is shorter than the header (20)");
        set(s, IP, "ip.len", 0xFFFF);
        assertExpert(run(s), ERROR, "IPv4 total length 65535 exceeds the " + (s.byteSize() - IP) + " bytes the frame has");
    }

    @Test
    void ipVersionMismatch() {
        MemorySegment s = sendOnly(8);
        set(s, IP, "ip.version", 6);
        assertExpert(run(s), ERROR, "IPv4 header with version 6");
        assertExpert(run(MemorySegment.ofArray(new byte[] {0x50, 1, 2, 3}), 4, 101), ERROR, "raw IP frame with IP version 5");
        assertExpert(run(MemorySegment.ofArray(new byte[0]), 0, 101), ERROR, "empty frame");
        assertExpert(run(MemorySegment.ofArray(new byte[40]), 40, 147), NOTE, "link type 147 is not decoded");
    }

    @Test
    void ipv4FragmentIsNotDecoded() {
        MemorySegment s = sendOnly(8);
        set(s, IP, "ip.frag_offset", 1);
        assertExpert(run(s), NOTE, "IPv4 fragment (offset 8), not reassembled");
        assertFalse(d.isRoce());
    }

    @Test
    void udpLengthBelowHeaderAboveAndBelowTheDatagram() {
        MemorySegment s = sendOnly(8);
        int payload = (int) s.byteSize() - UDP;
        set(s, UDP, "udp.length", 4);
        assertExpert(run(s), ERROR, "UDP length 4 is below the header size 8");
        assertFalse(d.isRoce());
        set(s, UDP, "udp.length", payload + 20);
        assertExpert(run(s), ERROR, "UDP length " + (payload + 20) + " exceeds the IP payload (" + payload + " bytes)");
        set(s, UDP, "udp.length", payload - 4);
        assertExpert(run(s), ERROR, "UDP length " + (payload - 4) + " is shorter than the IP payload (" + payload + " bytes)");
    }

    @Test
    void roceDatagramTooSmallForBthAndIcrc() {
        MemorySegment s = sendOnly(0).asSlice(0, BTH + 12);
        set(s, IP, "ip.len", 20 + 8 + 12);
        set(s, UDP, "udp.length", 8 + 12);
        assertExpert(run(s), ERROR, "RoCE packet of 12 bytes cannot hold a BTH and an ICRC (16 bytes)");
        assertEquals(IcrcStatus.NONE, d.icrcStatus());
    }

    @Test
    void tverTwoToFifteen() {
        for (int tver = 2; tver <= 15; tver++) {
            MemorySegment s = sendOnly(8);
            set(s, BTH, "bth.tver", tver);
            fixIcrc(s);
            assertExpert(run(s), ERROR, "BTH tver " + tver + " is neither 0 (RoCEv2) nor 1 (MetaRoCE v1); rest not decoded");
            assertEquals(IcrcStatus.GOOD, d.icrcStatus(), "the ICRC is still checked under tver " + tver);
            assertEquals(null, d.opcode());
        }
    }

    @Test
    void reservedOpcodesC0ToDF() {
        for (int tver = 0; tver <= 1; tver++) {
            for (int op = 0xC0; op <= 0xDF; op++) {
                MemorySegment s = v4(tver, 0x04, 8);
                set(s, BTH, "bth.opcode", op);
                assertExpert(run(s), ERROR, "opcode 0x" + Integer.toHexString(op) + ": reserved opcode (0xC0-0xDF)");
                assertEquals(null, d.opcode());
                assertTrue(d.expert().stream().anyMatch(e -> e.group() == ExpertItem.Group.PROTOCOL));
            }
        }
    }

    @Test
    void cnpClassVendorAndUndefinedOpcodes() {
        MemorySegment s = sendOnly(16);
        set(s, BTH, "bth.opcode", 0x80);
        assertExpert(run(s), WARN, "opcode 0x80: CNP class, unexpected on RoCEv2");
        set(s, BTH, "bth.opcode", 0xE0);
        assertExpert(run(s), NOTE, "opcode 0xe0: vendor-specific, not decoded");
        set(s, BTH, "bth.opcode", 0x15);
        assertExpert(run(s), ERROR, "opcode 0x15 is not defined for RoCEv2 (tver 0); headers after the BTH not decoded");
        MemorySegment m = v4(1, 0x04, 32);
        set(m, BTH, "bth.opcode", 0xF0);
        assertExpert(run(m), ERROR, "opcode 0xf0 is not defined for MetaRoCE v1 (tver 1)");
        set(m, BTH, "bth.opcode", 0xE0);
        run(m); // under tver 1, 0xE0 is MR-SACK, not a vendor opcode
        assertEquals("MR-SACK", d.opcode().label());
    }

    @Test
    void mrthMissingAndBadVersion() {
        MemorySegment s = sendOnly(0);
        set(s, BTH, "bth.tver", 1);
        assertExpert(run(s), ERROR, "MRTH truncated: 16 bytes needed, 0 left");
        assertFalse(d.hasMrth());
        MemorySegment m = v4(1, 0x04, 8);
        set(m, BTH + 12, "mrth.version", 2);
        assertExpert(run(m), ERROR, "MRTH version 2, expected 1");
    }

    @Test
    void chainHeaderMissing() {
        MemorySegment s = sendOnly(4);
        set(s, BTH, "bth.opcode", 0x0A);
        assertExpert(run(s), ERROR, "RC RDMA WRITE Only needs a RETH (16 bytes) but only 4 bytes are left before the ICRC");
        assertEquals(IcrcStatus.BAD, d.icrcStatus());
    }

    @Test
    void padCountLargerThanThePayload() {
        MemorySegment s = sendOnly(1);
        set(s, BTH, "bth.pad_cnt", 3);
        assertExpert(run(fixIcrc(s)), ERROR, "pad count 3 exceeds the 1 bytes after the headers");
        assertEquals(0, d.payloadLength());
    }

    @Test
    void payloadWhereNoneBelongsAndWrongAtomicWriteSize() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        MemorySegment s = MemorySegment.ofArray(TestFrames.frame(rnd, Net.IPV4, 0, 0, Spec.OPCODES_TVER0.get(0x11), false, 5, new byte[4], 0,
                List.of(), false, "ack").bytes());
        assertExpert(run(s), WARN, "RC Acknowledge carries no payload, but 4 bytes follow its headers");
        MemorySegment w = MemorySegment.ofArray(TestFrames.frame(rnd, Net.IPV4, 0, 1, Spec.OPCODES_TVER1.get(0x1D), false, 5,
                new byte[4], 0, List.of(), false, "atomic write").bytes());
        assertExpert(run(w), ERROR, "RC RDMA ATOMIC WRITE carries 8 payload bytes, not 4");
    }

    @Test
    void ipv6ExtensionHeaderLoopRunsPastTheFrame() {
        for (int type : new int[] {0, 43, 44, 51, 60}) {
            MemorySegment s = ipv6WithExtensions(10, type, false);
            assertExpert(run(s), ERROR, "IPv6 extension header " + type + " runs past the end of the frame");
            assertFalse(d.isRoce());
        }
    }

    @Test
    void ipv6ExtensionHeaderMakesTheIcrcUnchecked() {
        MemorySegment s = ipv6WithExtensions(1, 0, true);
        assertExpert(run(s), NOTE, "IPv6 extension headers: the ICRC masking over them is undefined, ICRC unchecked");
        assertTrue(d.isRoce());
        assertEquals(IcrcStatus.UNCHECKED, d.icrcStatus());
    }

    @Test
    void manyIpv6ExtensionHeadersAreReported() {
        MemorySegment s = ipv6WithExtensions(17, 0, true);
        run(s);
        assertTrue(d.isRoce() || !d.expert().isEmpty(), "17 extension headers then UDP: " + d.protocols() + " " + d.expert());
    }

    /**
     * Ethernet/IPv6 with n extension headers of the given type (8 bytes each, all pointing to the same type):
     * terminated: the last points to UDP, followed by a valid RoCE packet; otherwise the chain never ends
     * (a loop) and the payload length covers only the extension headers.
     */
    private static MemorySegment ipv6WithExtensions(int n, int type, boolean terminated) {
        SplittableRandom rnd = new SplittableRandom(SEED);
        Frame f;
        do {
            f = TestFrames.frame(rnd, Net.IPV6, 0, 0, Spec.OPCODES_TVER0.get(0x04), false, 5, new byte[8], 0, List.of(), false, "v6");
        } while (f.bthOffset() != 14 + 40 + 8);
        byte[] b = f.bytes();
        int ext = 14 + 40;
        byte[] o = new byte[terminated ? b.length + 8 * n : ext + 8 * n];
        System.arraycopy(b, 0, o, 0, ext);
        if (terminated) System.arraycopy(b, ext, o, ext + 8 * n, b.length - ext);
        MemorySegment s = MemorySegment.ofArray(o);
        set(s, 14, "ipv6.nxt", type);
        set(s, 14, "ipv6.plen", o.length - ext);
        for (int i = 0; i < n; i++) {
            o[ext + 8 * i] = (byte) (terminated && i == n - 1 ? 17 : type);
            o[ext + 8 * i + 1] = 0; // length 0: 8 bytes (AH counts 4-byte units minus 2, the others 8-byte units minus 1)
        }
        return s;
    }

    @Test
    void thirtyVlanTags() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        Frame f = TestFrames.frame(rnd, Net.IPV4, 30, 0, Spec.OPCODES_TVER0.get(0x04), false, 5, new byte[8], 0, List.of(), false, "qinq");
        assertExpert(run(MemorySegment.ofArray(f.bytes())), ERROR, "more than 16 VLAN tags");
        assertFalse(d.isRoce());
    }

    @Test
    void vlanTagsThatFillTheLayerTableAreReported() {
        for (int tags = 19; tags <= 23; tags++) {
            SplittableRandom rnd = new SplittableRandom(SEED);
            Frame f = TestFrames.frame(rnd, Net.IPV4, tags, 0, Spec.OPCODES_TVER0.get(0x0A), false, 5, new byte[8], 0, List.of(), false,
                    "vlans");
            run(MemorySegment.ofArray(f.bytes()));
            boolean complete = d.protocols().equals(String.join(":", f.expected()));
            assertTrue(complete || !d.expert().isEmpty(), tags + " tags: " + d.protocols() + ", no expert item");
            assertEquals(d.opcode() != null, d.isRoce(), tags + " tags: opcode " + d.opcode() + " but isRoce() " + d.isRoce());
        }
    }

    @Test
    void rocev1GrhPayloadLengthBeyondTheFrame() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        Frame f = TestFrames.frame(rnd, Net.ROCEV1, 0, 0, Spec.OPCODES_TVER0.get(0x04), false, 5, new byte[8], 0, List.of(), false, "v1");
        MemorySegment s = MemorySegment.ofArray(f.bytes());
        set(s, 14, "grh.paylen", 1000);
        assertExpert(run(s), ERROR, "GRH payload length 1000 exceeds the frame");
    }

    @Test
    void cmMadToQp1CutShort() {
        byte[] mad = new byte[24 + 100];
        MemorySegment m = MemorySegment.ofArray(mad);
        set(m, 0, "mad.mgmt_class", 0x07);
        set(m, 0, "mad.attribute_id", 0x10);
        MemorySegment s = ud(mad);
        assertExpert(run(s), WARN, "CM ConnectRequest cut short: 100 of 232 bytes");
        assertTrue(d.hasLayer(TestFrames.header("mad").index()));
        assertFalse(d.hasLayer(TestFrames.header("cm_req").index()));
        assertExpert(run(ud(new byte[10])), WARN, "UD packet to QP 1 too short for a MAD header (10 bytes)");
    }

    @Test
    void snapCutCmMadIsNotMalformed() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        Frame f = TestFrames.cmFrame(rnd, Spec.ENUM_CM_ATTRIBUTE.of(0x10));
        MemorySegment s = MemorySegment.ofArray(f.bytes()).asSlice(0, 128); // tcpdump -s 128
        run(s, f.bytes().length, 1);
        assertTrue(d.truncated());
        assertTrue(d.expert().stream().noneMatch(e -> e.group() == ExpertItem.Group.MALFORMED), d.expert().toString());
    }

    @Test
    void announcedFcsIsNotStrippedFromASnapCut() {
        MemorySegment s = sendOnly(64);
        byte[] withFcs = Arrays.copyOf(s.toArray(ValueLayout.JAVA_BYTE), (int) s.byteSize() + 4);
        byte[] part = Arrays.copyOf(withFcs, BTH + 12);
        dissect("fcs", part, withFcs.length, 1, 4);
        assertTrue(d.isRoce(), "BTH fully captured: " + d.expert());
    }

    /** A UD SEND Only (tver 0) to QP 1 with this payload over Ethernet/IPv4. */
    private static MemorySegment ud(byte[] payload) {
        SplittableRandom rnd = new SplittableRandom(SEED);
        Frame f;
        do {
            f = TestFrames.frame(rnd, Net.IPV4, 0, 0, Spec.OPCODES_TVER0.get(0x64), false, 1, payload, 0, List.of(), false, "ud");
        } while (f.bthOffset() != BTH);
        return MemorySegment.ofArray(f.bytes());
    }

    // ------------------------------------------------------------------ dissection and invariants

    private Dissection dissect(String ctx, byte[] bytes, long original, int linkType, int fcs) {
        dissections++;
        try {
            dissector.dissect(MemorySegment.ofArray(bytes), dissections, 0, original, linkType, fcs, d);
        } catch (Throwable t) {
            throw new AssertionError(ctx + "dissect threw " + t + "\n  frame: " + HexFormat.of().formatHex(bytes), t);
        }
        withBytes(bytes, () -> checkInvariants(ctx, d));
        return d;
    }

    /** What must hold for every dissection, whatever the input. */
    private void checkInvariants(String ctx, Dissection d) {
        for (ExpertItem e : d.expert()) {
            assertTrue(e.severity() != null && e.group() != null && e.message() != null && !e.message().isBlank(), () -> ctx + e);
            assertFalse(e.message().contains(FALLBACK), () -> ctx + "a read was not bounds-checked: " + e);
        }
        Severity worst = d.expert().stream().map(ExpertItem::severity).max(Severity::compareTo).orElse(null);
        assertEquals(worst, d.worstSeverity(), () -> ctx + "worstSeverity");
        int previous = 0;
        for (int i = 0; i < d.layerCount(); i++) {
            int off = d.layerOffset(i);
            HeaderDef h = d.layer(i);
            assertTrue(off >= previous && off + h.size() <= d.capturedLength(),
                    () -> ctx + "layer " + h.id() + " at " + off + " of a " + d.capturedLength() + "-byte frame");
            previous = off;
        }
        if (d.opcode() != null || d.hasMrth()) assertTrue(d.isRoce(), () -> ctx + "opcode without a BTH layer");
        if (d.hasMrth()) assertEquals(1, d.tver(), ctx);
        switch (d.icrcStatus()) {
            case GOOD, BAD -> {
                assertTrue(d.icrcValue() >= 0 && d.icrcComputed() >= 0, ctx);
                assertEquals(d.icrcStatus() == IcrcStatus.BAD, d.icrcValue() != d.icrcComputed(), ctx);
                assertEquals(d.icrcStatus() == IcrcStatus.BAD,
                        d.expert().stream().anyMatch(e -> e.message().startsWith("bad ICRC")), () -> ctx + d.expert());
            }
            case UNCHECKED, NONE -> assertTrue(d.expert().stream().noneMatch(e -> e.message().startsWith("bad ICRC")), ctx);
        }
        // Every field the frame has must be readable (what -T fields / filters do).
        fields.of(d);
        try {
            d.protocols();
            for (FieldDef f : Spec.FIELDS) {
                int n = fields.count(f);
                for (int i = 0; i < n; i++) fields.value(f, i);
            }
        } catch (RuntimeException e) {
            throw new AssertionError(ctx + "FrameFields threw " + e, e);
        }
    }

    // ------------------------------------------------------------------ helpers

    /** End of the network datagram (IPv4 total length, IPv6 or GRH payload length), else the captured length. */
    private static int contentEnd(Dissection d) {
        int ip = d.offsetOf(TestFrames.header("ip").index());
        if (ip >= 0) return ip + (int) TestFrames.get(d.data(), ip, "ip.len");
        int ipv6 = d.offsetOf(TestFrames.header("ipv6").index());
        if (ipv6 >= 0) return ipv6 + 40 + (int) TestFrames.get(d.data(), ipv6, "ipv6.plen");
        int grh = d.offsetOf(TestFrames.header("grh").index());
        if (grh >= 0) return grh + 40 + (int) TestFrames.get(d.data(), grh, "grh.paylen");
        return d.capturedLength();
    }

    /** End of the RoCE transport packet (after the ICRC) of a clean frame. */
    private static int transportEnd(Dissection d) {
        int udp = d.offsetOf(TestFrames.header("udp").index());
        if (udp >= 0) return udp + (int) TestFrames.get(d.data(), udp, "udp.length");
        return contentEnd(d);
    }

    private static List<String> layers(Dissection d) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < d.layerCount(); i++) out.add(d.layer(i).id() + "@" + d.layerOffset(i));
        return out;
    }

    private static void assertPrefix(String ctx, List<String> full, List<String> part) {
        assertTrue(part.size() <= full.size() && full.subList(0, part.size()).equals(part),
                () -> ctx + "layers " + part + " are not a prefix of " + full);
    }

    private static List<String> messages(Dissection d, Severity severity) {
        return d.expert().stream().filter(e -> e.severity() == severity).map(ExpertItem::message).collect(Collectors.toList());
    }

    private static boolean has(Dissection d, ExpertItem.Group group) {
        return d.expert().stream().anyMatch(e -> e.group() == group);
    }

    /** Failure context; the frame bytes are added by {@link #dissect} and {@link #withBytes} when something fails. */
    private static String ctx(String what, byte[] bytes) {
        return "[seed " + SEED + "] " + what + "\n  ";
    }

    /** Runs check; a failure gets the frame bytes appended to its message. */
    private static void withBytes(byte[] bytes, Runnable check) {
        try {
            check.run();
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n  frame: " + HexFormat.of().formatHex(bytes), e);
        }
    }
}
