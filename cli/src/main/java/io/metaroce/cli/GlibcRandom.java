package io.metaroce.cli;

/**
 * glibc's {@code srand}/{@code rand} (the TYPE_3 additive generator: 31 words, taps 3 and 31) and editcap's {@code -E}
 * byte errors drawn from it, so that {@code edit -E P --seed N} changes the same bytes as {@code editcap -E P --seed N}
 * on glibc (Linux): a fuzzing run can be made again with either tool.
 */
final class GlibcRandom {
    static final int RAND_MAX = 0x7FFF_FFFF;
    /** editcap's error kinds and their weights: flip a bit, a random byte, a letter or digit, "%s", 0xAA to the end. */
    private static final int BIT = 5, BYTE = 5, ALNUM = 5, FORMAT = 2, AA = 1, TOTAL = BIT + BYTE + ALNUM + FORMAT + AA;
    private static final byte[] ALNUM_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final int[] r = new int[34];
    private int next;

    GlibcRandom(int seed) {
        // srandom_r: an LCG (16807, Park-Miller by Schrage's method) fills the words, then 310 outputs are thrown away.
        int[] s = new int[31];
        s[0] = seed == 0 ? 1 : seed;
        for (int i = 1; i < 31; i++) {
            int hi = s[i - 1] / 127773, lo = s[i - 1] % 127773;
            int word = 16807 * lo - 2836 * hi;
            if (word < 0) word += RAND_MAX;
            s[i] = word;
        }
        // The ring holds the last 34 words: w[i] = w[i-31] + w[i-3], modulo 2^32.
        int[] w = new int[344];
        System.arraycopy(s, 0, w, 0, 31);
        for (int i = 31; i < 34; i++) w[i] = w[i - 31];
        for (int i = 34; i < 344; i++) w[i] = w[i - 31] + w[i - 3];
        System.arraycopy(w, 310, r, 0, 34);
        next = 0;
    }

    /** rand(): 0 to RAND_MAX. */
    int next() {
        // r holds w[k .. k+33] for the next k, at r[(k + j) % 34] for w[k + j]; the new word is w[k+34] = w[k+3] + w[k+31].
        int word = r[(next + 3) % 34] + r[(next + 31) % 34];
        r[next] = word;
        next = (next + 1) % 34;
        return word >>> 1;
    }

    /** editcap -E on one frame's bytes: each byte from {@code from} on changed with probability {@code p}. */
    void mutate(byte[] buf, int from, int length, double p) {
        for (int i = from; i < length; i++) {
            if (next() <= p * RAND_MAX) {
                int kind = next() / (RAND_MAX / TOTAL + 1);
                if (kind < BIT) {
                    buf[i] ^= (byte) (1 << (next() / (RAND_MAX / 8 + 1)));
                    kind = TOTAL;
                } else {
                    kind -= BYTE;   // editcap subtracts BYTE's weight here (the same as BIT's)
                }
                if (kind < BYTE) {
                    buf[i] = (byte) (next() / (RAND_MAX / 255 + 1));
                    kind = TOTAL;
                } else {
                    kind -= BYTE;
                }
                if (kind < ALNUM) {
                    buf[i] = ALNUM_CHARS[next() / (RAND_MAX / ALNUM_CHARS.length + 1)];
                    kind = TOTAL;
                } else {
                    kind -= ALNUM;
                }
                if (kind < FORMAT) {
                    // g_strlcpy(&buf[i], "%s", 2): '%' and the terminating NUL.
                    if (i < length - 2) {
                        buf[i] = '%';
                        buf[i + 1] = 0;
                    }
                    kind = TOTAL;
                } else {
                    kind -= FORMAT;
                }
                if (kind < AA) {
                    for (int j = i; j < length; j++) buf[j] = (byte) 0xAA;
                    i = length;
                }
            }
        }
    }
}
