package io.metaroce.analysis;

/**
 * 24-bit PSN arithmetic (§ conventions: modular, "a before b iff 0 < (b - a) mod 2^24 < 2^23"), and the
 * unwrapped 64-bit PSNs the stream state is kept in. The one copy, shared by the analysis and the validator.
 */
public final class Psn {
    public static final int MASK = 0xFFFFFF;
    public static final long SPACE = 1L << 24;
    /** Unwrapped PSNs start here so that they stay positive when a stream goes back a little. */
    public static final long ORIGIN = SPACE * 64;

    private Psn() {}

    /** Signed distance b - a in (-2^23, 2^23]. */
    public static int diff(int a, int b) { return ((b - a) << 8) >> 8; }

    /** Unwraps a 24-bit PSN to the 64-bit value nearest to reference {@code ref} (itself unwrapped). */
    public static long unwrap(long ref, int psn) { return ref + diff((int) (ref & MASK), psn & MASK); }

    /** The 24-bit PSN of an unwrapped one. */
    public static int wrap(long u) { return (int) (u & MASK); }
}
