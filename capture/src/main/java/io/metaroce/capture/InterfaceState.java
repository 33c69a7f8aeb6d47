package io.metaroce.capture;

/**
 * Mutable per-interface state kept by the readers: what the interface block said, the precomputed timestamp
 * conversion, and counters. One object per interface, never per frame.
 */
final class InterfaceState {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** 10^0 .. 10^18: every power of ten that fits in a long. */
    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private enum Scale { MULTIPLY, DIVIDE, BINARY, ZERO }

    final int section;
    final int interfaceId;
    final int linkType;
    final long snapLength;
    int fcsLength = -1;
    String name;
    String description;
    long framesRead;
    long ifReceived = -1;
    long ifDropped = -1;
    long osDropped = -1;

    private int tsResolution = 6;
    private long tsOffsetSeconds;
    private Scale scale;
    private long factor;
    private int shift;
    private long offsetNanos;

    InterfaceState(int section, int interfaceId, int linkType, long snapLength) {
        this.section = section;
        this.interfaceId = interfaceId;
        this.linkType = linkType;
        this.snapLength = snapLength;
        setTimestampFormat(6, 0);
    }

    /**
     * Fixes how raw timestamp ticks become epoch nanoseconds. {@code resolution} is the pcapng if_tsresol byte:
     * high bit clear means ticks of 10^-n s, set means 2^-n s. Precomputing here keeps the per-frame
     * conversion to one multiply, divide or 128-bit shift.
     */
    void setTimestampFormat(int resolution, long offsetSeconds) {
        tsResolution = resolution & 0xFF;
        tsOffsetSeconds = offsetSeconds;
        // Saturate rather than wrap: a hostile offset must not throw, and wrapping would be less obviously wrong.
        if (offsetSeconds > Long.MAX_VALUE / NANOS_PER_SECOND) {
            offsetNanos = Long.MAX_VALUE;
        } else if (offsetSeconds < Long.MIN_VALUE / NANOS_PER_SECOND) {
            offsetNanos = Long.MIN_VALUE;
        } else {
            offsetNanos = offsetSeconds * NANOS_PER_SECOND;
        }
        int n = tsResolution & 0x7F;
        if ((tsResolution & 0x80) != 0) {
            scale = Scale.BINARY;
            shift = n;
        } else if (n <= 9) {
            scale = Scale.MULTIPLY;
            factor = POW10[9 - n];
        } else if (n - 9 < POW10.length) {
            scale = Scale.DIVIDE;
            factor = POW10[n - 9];
        } else {
            scale = Scale.ZERO; // finer than 10^-27 s: every 64-bit tick count is below one nanosecond
        }
    }

    int tsResolution() {
        return tsResolution;
    }

    long tsOffsetSeconds() {
        return tsOffsetSeconds;
    }

    /** Converts an unsigned 64-bit tick count to epoch nanoseconds (including if_tsoffset). */
    long toNanos(long ticks) {
        long nanos = switch (scale) {
            case MULTIPLY -> ticks * factor;
            case DIVIDE -> Long.divideUnsigned(ticks, factor);
            case BINARY -> binaryToNanos(ticks, shift);
            case ZERO -> 0;
        };
        return nanos + offsetNanos;
    }

    /** ticks * 10^9 / 2^shift computed in 128 bits, so resolutions up to 2^-127 neither overflow nor lose precision. */
    private static long binaryToNanos(long ticks, int shift) {
        long lo = ticks * NANOS_PER_SECOND;
        long hi = Math.unsignedMultiplyHigh(ticks, NANOS_PER_SECOND);
        if (shift == 0) {
            return lo;
        }
        if (shift < 64) {
            return (lo >>> shift) | (hi << (64 - shift));
        }
        return hi >>> (shift - 64);
    }

    CaptureInterface snapshot() {
        return new CaptureInterface(section, interfaceId, linkType, snapLength, fcsLength, tsResolution,
                tsOffsetSeconds, name, description, framesRead, ifReceived, ifDropped, osDropped);
    }
}
