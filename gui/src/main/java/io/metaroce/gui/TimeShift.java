package io.metaroce.gui;

import io.metaroce.dissector.FrameIndex;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Edit > Time Shift's change of the frames' times, as Wireshark's (ui/time_shift.c): a straight line through one or
 * two points (a frame's time in the file, the time it must have had). Shifted time =
 * {@code newOrigin + (fileTime - fileOrigin) * newSpan / fileSpan}: one point (shift all, set one packet's time)
 * has equal spans, two points (set packet N, then packet M) put both exactly on their times and the frames between
 * and beyond on the line through them. Exact to the nanosecond at both points (integer arithmetic for the whole
 * spans, a double only for the remainder below one span). Immutable: the frame index holds it
 * ({@link FrameIndex#shiftTimes}), threads read it as they read the index.
 *
 * <p>Times typed in the dialog are UTC, as every time the GUI shows (Wireshark reads them in local time, as it
 * shows them).
 */
record TimeShift(long fileOrigin, long newOrigin, long fileSpan, long newSpan) implements FrameIndex.TimeShift {
    private static final long NS = 1_000_000_000L;

    @Override
    public long shift(long fileNanos) {
        long d = fileNanos - fileOrigin;
        if (fileSpan == newSpan) return newOrigin + d;
        long whole = d / fileSpan, part = d % fileSpan;
        return newOrigin + whole * newSpan + Math.round((double) part * newSpan / fileSpan);
    }

    /** How far this shift moves a frame timestamped fileNanos in the file (Wireshark's frame.offset_shift). */
    long offset(long fileNanos) { return shift(fileNanos) - fileNanos; }

    /** Shift all packets by offset more (on top of shift, as Wireshark's "Shift all packets" adds up). */
    static TimeShift all(TimeShift shift, long offsetNanos) {
        if (shift == null) return new TimeShift(0, offsetNanos, 1, 1);
        return new TimeShift(shift.fileOrigin, shift.newOrigin + offsetNanos, shift.fileSpan, shift.newSpan);
    }

    /** The frame timestamped fileNanos in the file is at newNanos, every other one as far from it as in the file. */
    static TimeShift set(long fileNanos, long newNanos) { return new TimeShift(fileNanos, newNanos, 1, 1); }

    /**
     * Two frames at their new times, the others on the line through them; null when both have the same time in
     * the file (no line goes through them: the dialog says so).
     */
    static TimeShift two(long file1, long new1, long file2, long new2) {
        if (file1 == file2) return null;
        return new TimeShift(file1, new1, file2 - file1, new2 - new1);
    }

    // ------------------------------------------------------------------ the dialog's texts

    /**
     * Wireshark's offset text {@code [-][[hh:]mm:]ss[.ddd]} (a leading + is accepted too) in nanoseconds; its
     * messages for text it does not take (IllegalArgumentException), "Offset is zero." for a zero offset.
     */
    static long parseOffset(String text) {
        String s = text == null ? "" : text.strip();
        boolean negative = s.startsWith("-");
        if (negative || s.startsWith("+")) s = s.substring(1);
        if (s.isEmpty()) throw new IllegalArgumentException("Time is empty.");
        String[] parts = s.split(":", -1);
        if (parts.length > 3) throw new IllegalArgumentException("Could not parse the time: Expected [[hh:]mm:]ss.[dec].");
        long h = 0, m = 0;
        try {
            if (parts.length == 3) h = Long.parseLong(parts[0]);
            if (parts.length >= 2) m = Long.parseLong(parts[parts.length - 2]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Could not parse the time: Expected [[hh:]mm:]ss.[dec].");
        }
        if (h < 0) throw new IllegalArgumentException("Negative hours. Have you specified more than one minus character?");
        if (m < 0 || m > 59) throw new IllegalArgumentException("Minutes must be between [0..59]");
        long sec = seconds(parts[parts.length - 1], "Could not parse the time: Expected [[hh:]mm:]ss.[dec].");
        if (h > 1_000_000) throw new IllegalArgumentException("Hours must be below 1000000");
        long ns = (h * 3600 + m * 60) * NS + sec;
        if (ns == 0) throw new IllegalArgumentException("Offset is zero.");
        return negative ? -ns : ns;
    }

    /**
     * Wireshark's time text {@code [YYYY-MM-DD] hh:mm:ss[.ddd]} (UTC here) as nanoseconds since the epoch; without a
     * date, on the day (UTC) of dayOf. Wireshark's messages for text it does not take (IllegalArgumentException).
     */
    static long parseTime(String text, long dayOf) {
        String s = text == null ? "" : text.strip();
        if (s.isEmpty()) throw new IllegalArgumentException("Time is empty.");
        String expected = "Could not parse the time. Expected [YYYY-MM-DD] hh:mm:ss[.dec].";
        String[] dateTime = s.split("\\s+");
        if (dateTime.length > 2) throw new IllegalArgumentException(expected);
        LocalDate day;
        if (dateTime.length == 2) {
            String[] ymd = dateTime[0].split("-", -1);
            if (ymd.length != 3) throw new IllegalArgumentException(expected);
            int y, mo, d;
            try {
                y = Integer.parseInt(ymd[0]);
                mo = Integer.parseInt(ymd[1]);
                d = Integer.parseInt(ymd[2]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(expected);
            }
            if (y < 1970) throw new IllegalArgumentException("Years must be larger than 1970");
            if (mo < 1 || mo > 12) throw new IllegalArgumentException("Months must be between [1..12]");
            if (d < 1 || d > 31) throw new IllegalArgumentException("Days must be between [1..31]");
            if (y > 9999 || d > LocalDate.of(y, mo, 1).lengthOfMonth())
                throw new IllegalArgumentException("Mktime went wrong. Is the time valid?");
            day = LocalDate.of(y, mo, d);
        } else {
            day = LocalDate.ofEpochDay(Math.floorDiv(dayOf, 86_400 * NS));
        }
        String[] hms = dateTime[dateTime.length - 1].split(":", -1);
        if (hms.length != 3) throw new IllegalArgumentException(expected);
        int h, m;
        try {
            h = Integer.parseInt(hms[0]);
            m = Integer.parseInt(hms[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(expected);
        }
        if (h < 0 || h > 23) throw new IllegalArgumentException("Hours must be between [0..23]");
        if (m < 0 || m > 59) throw new IllegalArgumentException("Minutes must be between [0..59]");
        long sec = seconds(hms[2], expected);
        return LocalDateTime.of(day, java.time.LocalTime.of(h, m)).toEpochSecond(ZoneOffset.UTC) * NS + sec;
    }

    /** "ss[.ddd]" (0 to 59 seconds, up to nine decimals kept, more dropped) in nanoseconds. */
    private static long seconds(String text, String expected) {
        if (!text.matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+")) throw new IllegalArgumentException(expected);
        int dot = text.indexOf('.');
        String whole = dot < 0 ? text : text.substring(0, dot);
        String frac = dot < 0 ? "" : text.substring(dot + 1);
        long s = whole.isEmpty() ? 0 : whole.length() > 4 ? 60 : Long.parseLong(whole);
        if (s > 59) throw new IllegalArgumentException("Seconds must be between [0..59]");
        frac = (frac + "000000000").substring(0, 9);
        return s * NS + Long.parseLong(frac);
    }
}
