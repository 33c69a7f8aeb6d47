package io.metaroce.index.web;

import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.QueryTimes;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The viewer's time range, with Arkime's parameter names: {@code date=HOURS} (the last hours, {@code -1}: all) or
 * {@code startTime=}/{@code stopTime=} (either may be left open). A time is seconds since the epoch (Arkime's) or
 * one of {@code search}'s human times ({@link QueryTimes}: {@code 2026-11-30T02:10}, UTC unless an offset is given).
 *
 * <p>"The last hours" end at the index's newest flow, not at the clock: captures reach the index days after a job
 * slowed, and "the last hour before now" would be empty. A flow is in the range when it was active in it (its
 * last packet at or after the start, its first before the stop): the job that slowed at 02:10 shows its flows
 * that began at 01:00.
 *
 * @param startNs the first nanosecond in the range ({@link Long#MIN_VALUE}: open)
 * @param stopNs the first nanosecond after it ({@link Long#MAX_VALUE}: open)
 */
record TimeRange(long startNs, long stopNs) {
    private static final long SECOND = 1_000_000_000L, HOUR = 3600 * SECOND;
    /** {@code date=} beyond ten years is a typo, not a range. */
    static final int MAX_HOURS = 24 * 366 * 10;

    /** The range a request asks for, or null for none (all flows). */
    static TimeRange of(Map<String, String> p, FlowIndex index) throws IOException {
        String date = blankToNull(p.get("date"));
        if (date != null) {
            int hours;
            try {
                hours = Integer.parseInt(date);
            } catch (NumberFormatException e) {
                throw new ViewerApi.BadRequest("date must be a number of hours (-1: all), not '" + date + "'");
            }
            if (hours == -1) return null;
            if (hours < 1 || hours > MAX_HOURS) throw new ViewerApi.BadRequest("date must be 1 to " + MAX_HOURS + " hours (-1: all), not " + hours);
            Long newest = newest(index);
            if (newest == null) return null;   // an empty index: nothing to narrow
            long stop = newest + 1;
            return new TimeRange(stop - hours * HOUR, stop);
        }
        String start = blankToNull(p.get("startTime")), stop = blankToNull(p.get("stopTime"));
        if (start == null && stop == null) return null;
        long lo = start == null ? Long.MIN_VALUE : instant(start, "startTime");
        long hi = stop == null ? Long.MAX_VALUE : instant(stop, "stopTime");
        if (hi <= lo) throw new ViewerApi.BadRequest("stopTime must be after startTime (" + stop + " is not after " + start + ")");
        return new TimeRange(lo, hi);
    }

    /** The flows of a query active in this range. */
    FlowQuery filter(FlowQuery q) {
        List<FlowQuery> parts = new java.util.ArrayList<>();
        if (!(q instanceof FlowQuery.MatchAll)) parts.add(q);
        if (startNs != Long.MIN_VALUE) parts.add(new FlowQuery.LongRange(FlowSchema.field(FlowSchema.LAST), startNs, Long.MAX_VALUE));
        if (stopNs != Long.MAX_VALUE) parts.add(new FlowQuery.LongRange(FlowSchema.field(FlowSchema.FIRST), Long.MIN_VALUE, stopNs - 1));
        return parts.size() == 1 ? parts.getFirst() : new FlowQuery.And(parts);
    }

    /** The newest packet time of the index's captures (null: none indexed, or none with a time). */
    static Long newest(FlowIndex index) throws IOException {
        Long newest = null;
        for (IndexedCapture c : index.captures()) if (c.lastNs() != null && (newest == null || c.lastNs() > newest)) newest = c.lastNs();
        return newest;
    }

    /** The oldest packet time of the index's captures (null: none). */
    static Long oldest(FlowIndex index) throws IOException {
        Long oldest = null;
        for (IndexedCapture c : index.captures()) if (c.firstNs() != null && (oldest == null || c.firstNs() < oldest)) oldest = c.firstNs();
        return oldest;
    }

    /** A time as nanoseconds: whole seconds since the epoch (Arkime's), else the start of a human time's span. */
    static long instant(String text, String param) {
        String t = text.strip();
        if (t.matches("-?\\d{1,11}")) return Long.parseLong(t) * SECOND;
        if (t.matches("-?\\d+")) throw new ViewerApi.BadRequest(param + ": " + t + " is beyond seconds since the epoch (write 2026-11-30T02:10 or seconds)");
        try {
            return QueryTimes.span(t)[0];
        } catch (IllegalArgumentException e) {
            throw new ViewerApi.BadRequest(param + ": " + e.getMessage().replace("or nanoseconds since the epoch", "or seconds since the epoch"));
        }
    }

    private static String blankToNull(String s) { return s == null || s.isBlank() ? null : s.strip(); }
}
