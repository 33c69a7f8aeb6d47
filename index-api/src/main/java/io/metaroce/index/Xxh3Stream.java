package io.metaroce.index;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hashing;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * XXH3-128 (seed 0, the default secret) of bytes fed a block at a time: the very value of hash4j's
 * {@code Hashing.xxh3_128()} and of {@code xxh128sum}, computed by a loop written for the quick compiler (C1), which
 * the launcher runs {@code metaroce index} with on captures under 1 GiB. hash4j reads each 8-byte lane of the input
 * through a byte-array VarHandle, which C1 compiles into calls rather than loads; here each run of whole 1 KB blocks
 * is first copied into a long[] (one bulk copy, ~45 GB/s from the CPU cache), and the accumulation reads plain array
 * elements. Under C1 alone 733 MB hash in 0.15-0.16 s of CPU against hash4j's 0.18-0.21 (docs/benchmarks.md, "helper
 * ixcpu, eleventh session"). Inputs of up to 240 bytes, which XXH3 hashes by other formulas, go to hash4j whole.
 *
 * <p>The long-input algorithm (xxhash.h, XXH3_hashLong_128b): eight 64-bit accumulators take the input in 64-byte
 * stripes, each stripe keyed with the secret 8 bytes further on, and are scrambled after every 1,024-byte block of 16
 * stripes; the last stripe is always the input's last 64 bytes (overlapping what came before), keyed with the secret
 * at byte 121; the two halves of the result merge the accumulators keyed with the secret at byte 11 and at byte 117.
 * A block is taken only once a byte after it has arrived, since the input's last byte must fall in the final partial
 * block (a length that is a multiple of 1,024 ends with 15 stripes and the last stripe, not a whole block).
 */
