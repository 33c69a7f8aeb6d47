package io.metaroce.analysis.diagnosis;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a log line says it was written, read from the time stamp it starts with. The forms the logs around an NCCL
 * job carry:
 * <pre>
 * [1733390405.123456] [node1:31180:0]  ib_mlx5_log.c:171  UCX  ERROR ...      UCX: seconds since the epoch (UTC)
 * 2026-11-30T02:10:05.123456789Z node1:31180:31180 [0] NCCL WARN ...           kubectl logs --timestamps, journald short-iso
 * [2026-11-30 02:10:05] node1:31180:31180 [0] NCCL WARN ...                    NCCL_DEBUG_TIMESTAMP_FORMAT, local time
 * 2026-11-30 02:10:05,123 ... NCCL WARN ...                                    Python logging, local time
 * </pre>
 * Only a time stamp at the start of the line counts (a date inside a message is not when it was logged). A time
 * without a zone or offset is the writing host's local time, which the log does not say: {@link #zoned()} is false
 * and whoever narrows by it must allow for any zone.
 *
 * @param epochNs nanoseconds since the epoch, the time read as UTC when it names no zone
 * @param zoned true when the time is unambiguous (epoch seconds, {@code Z} or an offset)
 */
public record LogTime(long epochNs, boolean zoned) {
    private static final Pattern EPOCH = Pattern.compile("^\\[(\\d{9,10})\\.(\\d{1,9})\\]");
    private static final Pattern CALENDAR = Pattern.compile("^\\[?(\\d{4})-(\\d{2})-(\\d{2})[T ](\\d{2}):(\\d{2}):(\\d{2})"
            + "(?:[.,](\\d{1,9}))?(?: ?(Z|[+-]\\d{2}:?\\d{2}))?(?![\\d:.,])");
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

    /** The time stamp a log line starts with, or null when it starts with none. */
    public static LogTime of(String line) {
        if (line == null) return null;
        String l = line.strip();
        Matcher m = EPOCH.matcher(l);
        if (m.find()) {
            return new LogTime(Long.parseLong(m.group(1)) * 1_000_000_000L + fraction(m.group(2)), true);
        }
        m = CALENDAR.matcher(l);
        if (!m.find()) return null;
        try {
            LocalDateTime t = LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
                    Integer.parseInt(m.group(6)));
            String zone = m.group(8);
            ZoneOffset offset = zone == null || zone.equals("Z") ? ZoneOffset.UTC : ZoneOffset.of(colon(zone));
            long ns = Math.addExact(Math.multiplyExact(t.toEpochSecond(offset), 1_000_000_000L), fraction(m.group(7)));
            return ns < 0 ? null : new LogTime(ns, zone != null);   // before 1970: no log's time, a number that looks like one
        } catch (DateTimeException | ArithmeticException e) {
            return null;   // 2026-13-45: not a time, so not a time stamp
        }
    }

    /** The time to the second, as the flow index's queries take it: {@code 2026-11-30T02:10:05Z}, or without the zone. */
    public String text() {
        return SECONDS.format(Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L))) + (zoned ? "Z" : "");
    }

    /** The time for a report: to the microsecond, with the zone or a word on its absence. */
    public String describe() {
        String us = String.format(".%06d", Math.floorMod(epochNs, 1_000_000_000L) / 1000);
        return SECONDS.format(Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L))) + us
                + (zoned ? "Z" : " (the log's local time: no zone printed)");
    }

    private static long fraction(String digits) {
        return digits == null ? 0 : Long.parseLong((digits + "00000000").substring(0, 9));
    }

    private static String colon(String offset) {
        return offset.length() == 5 ? offset.substring(0, 3) + ":" + offset.substring(3) : offset;
    }
}
