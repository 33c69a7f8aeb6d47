package io.metaroce.gui;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the packet list's Time column shows a frame's time (Wireshark's View > Time Display Format). */
public enum TimeFormat {
    /** Date and time of day, UTC, to the nanosecond. */
    ABSOLUTE("Absolute (UTC)"),
    /** Seconds since the first frame of the capture. */
    RELATIVE("Seconds since the first frame"),
    /** Seconds since the previous frame of the capture. */
    DELTA("Seconds since the previous frame");

    private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
    private final String label;

    TimeFormat(String label) { this.label = label; }

    public String label() { return label; }

    /** The text of frame's time: t its time, first the capture's first time, previous the previous frame's. */
    public String format(long t, long first, long previous) {
        return switch (this) {
            case ABSOLUTE -> DAY_TIME.format(Instant.ofEpochSecond(Math.floorDiv(t, 1_000_000_000L))) + "."
                    + nine(Math.floorMod(t, 1_000_000_000L));
            case RELATIVE -> seconds(t - first);
            case DELTA -> seconds(t - previous);
        };
    }

    static String seconds(long ns) {
        String sign = ns < 0 ? "-" : "";
        long a = Math.abs(ns);
        return sign + (a / 1_000_000_000L) + "." + nine(a % 1_000_000_000L);
    }

    private static String nine(long frac) {
        String s = Long.toString(frac);
        return "0".repeat(9 - s.length()) + s;
    }
}