final class Xxh3Stream {
    private static final byte[] SECRET = {
        (byte) 0xb8, (byte) 0xfe, (byte) 0x6c, (byte) 0x39, (byte) 0x23, (byte) 0xa4, (byte) 0x4b, (byte) 0xbe,
        (byte) 0x7c, (byte) 0x01, (byte) 0x81, (byte) 0x2c, (byte) 0xf7, (byte) 0x21, (byte) 0xad, (byte) 0x1c,
        (byte) 0xde, (byte) 0xd4, (byte) 0x6d, (byte) 0xe9, (byte) 0x83, (byte) 0x90, (byte) 0x97, (byte) 0xdb,
        (byte) 0x72, (byte) 0x40, (byte) 0xa4, (byte) 0xa4, (byte) 0xb7, (byte) 0xb3, (byte) 0x67, (byte) 0x1f,
        (byte) 0xcb, (byte) 0x79, (byte) 0xe6, (byte) 0x4e, (byte) 0xcc, (byte) 0xc0, (byte) 0xe5, (byte) 0x78,
        (byte) 0x82, (byte) 0x5a, (byte) 0xd0, (byte) 0x7d, (byte) 0xcc, (byte) 0xff, (byte) 0x72, (byte) 0x21,
        (byte) 0xb8, (byte) 0x08, (byte) 0x46, (byte) 0x74, (byte) 0xf7, (byte) 0x43, (byte) 0x24, (byte) 0x8e,
        (byte) 0xe0, (byte) 0x35, (byte) 0x90, (byte) 0xe6, (byte) 0x81, (byte) 0x3a, (byte) 0x26, (byte) 0x4c,
        (byte) 0x3c, (byte) 0x28, (byte) 0x52, (byte) 0xbb, (byte) 0x91, (byte) 0xc3, (byte) 0x00, (byte) 0xcb,
        (byte) 0x88, (byte) 0xd0, (byte) 0x65, (byte) 0x8b, (byte) 0x1b, (byte) 0x53, (byte) 0x2e, (byte) 0xa3,
        (byte) 0x71, (byte) 0x64, (byte) 0x48, (byte) 0x97, (byte) 0xa2, (byte) 0x0d, (byte) 0xf9, (byte) 0x4e,
        (byte) 0x38, (byte) 0x19, (byte) 0xef, (byte) 0x46, (byte) 0xa9, (byte) 0xde, (byte) 0xac, (byte) 0xd8,
        (byte) 0xa8, (byte) 0xfa, (byte) 0x76, (byte) 0x3f, (byte) 0xe3, (byte) 0x9c, (byte) 0x34, (byte) 0x3f,
        (byte) 0xf9, (byte) 0xdc, (byte) 0xbb, (byte) 0xc7, (byte) 0xc7, (byte) 0x0b, (byte) 0x4f, (byte) 0x1d,
        (byte) 0x8a, (byte) 0x51, (byte) 0xe0, (byte) 0x4b, (byte) 0xcd, (byte) 0xb4, (byte) 0x59, (byte) 0x31,
        (byte) 0xc8, (byte) 0x9f, (byte) 0x7e, (byte) 0xc9, (byte) 0xd9, (byte) 0x78, (byte) 0x73, (byte) 0x64,
        (byte) 0xea, (byte) 0xc5, (byte) 0xac, (byte) 0x83, (byte) 0x34, (byte) 0xd3, (byte) 0xeb, (byte) 0xc3,
        (byte) 0xc5, (byte) 0x81, (byte) 0xa0, (byte) 0xff, (byte) 0xfa, (byte) 0x13, (byte) 0x63, (byte) 0xeb,
        (byte) 0x17, (byte) 0x0d, (byte) 0xdd, (byte) 0x51, (byte) 0xb7, (byte) 0xf0, (byte) 0xda, (byte) 0x49,
        (byte) 0xd3, (byte) 0x16, (byte) 0x55, (byte) 0x26, (byte) 0x29, (byte) 0xd4, (byte) 0x68, (byte) 0x9e,
        (byte) 0x2b, (byte) 0x16, (byte) 0xbe, (byte) 0x58, (byte) 0x7d, (byte) 0x47, (byte) 0xa1, (byte) 0xfc,
        (byte) 0x8f, (byte) 0xf8, (byte) 0xb8, (byte) 0xd1, (byte) 0x7a, (byte) 0xd0, (byte) 0x31, (byte) 0xce,
        (byte) 0x45, (byte) 0xcb, (byte) 0x3a, (byte) 0x8f, (byte) 0x95, (byte) 0x16, (byte) 0x04, (byte) 0x28,
        (byte) 0xaf, (byte) 0xd7, (byte) 0xfb, (byte) 0xca, (byte) 0xbb, (byte) 0x4b, (byte) 0x40, (byte) 0x7e,
    };
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The secret's 24 longs from byte 0: a stripe's key is 8 of them, one further on per stripe; the scramble's, 16-23. */
    private static final long[] KEYS = secretLongs(0, 24);
    /** The keys of the last stripe (byte 121), and of the two halves' merges (bytes 11 and 117). */
    private static final long[] LAST_KEYS = secretLongs(SECRET.length - 64 - 7, 8), LOW_KEYS = secretLongs(11, 8),
            HIGH_KEYS = secretLongs(SECRET.length - 64 - 11, 8);
    private static final long PRIME32_1 = 0x9E3779B1L, PRIME32_2 = 0x85EBCA77L, PRIME32_3 = 0xC2B2AE3DL;
    private static final long PRIME64_1 = 0x9E3779B185EBCA87L, PRIME64_2 = 0xC2B2AE3D27D4EB4FL,
            PRIME64_3 = 0x165667B19E3779F9L, PRIME64_4 = 0x85EBCA77C2B2AE63L, PRIME64_5 = 0x27D4EB2F165667C5L;
    private static final int BLOCK = 1024, STRIPE = 64, SHORT_MAX = 240;
    /** Blocks copied into {@link #words} at a time (64 KB, the reader's block). */
    private static final int WORDS_BLOCKS = 64;

    private long a0 = PRIME32_3, a1 = PRIME64_1, a2 = PRIME64_2, a3 = PRIME64_3, a4 = PRIME64_4, a5 = PRIME32_2,
            a6 = PRIME64_5, a7 = PRIME32_1;
    /** Bytes not taken yet (1 to 1,024 once any came): the last block, until a byte after it arrives. */
    private final byte[] pending = new byte[BLOCK];
    private int pendingBytes;
    /** The last 64 bytes of the last block taken: the last stripe's start when fewer than 64 bytes follow. */
    private final byte[] lastTaken = new byte[STRIPE];
    private final long[] words = new long[WORDS_BLOCKS * BLOCK / Long.BYTES];
    private long length;

