package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Edit > Time Shift's texts and lines (no window: the dialog's use is in FileHandlingTest). */
class TimeShiftTest {
    private static final long S = 1_000_000_000L;

    @Test
    void offsetsReadAsWiresharkReadsThem() {
        assertEquals(2_500_000_000L, TimeShift.parseOffset("2.5"));
        assertEquals(2_500_000_000L, TimeShift.parseOffset(" +2.5 "));
        assertEquals(-(3600 + 2 * 60 + 3) * S - 1, TimeShift.parseOffset("-1:02:03.000000001"));
        assertEquals(90 * S, TimeShift.parseOffset("1:30"));
        assertEquals(123_456_789L, TimeShift.parseOffset(".1234567891"), "nine decimals kept");
        for (String[] bad : new String[][] {{"", "Time is empty."}, {"-", "Time is empty."}, {"x", "Could not parse the time: Expected [[hh:]mm:]ss.[dec]."},
                {"60", "Seconds must be between [0..59]"}, {"1:60:00", "Minutes must be between [0..59]"}, {"0.0", "Offset is zero."},
                {"1:2:3:4", "Could not parse the time: Expected [[hh:]mm:]ss.[dec]."}, {"--1", "Could not parse the time: Expected [[hh:]mm:]ss.[dec]."}})
            assertEquals(bad[1], assertThrows(IllegalArgumentException.class, () -> TimeShift.parseOffset(bad[0])).getMessage(), bad[0]);
    }

    @Test
    void timesReadInUtcOnThePacketsDayWithoutADate() {
        long day = java.time.LocalDate.of(2026, 12, 6).toEpochDay() * 86_400 * S;
        assertEquals(day + (10 * 3600 + 11 * 60 + 12) * S + 500_000_000L, TimeShift.parseTime("10:11:12.5", day + 7 * S));
        assertEquals(java.time.LocalDate.of(2030, 2, 28).toEpochDay() * 86_400 * S + 59 * S, TimeShift.parseTime("2030-02-28 00:00:59", day));
        for (String[] bad : new String[][] {{"", "Time is empty."}, {"10:11", "Could not parse the time. Expected [YYYY-MM-DD] hh:mm:ss[.dec]."},
                {"1969-01-01 00:00:00", "Years must be larger than 1970"}, {"2030-13-01 00:00:00", "Months must be between [1..12]"},
                {"2030-02-30 00:00:00", "Mktime went wrong. Is the time valid?"}, {"24:00:00", "Hours must be between [0..23]"}})
            assertEquals(bad[1], assertThrows(IllegalArgumentException.class, () -> TimeShift.parseTime(bad[0], day)).getMessage(), bad[0]);
    }

    @Test
    void twoPointsAreExactAndTheOthersOnTheLine() {
        long f1 = 1_700_000_000L * S + 123, f2 = f1 + 3 * S + 7, n1 = 1_800_000_000L * S, n2 = n1 + 2 * S + 999_999_999L;
        TimeShift t = TimeShift.two(f1, n1, f2, n2);
        assertEquals(n1, t.shift(f1));
        assertEquals(n2, t.shift(f2));
        long mid = f1 + (f2 - f1) / 3;
        assertEquals(n1 + (double) (mid - f1) * (n2 - n1) / (f2 - f1), t.shift(mid), 1.0);
        long beyond = f2 + 10 * S;      // extrapolated
        assertEquals(n1 + (double) (beyond - f1) * (n2 - n1) / (f2 - f1), t.shift(beyond), 2.0);
        assertNull(TimeShift.two(f1, n1, f1, n2), "one time in the file, two set: no line");
        TimeShift all = TimeShift.all(TimeShift.all(null, S), -S / 2);
        assertEquals(f1 + S / 2, all.shift(f1), "shifts all add up");
        assertEquals(n2 + 5, TimeShift.all(t, 5).shift(f2), "a shift all after two points moves the line");
        assertEquals(n1, TimeShift.set(f1, n1).shift(f1));
        assertEquals(n1 + 10, TimeShift.set(f1, n1).shift(f1 + 10));
    }
}
