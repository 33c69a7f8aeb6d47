package io.metaroce.dissector;

import io.metaroce.protocol.Bth;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Grh;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32;

/**
 * The RoCE invariant CRC (§8): CRC-32 (zlib) over 8 bytes of 0xFF, the IP header (or the RoCEv1 GRH),
 * the UDP header and the BTH with their variant fields set to ones, and every byte after the BTH up to
 * the ICRC. Which fields are variant comes from the spec (fields marked {@code icrc: variant}).
 * The masked headers and the bytes after the BTH are copied into one reused scratch array (in chunks for
 * packets longer than it) and fed to the JDK's CRC32 intrinsic from there: no object per frame. (Wrapping the
 * mapping with {@code asSlice(..).asByteBuffer()} instead made two objects and a mapped buffer per frame, and a
 * copy of a packet that is in the cache anyway costs less than that; so did {@code asByteBuffer()} alone, measured
 * again in the tenth session.) When the UDP header follows the IP header, as it always does but for IPv6 extension
 * headers, the packet from its IP header to the ICRC is one copy, masked in place: each copy out of a segment costs
 * a call through the VM under C1 (validate's analysis thread spent more on three such copies per frame than on the
 * CRC itself: docs/benchmarks.md, helper valcpu, tenth session). One instance per thread.
 */
public final class Icrc {
    // Per header, the bytes to OR into a copy so that its variant fields become all ones.
    private static final byte[] IP_VARIANT = variantMask(Ip.HEADER);
    private static final byte[] IPV6_VARIANT = variantMask(Ipv6.HEADER);
    private static final byte[] UDP_VARIANT = variantMask(Udp.HEADER);
    private static final byte[] BTH_VARIANT = variantMask(Bth.HEADER);
    private static final byte[] GRH_VARIANT = variantMask(Grh.HEADER);
    // The bytes each mask sets, as offsets and values: a header has few variant bytes (IPv4 4 of 20).
    private static final int[] IP_AT = setAt(IP_VARIANT), IPV6_AT = setAt(IPV6_VARIANT), UDP_AT = setAt(UDP_VARIANT),
            BTH_AT = setAt(BTH_VARIANT);
    private static final byte[] IP_SET = setBytes(IP_VARIANT), IPV6_SET = setBytes(IPV6_VARIANT),
            UDP_SET = setBytes(UDP_VARIANT), BTH_SET = setBytes(BTH_VARIANT);
    /** The UDP header's and the BTH's variant bytes as one list, from the UDP header's start (they are adjacent). */
    private static final int[] UDP_BTH_AT = java.util.stream.IntStream.concat(java.util.Arrays.stream(UDP_AT),
            java.util.Arrays.stream(BTH_AT).map(i -> i + Udp.SIZE)).toArray();
    private static final byte[] UDP_BTH_SET = concat(UDP_SET, BTH_SET);
    /**
     * The variant bytes of an IPv4 header without options (IPV4_ALL_*) or an IPv6 header (IPV6_ALL_*) and of the UDP
     * header and BTH that follow it, as one list from the IP header's start: the common frame's headers are one copy
     * and one loop ({@link #overIp(byte[], int, int, int, boolean, int, int)}).
     */
    private static final int[] IPV4_ALL_AT = java.util.stream.IntStream.concat(java.util.Arrays.stream(IP_AT),
            java.util.Arrays.stream(UDP_BTH_AT).map(i -> i + Ip.SIZE)).toArray();
    private static final int[] IPV6_ALL_AT = java.util.stream.IntStream.concat(java.util.Arrays.stream(IPV6_AT),
            java.util.Arrays.stream(UDP_BTH_AT).map(i -> i + Ipv6.SIZE)).toArray();
    private static final byte[] IPV4_ALL_SET = concat(IP_SET, UDP_BTH_SET), IPV6_ALL_SET = concat(IPV6_SET, UDP_BTH_SET);
    private static final int LRH_STANDIN = 8;
    private static final int MAX_IP_HEADER = 60;
    /** Bytes after the BTH copied per chunk: a jumbo packet (9,000 bytes) in one. */
    private static final int CHUNK = 9216;