    private static long[] secretLongs(int from, int n) {
        long[] r = new long[n];
        MemorySegment.copy(MemorySegment.ofArray(SECRET), LE, from, r, 0, n);
        return r;
    }

    /** The next n bytes are {@code b[off, off + n)}. */
    void update(byte[] b, int off, int n) {
        length += n;
        if (pendingBytes > 0 || n <= BLOCK) {
            int take = Math.min(n, BLOCK - pendingBytes);
            System.arraycopy(b, off, pending, pendingBytes, take);
            pendingBytes += take;
            off += take;
            n -= take;
            if (n == 0) return;
            // A full pending block with more bytes after it: a whole block.
            MemorySegment.copy(MemorySegment.ofArray(pending), LE, 0, words, 0, BLOCK / Long.BYTES);
            block(words, 0);
            System.arraycopy(pending, BLOCK - STRIPE, lastTaken, 0, STRIPE);
            pendingBytes = 0;
        }
        // Whole blocks straight from b, all but the last when n is a multiple of BLOCK (see the class comment).
        int whole = (n - 1) / BLOCK;
        if (whole > 0) {
            MemorySegment from = MemorySegment.ofArray(b);
            for (int done = 0; done < whole; ) {
                int k = Math.min(whole - done, WORDS_BLOCKS);
                MemorySegment.copy(from, LE, off, words, 0, k * BLOCK / Long.BYTES);
                for (int i = 0; i < k; i++) block(words, i * (BLOCK / Long.BYTES));
                off += k * BLOCK;
                n -= k * BLOCK;
                done += k;
            }
            System.arraycopy(b, off - STRIPE, lastTaken, 0, STRIPE);
        }
        System.arraycopy(b, off, pending, 0, n);
        pendingBytes = n;
    }

