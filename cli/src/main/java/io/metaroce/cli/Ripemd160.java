package io.metaroce.cli;

/**
 * RIPEMD-160 (Dobbertin, Bosselaers, Preneel 1996), which capinfos 4.0 prints between SHA256 and SHA1 and the Java
 * runtime does not have. A plain block function over the published tables (no dependency for one hash line);
 * checked against the published test vectors and capinfos' own line ({@code CaptureToolsTest}).
 */
final class Ripemd160 {
    private static final int[] R_LEFT = {
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
            7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8,
            3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5, 12,
            1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2,
            4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13};
    private static final int[] R_RIGHT = {
            5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12,
            6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2,
            15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4, 13,
            8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14,
            12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11};
    private static final int[] S_LEFT = {
            11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8,
            7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12,
            11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5, 12, 7, 5,
            11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12,
            9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6};
    private static final int[] S_RIGHT = {
            8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6,
            9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11,
            9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13, 13, 7, 5,
            15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8,
            8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11};

    private static final java.lang.invoke.VarHandle LITTLE_INT =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private final int[] h = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    private final int[] x = new int[16];
    private final byte[] block = new byte[64];
    private int filled;
    private long length;

    void update(byte[] data, int offset, int count) {
        length += count;
        int i = offset, end = offset + count;
        if (filled > 0) {
            int n = Math.min(64 - filled, count);
            System.arraycopy(data, i, block, filled, n);
            filled += n;
            i += n;
            if (filled < 64) return;
            compress(block, 0);
            filled = 0;
        }
        for (; end - i >= 64; i += 64) compress(data, i);
        System.arraycopy(data, i, block, 0, end - i);
        filled = end - i;
    }

    /** The 20-byte digest; the instance is spent afterwards. */
    byte[] digest() {
        long bits = length << 3;
        byte[] pad = new byte[(filled < 56 ? 56 : 120) - filled + 8];
        pad[0] = (byte) 0x80;
        for (int i = 0; i < 8; i++) pad[pad.length - 8 + i] = (byte) (bits >>> (8 * i));
        update(pad, 0, pad.length);
        byte[] out = new byte[20];
        for (int i = 0; i < 20; i++) out[i] = (byte) (h[i / 4] >>> (8 * (i % 4)));
        return out;
    }

    private void compress(byte[] b, int at) {
        for (int i = 0; i < 16; i++) x[i] = (int) LITTLE_INT.get(b, at + 4 * i);
        int al = h[0], bl = h[1], cl = h[2], dl = h[3], el = h[4];
        int ar = al, br = bl, cr = cl, dr = dl, er = el;
        // The 80 steps as five loops of 16, each round's function written out (a switch per step cost about 8% of the time).
        for (int j = 0; j < 16; j++) {
            int t = Integer.rotateLeft(al + (bl ^ cl ^ dl) + x[R_LEFT[j]] + 0x00000000, S_LEFT[j]) + el;
            al = el;
            el = dl;
            dl = Integer.rotateLeft(cl, 10);
            cl = bl;
            bl = t;
            t = Integer.rotateLeft(ar + (br ^ (cr | ~dr)) + x[R_RIGHT[j]] + 0x50A28BE6, S_RIGHT[j]) + er;
            ar = er;
            er = dr;
            dr = Integer.rotateLeft(cr, 10);
            cr = br;
            br = t;
        }
        for (int j = 16; j < 32; j++) {
            int t = Integer.rotateLeft(al + ((bl & cl) | (~bl & dl)) + x[R_LEFT[j]] + 0x5A827999, S_LEFT[j]) + el;
            al = el;
            el = dl;
            dl = Integer.rotateLeft(cl, 10);
            cl = bl;
            bl = t;
            t = Integer.rotateLeft(ar + ((br & dr) | (cr & ~dr)) + x[R_RIGHT[j]] + 0x5C4DD124, S_RIGHT[j]) + er;
            ar = er;
            er = dr;
            dr = Integer.rotateLeft(cr, 10);
            cr = br;
            br = t;
        }
        for (int j = 32; j < 48; j++) {
            int t = Integer.rotateLeft(al + ((bl | ~cl) ^ dl) + x[R_LEFT[j]] + 0x6ED9EBA1, S_LEFT[j]) + el;
            al = el;
            el = dl;
            dl = Integer.rotateLeft(cl, 10);
            cl = bl;
            bl = t;
            t = Integer.rotateLeft(ar + ((br | ~cr) ^ dr) + x[R_RIGHT[j]] + 0x6D703EF3, S_RIGHT[j]) + er;
            ar = er;
            er = dr;
            dr = Integer.rotateLeft(cr, 10);
            cr = br;
            br = t;
        }
        for (int j = 48; j < 64; j++) {
            int t = Integer.rotateLeft(al + ((bl & dl) | (cl & ~dl)) + x[R_LEFT[j]] + 0x8F1BBCDC, S_LEFT[j]) + el;
            al = el;
            el = dl;
            dl = Integer.rotateLeft(cl, 10);
            cl = bl;
            bl = t;
            t = Integer.rotateLeft(ar + ((br & cr) | (~br & dr)) + x[R_RIGHT[j]] + 0x7A6D76E9, S_RIGHT[j]) + er;
            ar = er;
            er = dr;
            dr = Integer.rotateLeft(cr, 10);
            cr = br;
            br = t;
        }
        for (int j = 64; j < 80; j++) {
            int t = Integer.rotateLeft(al + (bl ^ (cl | ~dl)) + x[R_LEFT[j]] + 0xA953FD4E, S_LEFT[j]) + el;
            al = el;
            el = dl;
            dl = Integer.rotateLeft(cl, 10);
            cl = bl;
            bl = t;
            t = Integer.rotateLeft(ar + (br ^ cr ^ dr) + x[R_RIGHT[j]] + 0x00000000, S_RIGHT[j]) + er;
            ar = er;
            er = dr;
            dr = Integer.rotateLeft(cr, 10);
            cr = br;
            br = t;
        }
        int t = h[1] + cl + dr;
        h[1] = h[2] + dl + er;
        h[2] = h[3] + el + ar;
        h[3] = h[4] + al + br;
        h[4] = h[0] + bl + cr;
        h[0] = t;
    }
}