    private final CRC32 crc = new CRC32();
    /** The UDP source port {@link #matchingSourcePort} found last, or -1. */
    private int lastPort = -1;
    private final byte[] scratch = new byte[LRH_STANDIN + MAX_IP_HEADER + Udp.SIZE + Bth.SIZE + CHUNK];
    private final MemorySegment scratchSegment = MemorySegment.ofArray(scratch);
    /** The masked headers of {@link #overIp(byte[], int, int, int, boolean, int, int)}: ones for the LRH, then IP, UDP, BTH. */
    private final byte[] headers = new byte[LRH_STANDIN + MAX_IP_HEADER + Udp.SIZE + Bth.SIZE];

    {
        java.util.Arrays.fill(headers, 0, LRH_STANDIN, (byte) 0xFF);
    }

    /** A byte mask of the header's ICRC-variant fields (spec fields marked {@code icrc: variant}). */
    private static byte[] variantMask(int header) {
        HeaderDef h = Spec.HEADERS.get(header);
        byte[] mask = new byte[h.size()];
        MemorySegment m = MemorySegment.ofArray(mask);
        for (int i = h.firstField(); i < h.firstField() + h.fieldCount(); i++) {
            FieldDef f = Spec.FIELDS.get(i);
            if (f.icrcVariant()) f.writeLong(m, 0, -1L);
        }
        return mask;
    }

    private static int[] setAt(byte[] mask) {
        int n = 0;
        for (byte b : mask) if (b != 0) n++;
        int[] at = new int[n];
        n = 0;
        for (int i = 0; i < mask.length; i++) if (mask[i] != 0) at[n++] = i;
        return at;
    }