    /**
     * One block of 16 stripes from {@code d[j]}, then the scramble. A call per block, with the accumulators in
     * locals: C1 compiles it after a few hundred blocks (a loop over many blocks in one call would run interpreted
     * until its back-edge count reached on-stack replacement's much higher threshold). Four stripes per step, and
     * each lane taken whole before the next is read (one input word and its keyed form live at a time instead of
     * eight of each): under C1 alone 200 MB hash in 12-13 % less CPU than with a step per stripe that read four lanes
     * at once (30.0-30.2 against 34.0-34.5 ms, best of 10 rounds, the loops alternated in one JVM; docs/benchmarks.md,
     * "helper ixcpu, fourteenth session"). The whole block unrolled, with the keys as literals, was 2-3 % faster
     * still: not worth 128 lines.
     */
    private void block(long[] d, int j) {
        long a0 = this.a0, a1 = this.a1, a2 = this.a2, a3 = this.a3, a4 = this.a4, a5 = this.a5, a6 = this.a6, a7 = this.a7;
        long[] s = KEYS;
        for (int k = 0; k < 16; k += 4, j += 32) {
            long v, x;
            v = d[j + 0]; x = v ^ s[k + 0]; a1 += v; a0 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 1]; x = v ^ s[k + 1]; a0 += v; a1 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 2]; x = v ^ s[k + 2]; a3 += v; a2 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 3]; x = v ^ s[k + 3]; a2 += v; a3 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 4]; x = v ^ s[k + 4]; a5 += v; a4 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 5]; x = v ^ s[k + 5]; a4 += v; a5 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 6]; x = v ^ s[k + 6]; a7 += v; a6 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 7]; x = v ^ s[k + 7]; a6 += v; a7 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 8]; x = v ^ s[k + 1]; a1 += v; a0 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 9]; x = v ^ s[k + 2]; a0 += v; a1 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 10]; x = v ^ s[k + 3]; a3 += v; a2 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 11]; x = v ^ s[k + 4]; a2 += v; a3 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 12]; x = v ^ s[k + 5]; a5 += v; a4 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 13]; x = v ^ s[k + 6]; a4 += v; a5 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 14]; x = v ^ s[k + 7]; a7 += v; a6 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 15]; x = v ^ s[k + 8]; a6 += v; a7 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 16]; x = v ^ s[k + 2]; a1 += v; a0 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 17]; x = v ^ s[k + 3]; a0 += v; a1 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 18]; x = v ^ s[k + 4]; a3 += v; a2 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 19]; x = v ^ s[k + 5]; a2 += v; a3 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 20]; x = v ^ s[k + 6]; a5 += v; a4 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 21]; x = v ^ s[k + 7]; a4 += v; a5 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 22]; x = v ^ s[k + 8]; a7 += v; a6 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 23]; x = v ^ s[k + 9]; a6 += v; a7 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 24]; x = v ^ s[k + 3]; a1 += v; a0 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 25]; x = v ^ s[k + 4]; a0 += v; a1 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 26]; x = v ^ s[k + 5]; a3 += v; a2 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 27]; x = v ^ s[k + 6]; a2 += v; a3 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 28]; x = v ^ s[k + 7]; a5 += v; a4 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 29]; x = v ^ s[k + 8]; a4 += v; a5 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 30]; x = v ^ s[k + 9]; a7 += v; a6 += (x & 0xFFFFFFFFL) * (x >>> 32);
            v = d[j + 31]; x = v ^ s[k + 10]; a6 += v; a7 += (x & 0xFFFFFFFFL) * (x >>> 32);
        }
        this.a0 = (a0 ^ (a0 >>> 47) ^ s[16]) * PRIME32_1;
        this.a1 = (a1 ^ (a1 >>> 47) ^ s[17]) * PRIME32_1;
        this.a2 = (a2 ^ (a2 >>> 47) ^ s[18]) * PRIME32_1;
        this.a3 = (a3 ^ (a3 >>> 47) ^ s[19]) * PRIME32_1;
        this.a4 = (a4 ^ (a4 >>> 47) ^ s[20]) * PRIME32_1;
        this.a5 = (a5 ^ (a5 >>> 47) ^ s[21]) * PRIME32_1;
        this.a6 = (a6 ^ (a6 >>> 47) ^ s[22]) * PRIME32_1;
        this.a7 = (a7 ^ (a7 >>> 47) ^ s[23]) * PRIME32_1;
    }

    /** Bytes fed so far. */
    long length() { return length; }

    /** The hash of the bytes fed so far (the state is left as it was: more bytes may follow). */
    HashValue128 digest() {
        if (length <= SHORT_MAX) return Hashing.xxh3_128().hashBytesTo128Bits(pending, 0, (int) length);
        long[] acc = {a0, a1, a2, a3, a4, a5, a6, a7};
        long[] d = new long[BLOCK / Long.BYTES];
        MemorySegment.copy(MemorySegment.ofArray(pending), LE, 0, d, 0, pendingBytes / Long.BYTES);
        int stripes = (pendingBytes - 1) / STRIPE;
        for (int k = 0; k < stripes; k++) stripe(acc, d, 8 * k, KEYS, k);
        byte[] last = new byte[STRIPE];
        if (pendingBytes >= STRIPE) {
            System.arraycopy(pending, pendingBytes - STRIPE, last, 0, STRIPE);
        } else {
            System.arraycopy(lastTaken, pendingBytes, last, 0, STRIPE - pendingBytes);
            System.arraycopy(pending, 0, last, STRIPE - pendingBytes, pendingBytes);
        }
        long[] l = new long[8];
        MemorySegment.copy(MemorySegment.ofArray(last), LE, 0, l, 0, 8);
        stripe(acc, l, 0, LAST_KEYS, 0);
        return new HashValue128(merge(acc, HIGH_KEYS, ~(length * PRIME64_2)), merge(acc, LOW_KEYS, length * PRIME64_1));
    }

    private static void stripe(long[] acc, long[] d, int j, long[] keys, int k) {
        for (int i = 0; i < 8; i++) {
            long v = d[j + i], key = v ^ keys[k + i];
            acc[i ^ 1] += v;
            acc[i] += (key & 0xFFFFFFFFL) * (key >>> 32);
        }
    }

    /** One 64-bit half: the accumulators mixed in pairs (128-bit products folded), then XXH3's avalanche. */
    private static long merge(long[] acc, long[] keys, long start) {
        long r = start;
        for (int i = 0; i < 8; i += 2) {
            long x = acc[i] ^ keys[i], y = acc[i + 1] ^ keys[i + 1];
            r += x * y ^ Math.unsignedMultiplyHigh(x, y);
        }
        r ^= r >>> 37;
        r *= 0x165667919E3779F9L;
        return r ^ (r >>> 32);
    }
}
