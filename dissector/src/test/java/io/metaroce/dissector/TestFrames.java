package io.metaroce.dissector;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.protocol.CarryDef;
import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Spec;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.URISyntaxException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Test frames shared by {@link KaitaiAgreementTest} and {@link HostileInputTest}: the reference vectors, and
 * valid RoCEv2 / MetaRoCE frames built from the catalogue with random values in every field (each header is
 * filled through {@link FieldDef#writeLong}, then the fields that give the frame its structure are set).
 */
final class TestFrames {
    static final int LINKTYPE_ETHERNET = 1;
    static final int[] TPIDS = {0x8100, 0x88A8, 0x9100};

    private TestFrames() {}

    /** Network layer of a generated frame. */
    enum Net { IPV4, IPV6, ROCEV1 }

    /**
     * One frame. expected: the header ids a correct dissection reports (null for vectors); bthOffset and
     * icrcOffset: -1 when not a generated RoCE frame.
     */
    record Frame(String label, byte[] bytes, long originalLength, int linkType, int fcsLength, List<String> expected,
                 int bthOffset, int icrcOffset) {
        Dissection dissect(Dissector dissector, Dissection out) {
            return dissector.dissect(MemorySegment.ofArray(bytes), 1, 0, originalLength, linkType, fcsLength, out);
        }
    }

    // ------------------------------------------------------------------ catalogue helpers

    private static final Map<String, FieldDef> FIELDS_BY_NAME = new HashMap<>();
    private static final Map<String, HeaderDef> HEADERS_BY_ID = new HashMap<>();

    static {
        for (FieldDef f : Spec.FIELDS) FIELDS_BY_NAME.put(f.name(), f);
        for (HeaderDef h : Spec.HEADERS) HEADERS_BY_ID.put(h.id(), h);
    }

    static FieldDef field(String name) {
        FieldDef f = FIELDS_BY_NAME.get(name);
        if (f == null) throw new IllegalArgumentException("no field " + name);
        return f;
    }

    static HeaderDef header(String id) {
        HeaderDef h = HEADERS_BY_ID.get(id);
        if (h == null) throw new IllegalArgumentException("no header " + id);
        return h;
    }

    static List<FieldDef> fieldsOf(HeaderDef h) {
        return Spec.FIELDS.subList(h.firstField(), h.firstField() + h.fieldCount());
    }

    static void set(MemorySegment s, int headerOffset, String field, long value) {
        field(field).writeLong(s, headerOffset, value);
    }

    static long get(MemorySegment s, int headerOffset, String field) {
        return field(field).readLong(s, headerOffset);
    }

    /** Random values in every (non-sub)field of header h at off; byte fields wider than 64 bits get random bytes. */
    static void randomize(MemorySegment s, int off, HeaderDef h, SplittableRandom rnd) {
        for (FieldDef f : fieldsOf(h)) {
            if (f.isSubfield()) continue;
            if (f.bitWidth() > 64) {
                byte[] b = new byte[f.bitWidth() / 8];
                rnd.nextBytes(b);
                MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, off + f.bitOffset() / 8, b.length);
            } else {
                f.writeLong(s, off, rnd.nextLong());
            }
        }
    }

    // ------------------------------------------------------------------ reference vectors

    static Path vectorDir() {
        try {
            return Path.of(TestFrames.class.getResource("/vectors").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every frame of every vectors/*.pcap, in file order. */
    static List<Frame> vectors() {
        List<Frame> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(vectorDir())) {
            for (Path p : files.filter(f -> f.toString().endsWith(".pcap")).sorted().toList()) {
                try (PacketSource src = CaptureFiles.open(p)) {
                    while (src.next()) {
                        out.add(new Frame(p.getFileName() + "#" + src.frameNumber(), src.data().toArray(ValueLayout.JAVA_BYTE),
                                src.originalLength(), src.linkType(), src.fcsLength(), null, -1, -1));
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        if (out.isEmpty()) throw new IllegalStateException("no vector frames under " + vectorDir());
        return out;
    }

    // ------------------------------------------------------------------ generated frames

    /** Opcodes defined under tver (non-null entries of the spec's table). */
    static List<OpcodeDef> opcodes(int tver) {
        List<OpcodeDef> out = new ArrayList<>();
        for (OpcodeDef d : tver == 1 ? Spec.OPCODES_TVER1 : Spec.OPCODES_TVER0) if (d != null) out.add(d);
        return out;
    }

    /**
     * A valid frame: Ethernet, 0..2 VLAN tags, IPv4 (random IHL 5..15 with random options) or IPv6 / UDP 4791,
     * or RoCEv1 (GRH); then BTH, MRTH when tver is 1, the opcode's header chain, payload, pad and a correct ICRC.
     * Every field of every header holds a random value except those that give the frame its structure.
     * The destination QP is never 1 (payload to QP 1 is a MAD, see {@link #cmFrame}).
     */
    static Frame roceFrame(SplittableRandom rnd, int tver, OpcodeDef def, boolean spray) {
        return roceFrame(rnd, tver, def, spray, false);
    }

    /** As {@link #roceFrame(SplittableRandom, int, OpcodeDef, boolean)}; firstFragments: IPv4 MF set at random. */
    static Frame roceFrame(SplittableRandom rnd, int tver, OpcodeDef def, boolean spray, boolean firstFragments) {
        int payloadLen = def.payloadBytes() >= 0 ? def.payloadBytes() : def.payload() ? rnd.nextInt(65) : 0;
        int pad = def.payload() ? rnd.nextInt(4) : 0;
        byte[] payload = new byte[payloadLen];
        rnd.nextBytes(payload);
        long qp = rnd.nextLong(2, 1 << 24);
        return frame(rnd, net(rnd), rnd.nextInt(8) == 0 ? rnd.nextInt(1, 3) : 0, tver, def, spray, qp, payload, pad, List.of(),
                firstFragments && rnd.nextBoolean(), "tver " + tver + " " + def + (spray ? " spray" : ""));
    }

    static Net net(SplittableRandom rnd) {
        int r = rnd.nextInt(10);
        return r < 5 ? Net.IPV4 : r < 9 ? Net.IPV6 : Net.ROCEV1;
    }

    /** The CM messages the catalogue has a header for, as (attribute, header). */
    static List<EnumValueDef> cmAttributes() {
        List<EnumValueDef> out = new ArrayList<>();
        for (EnumValueDef v : Spec.ENUM_CM_ATTRIBUTE.values()) if (HEADERS_BY_ID.containsKey("cm_" + v.id())) out.add(v);
        return out;
    }

    /**
     * A UD SEND Only (tver 0) to QP 1 carrying a 256-byte CM MAD: random MAD header (class 0x07), random CM body,
     * and the headers the spec carries in its private data (IP CM header; MetaRoCE parameters with probability 1/2).
     */
    static Frame cmFrame(SplittableRandom rnd, EnumValueDef attribute) {
        HeaderDef cm = header("cm_" + attribute.id());
        HeaderDef mad = header("mad");
        byte[] payload = new byte[256];
        rnd.nextBytes(payload);
        MemorySegment s = MemorySegment.ofArray(payload);
        randomize(s, 0, mad, rnd);
        set(s, 0, "mad.mgmt_class", 0x07);
        set(s, 0, "mad.attribute_id", attribute.value());
        int body = mad.size();
        randomize(s, body, cm, rnd);
        List<String> carried = new ArrayList<>();
        for (CarryDef c : Spec.CARRIES) {
            FieldDef f = Spec.FIELDS.get(c.field());
            if (f.header() != cm.index()) continue;
            int at = body + f.bitOffset() / 8 + c.at();
            HeaderDef h = Spec.HEADERS.get(c.header());
            randomize(s, at, h, rnd);
            if (c.whenField() >= 0) {
                FieldDef when = Spec.FIELDS.get(c.whenField());
                boolean present = rnd.nextBoolean();
                when.writeLong(s, at, present ? c.whenEquals() : c.whenEquals() ^ (1 + rnd.nextInt(255)));
                if (!present) continue;
            }
            carried.add(h.id());
        }
        List<String> tail = new ArrayList<>();
        tail.add("mad");
        tail.add(cm.id());
        tail.addAll(carried);
        return frame(rnd, net(rnd), 0, 0, Spec.OPCODES_TVER0.get(0x64), false, 1, payload, rnd.nextInt(4), tail, false,
                "CM " + attribute.label());
    }

    /**
     * Builds the frame around the given transport contents; see {@link #roceFrame}. moreFragments: set IPv4 MF
     * (a first fragment, which the dissector decodes with a note).
     */
    static Frame frame(SplittableRandom rnd, Net net, int vlans, int tver, OpcodeDef def, boolean spray, long destQp,
                       byte[] payload, int pad, List<String> payloadHeaders, boolean moreFragments, String label) {
        List<String> expected = new ArrayList<>();
        int[] chain = def.chain(tver == 1 && spray);
        int transport = header("bth").size() + (tver == 1 ? header("mrth").size() : 0);
        for (int h : chain) transport += Spec.HEADERS.get(h).size();
        transport += payload.length + pad + 4;
        int ihl = net == Net.IPV4 ? (rnd.nextInt(4) == 0 ? rnd.nextInt(6, 16) : 5) : 0;
        int netHeader = switch (net) {
            case IPV4 -> ihl * 4 + 8;
            case IPV6 -> 40 + 8;
            case ROCEV1 -> 40;
        };
        int linkHeader = 14 + 4 * vlans;
        byte[] bytes = new byte[linkHeader + netHeader + transport];
        rnd.nextBytes(bytes);
        MemorySegment s = MemorySegment.ofArray(bytes);
        int netType = switch (net) {
            case IPV4 -> 0x0800;
            case IPV6 -> 0x86DD;
            case ROCEV1 -> Spec.ROCE_V1_ETHERTYPE;
        };

        randomize(s, 0, header("eth"), rnd);
        expected.add("eth");
        int off = 14;
        int type = netType;
        int[] tpids = new int[vlans];
        for (int i = 0; i < vlans; i++) tpids[i] = TPIDS[rnd.nextInt(TPIDS.length)];
        set(s, 0, "eth.type", vlans > 0 ? tpids[0] : netType);
        for (int i = 0; i < vlans; i++) {
            randomize(s, off, header("vlan"), rnd);
            set(s, off, "vlan.etype", i + 1 < vlans ? tpids[i + 1] : netType);
            expected.add("vlan");
            off += 4;
        }
        int ipOff = off;
        int ipHeaderLength;
        switch (net) {
            case IPV4 -> {
                randomize(s, off, header("ip"), rnd);
                set(s, off, "ip.version", 4);
                set(s, off, "ip.hdr_len", ihl);
                set(s, off, "ip.len", ihl * 4 + 8 + transport);
                set(s, off, "ip.flags_mf", moreFragments ? 1 : 0);
                set(s, off, "ip.frag_offset", 0);
                set(s, off, "ip.proto", 17);
                expected.add("ip");
                ipHeaderLength = ihl * 4;
                off += ipHeaderLength;
            }
            case IPV6 -> {
                randomize(s, off, header("ipv6"), rnd);
                set(s, off, "ipv6.version", 6);
                set(s, off, "ipv6.plen", 8 + transport);
                set(s, off, "ipv6.nxt", 17);
                expected.add("ipv6");
                ipHeaderLength = 40;
                off += 40;
            }
            default -> {
                randomize(s, off, header("grh"), rnd);
                set(s, off, "grh.paylen", transport);
                expected.add("grh");
                ipHeaderLength = -2;
                off += 40;
            }
        }
        if (net != Net.ROCEV1) {
            randomize(s, off, header("udp"), rnd);
            set(s, off, "udp.dstport", Spec.ROCE_UDP_PORT);
            set(s, off, "udp.length", 8 + transport);
            expected.add("udp");
            off += 8;
        }
        int bthOff = off;
        randomize(s, off, header("bth"), rnd);
        set(s, off, "bth.opcode", def.code());
        set(s, off, "bth.tver", tver);
        set(s, off, "bth.pad_cnt", pad);
        set(s, off, "bth.dest_qp", destQp);
        expected.add("bth");
        off += header("bth").size();
        if (tver == 1) {
            randomize(s, off, header("mrth"), rnd);
            set(s, off, "mrth.version", 1);
            set(s, off, "mrth.spray", spray ? 1 : 0);
            expected.add("mrth");
            off += header("mrth").size();
        }
        for (int h : chain) {
            HeaderDef hd = Spec.HEADERS.get(h);
            randomize(s, off, hd, rnd);
            // A genuine RD packet's RDETH starts with its reserved byte, 0 (a non-zero byte there means DC).
            if (hd.id().equals("rdeth")) set(s, off, "rdeth.resv8", 0);
            expected.add(hd.id());
            off += hd.size();
        }
        System.arraycopy(payload, 0, bytes, off, payload.length);
        expected.addAll(payloadHeaders);
        off += payload.length + pad;
        int icrcOff = off;
        Icrc icrc = new Icrc();
        long crc = ipHeaderLength == -2 ? icrc.overGrh(s, ipOff, bthOff, icrcOff)
                : icrc.overIp(s, ipOff, ipHeaderLength, net == Net.IPV6, bthOff, icrcOff);
        s.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), icrcOff, (int) crc);
        if (icrcOff + 4 != bytes.length) throw new AssertionError("frame layout: " + icrcOff + " + 4 != " + bytes.length);
        return new Frame(net + " " + (vlans > 0 ? vlans + "xVLAN " : "") + label, bytes, bytes.length, LINKTYPE_ETHERNET, -1,
                List.copyOf(expected), bthOff, icrcOff);
    }

    /**
     * A mix of generated frames: every opcode of tver 1 (with and without spray), a third of the tver 0 opcodes
     * and every CM message. firstFragments: see {@link #roceFrame(SplittableRandom, int, OpcodeDef, boolean, boolean)}.
     */
    static List<Frame> generatedMix(SplittableRandom rnd, boolean firstFragments) {
        List<Frame> out = new ArrayList<>();
        for (OpcodeDef d : opcodes(1)) {
            out.add(roceFrame(rnd, 1, d, false, firstFragments));
            out.add(roceFrame(rnd, 1, d, true, firstFragments));
        }
        for (OpcodeDef d : opcodes(0)) if (rnd.nextInt(3) == 0) out.add(roceFrame(rnd, 0, d, false, firstFragments));
        for (EnumValueDef a : cmAttributes()) out.add(cmFrame(rnd, a));
        return out;
    }

    static long seed(String property) {
        String v = System.getProperty(property);
        return v != null ? Long.decode(v) : System.nanoTime();
    }
}