    private static byte[] setBytes(byte[] mask) {
        int[] at = setAt(mask);
        byte[] v = new byte[at.length];
        for (int i = 0; i < at.length; i++) v[i] = mask[at[i]];
        return v;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private void setOnes(int[] at, byte[] v, int base) {
        for (int i = 0; i < at.length; i++) scratch[base + at[i]] |= v[i];
    }

    private void setOnes(byte[] mask, int at) {
        for (int i = 0; i < mask.length; i++) scratch[at + i] |= mask[i];
    }

    /**
     * ICRC over an IPv4 or IPv6 (without extension headers) / UDP / BTH packet. ipHeaderLength includes
     * IPv4 options; end is the offset of the first ICRC byte.
     */
    public long overIp(MemorySegment s, long ipOffset, int ipHeaderLength, boolean ipv6, long bthOffset, long end) {
        int n = standIn();
        long udp = bthOffset - Udp.SIZE, headers = udp + Udp.SIZE + Bth.SIZE - ipOffset;
        if (udp == ipOffset + ipHeaderLength && end - ipOffset <= CHUNK + headers) {
            // One copy from the IP header to the ICRC, the variant bytes set in place.
            // Segment to segment: the copy into an array looks the array's type and length up, through the VM under C1.
            MemorySegment.copy(s, ipOffset, scratchSegment, n, Math.max(end - ipOffset, headers));
            if (ipv6) setOnes(IPV6_AT, IPV6_SET, n);
            else setOnes(IP_AT, IP_SET, n);
            n += ipHeaderLength;
            setOnes(UDP_AT, UDP_SET, n);
            setOnes(BTH_AT, BTH_SET, n + Udp.SIZE);
            crc.reset();
            crc.update(scratch, 0, LRH_STANDIN + (int) Math.max(end - ipOffset, headers));
            return crc.getValue();
        }
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, ipOffset, scratch, n, ipHeaderLength);
        setOnes(ipv6 ? IPV6_VARIANT : IP_VARIANT, n);
        n += ipHeaderLength;
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, bthOffset - Udp.SIZE, scratch, n, Udp.SIZE + Bth.SIZE);
        setOnes(UDP_VARIANT, n);
        setOnes(BTH_VARIANT, n + Udp.SIZE);
        n += Udp.SIZE + Bth.SIZE;
        return finish(s, n, bthOffset + Bth.SIZE, end);
    }

    /**
     * As {@link #overIp(MemorySegment, long, int, boolean, long, long)} over a frame that starts at b[base]: only the
     * masked headers are copied (into an array of their own); the bytes after the BTH go to the CRC straight from b. For
     * a frame in a reader's read-ahead window, which the decoding thread has just copied and so reads from its
     * caches: no segment copy (a call through the VM under C1) and no second read of the packet from memory.
     */
    public long overIp(byte[] b, int base, int ipOffset, int ipHeaderLength, boolean ipv6, int bthOffset, int end) {
        // The masked headers in an array of their own whose LRH stand-in was written once; the UDP and BTH headers'
        // variant bytes as one list (once per frame on validate's decoding thread: each loop is a cost under C1).
        byte[] h = headers;
        int n = LRH_STANDIN;
        int ip = base + ipOffset;
        if (bthOffset - Udp.SIZE == ipOffset + ipHeaderLength && ipHeaderLength == (ipv6 ? Ipv6.SIZE : Ip.SIZE)) {
            // The common frame: UDP right after an IP header without options or extension headers, so IP, UDP and BTH
            // are one copy and their variant bytes one loop. Two copies (each a call into the VM's copy stub for 20
            // bytes) and two loops before: this method's own samples on validate's decoding thread, C1 alone, 1 M
            // frames, 25.3 -> 18.8 ms (medians of 8 interleaved runs; docs/benchmarks.md, helper val, seventeenth session).
            int len = ipHeaderLength + Udp.SIZE + Bth.SIZE;
            System.arraycopy(b, ip, h, n, len);
            int[] at = ipv6 ? IPV6_ALL_AT : IPV4_ALL_AT;
            byte[] v = ipv6 ? IPV6_ALL_SET : IPV4_ALL_SET;
            for (int i = 0; i < at.length; i++) h[n + at[i]] |= v[i];
            n += len;
        } else {
            System.arraycopy(b, ip, h, n, ipHeaderLength);
            int[] at = ipv6 ? IPV6_AT : IP_AT;
            byte[] v = ipv6 ? IPV6_SET : IP_SET;
            for (int i = 0; i < at.length; i++) h[n + at[i]] |= v[i];
            n += ipHeaderLength;
            System.arraycopy(b, base + bthOffset - Udp.SIZE, h, n, Udp.SIZE + Bth.SIZE);
            for (int i = 0; i < UDP_BTH_AT.length; i++) h[n + UDP_BTH_AT[i]] |= UDP_BTH_SET[i];
            n += Udp.SIZE + Bth.SIZE;
        }
        crc.reset();
        crc.update(h, 0, n);
        int from = bthOffset + Bth.SIZE;
        if (end > from) crc.update(b, base + from, end - from);
        return crc.getValue();
    }

    /**
     * For a packet whose ICRC does not match: the UDP source port with which it would, or -1. The CRC is
     * affine in the message bits, so ICRC(port p) = ICRC(port 0) xor L(p) with L linear in the 16 bits of p:
     * 17 CRC passes give L's basis, and Gaussian elimination over GF(2) solves L(p) = ICRC xor ICRC(port 0)
     * for all 65536 ports at once.
     */
    public int matchingSourcePort(MemorySegment s, long ipOffset, int ipHeaderLength, boolean ipv6, long bthOffset,
                                  long end, long expected) {
        int n = standIn();
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, ipOffset, scratch, n, ipHeaderLength);
        setOnes(ipv6 ? IPV6_VARIANT : IP_VARIANT, n);
        n += ipHeaderLength;
        int port = n; // the UDP source port is the first field of the UDP header
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, bthOffset - Udp.SIZE, scratch, n, Udp.SIZE + Bth.SIZE);
        setOnes(UDP_VARIANT, n);
        setOnes(BTH_VARIANT, n + Udp.SIZE);
        n += Udp.SIZE + Bth.SIZE;
        int actual = ((scratch[port] & 0xFF) << 8) | (scratch[port + 1] & 0xFF);
        // A capture point rewrites every packet of a QP the same way: the port found last usually fits again,
        // which one CRC pass confirms.
        if (lastPort >= 0 && lastPort != actual) {
            setPort(port, lastPort);
            boolean same = finish(s, n, bthOffset + Bth.SIZE, end) == expected;
            setPort(port, actual);
            if (same) return lastPort;
        }
        long[] basis = new long[16];
        setPort(port, 0);
        long c0 = finish(s, n, bthOffset + Bth.SIZE, end);
        for (int k = 0; k < 16; k++) {
            setPort(port, 1 << k);
            basis[k] = finish(s, n, bthOffset + Bth.SIZE, end) ^ c0;
        }
        setPort(port, actual);
        long target = (expected ^ c0) & 0xFFFFFFFFL;
        // Echelon form of the basis: each kept vector has a pivot bit no vector kept before it has.
        long[] vec = new long[16];
        int[] comb = new int[16], pivot = new int[16];
        int rank = 0;
        for (int k = 0; k < 16; k++) {
            long v = basis[k];
            int c = 1 << k;
            for (int j = 0; j < rank; j++) {
                if ((v >>> pivot[j] & 1) != 0) {
                    v ^= vec[j];
                    c ^= comb[j];
                }
            }
            if (v == 0) continue;
            vec[rank] = v;
            comb[rank] = c;
            pivot[rank++] = 63 - Long.numberOfLeadingZeros(v);
        }
        int p = 0;
        for (int j = 0; j < rank; j++) {
            if ((target >>> pivot[j] & 1) != 0) {
                target ^= vec[j];
                p ^= comb[j];
            }
        }
        if (target != 0 || p == actual) return -1;
        lastPort = p;
        return p;
    }

    private void setPort(int at, int p) {
        scratch[at] = (byte) (p >>> 8);
        scratch[at + 1] = (byte) p;
    }

    /** ICRC of a RoCEv1 packet: GRH instead of IP, no UDP header. */
    public long overGrh(MemorySegment s, long grhOffset, long bthOffset, long end) {
        int n = standIn();
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, grhOffset, scratch, n, Grh.SIZE);
        setOnes(GRH_VARIANT, n);
        n += Grh.SIZE;
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, bthOffset, scratch, n, Bth.SIZE);
        setOnes(BTH_VARIANT, n);
        n += Bth.SIZE;
        return finish(s, n, bthOffset + Bth.SIZE, end);
    }

    /** 8 bytes of ones stand in for the InfiniBand LRH, which RoCE does not carry. */
    private int standIn() {
        for (int i = 0; i < LRH_STANDIN; i++) scratch[i] = (byte) 0xFF;
        return LRH_STANDIN;
    }

    /** CRC-32 of scratch[0, n) followed by the bytes [from, end) of s. */
    private long finish(MemorySegment s, int n, long from, long end) {
        crc.reset();
        long rest = end - from;
        if (rest <= 0) {
            crc.update(scratch, 0, n);
            return crc.getValue();
        }
        // The first chunk shares the scratch with the headers (one CRC call for a packet of up to CHUNK bytes).
        int first = (int) Math.min(rest, CHUNK);
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, from, scratch, n, first);
        crc.update(scratch, 0, n + first);
        updateFrom(s, from + first, end);
        return crc.getValue();
    }

    /** Feeds the bytes [from, end) of s to the CRC through the scratch array, CHUNK bytes at a time. */
    private void updateFrom(MemorySegment s, long from, long end) {
        for (long at = from; at < end; ) {
            int len = (int) Math.min(end - at, scratch.length);
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, at, scratch, 0, len);
            crc.update(scratch, 0, len);
            at += len;
        }
    }

    /** CRC-32 over [0, end): the Ethernet FCS when it is the 4 bytes at end (least significant first). */
    public long crc32(MemorySegment s, long end) {
        crc.reset();
        updateFrom(s, 0, end);
        return crc.getValue();
    }
}
