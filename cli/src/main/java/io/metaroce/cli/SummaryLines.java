package io.metaroce.cli;

import static io.metaroce.dissector.FrameSummary.Style.LINE;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameSummary;

/**
 * Default text output: one tshark-like line per frame (number, relative time, addresses, protocol, length, info);
 * the text after the time is the dissector's {@link FrameSummary} in its line style, shared with the GUI's packet list.
 */
final class SummaryLines implements DissectCommand.FrameSink {
    /** tshark's -t formats; the index is the mode. */
    static final String[] TIME_FORMATS = {"r", "a", "ad", "adoy", "d", "dd", "e", "u", "ud", "udoy"};
    private static final int R = 0, A = 1, AD = 2, ADOY = 3, D = 4, DD = 5, E = 6, U = 7, UD = 8, UDOY = 9;
    private static final long[] TENS = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L};

    private final ByteOut out;
    private long firstTime = Long.MIN_VALUE;
    private final int mode, digits;
    /** -t dd: the time of the frame shown before (the run then has one worker, so this is the previous displayed). */
    private long lastShown = Long.MIN_VALUE;
    private final java.time.ZoneId zone = java.time.ZoneId.systemDefault();
    /** -u hms: relative and delta times as hours, minutes and seconds ("1h  2m  3.000000000s"), as tshark's. */
    private final boolean hms;
    /** -T tabs: the columns separated by tabs (the arrow a column of its own), as tshark -T tabs. */
    private final char separator;
    /** -N/-H: the names the Source and Destination columns show (none by default). */
    private io.metaroce.dissector.NameResolver names = io.metaroce.dissector.NameResolver.NONE;

    SummaryLines(ByteOut out) { this(out, null); }

    /** @param time -t's mode (index into {@link #TIME_FORMATS}) and decimals, or null for r with 9 (the default) */
    SummaryLines(ByteOut out, int[] time) { this(out, time, false); }

    /**
     * @param time -t's mode and decimals and (third, optional) 1 for -u hms, or null for r with 9 in seconds
     * @param tabs -T tabs
     */
    SummaryLines(ByteOut out, int[] time, boolean tabs) {
        this.out = out;
        this.mode = time == null ? R : time[0];
        this.digits = time == null ? 9 : time[1];
        this.hms = time != null && time.length > 2 && time[2] == 1;
        this.separator = tabs ? '\t' : ' ';
    }

    /** Resolves the Source and Destination columns with these names (-N, -H). */
    SummaryLines names(io.metaroce.dissector.NameResolver r) {
        names = r;
        return this;
    }

    @Override
    public void batch(io.metaroce.dissector.FrameBatch batch) { firstTime = batch.captureStartNanos(); }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        String no = Long.toString(d.number());
        for (int i = no.length(); i < 6; i++) out.ch(' ');
        out.ascii(no).ch(separator);
        timeColumn(d);
        out.ch(separator).str(FrameSummary.source(d, LINE, names)).str(separator == ' ' ? " \u2192 " : "\t\u2192\t").str(FrameSummary.destination(d, LINE, names))
                .ch(separator).ascii(FrameSummary.protocol(d, LINE)).ch(separator).num(d.originalLength()).ch(separator)
                .str(FrameSummary.info(d, LINE)).ch('\n');
    }

    /** The Time column of d as the summary line writes it (-t, -u): also tshark's _ws.col.Time and -T psml's. */
    void timeColumn(Dissection d) {
        if (firstTime == Long.MIN_VALUE) firstTime = d.timeNanos();
        if (mode == R && digits == 9 && !hms) {
            long rel = d.timeNanos() - firstTime;
            out.num(rel / 1_000_000_000L).ch('.');
            String frac = Long.toString(Math.abs(rel % 1_000_000_000L));
            for (int i = frac.length(); i < 9; i++) out.ch('0');
            out.ascii(frac);
        } else {
            time(d);
        }
    }

    /** The time column in one of tshark's -t formats other than the default, with {@code digits} decimals (cut). */
    private void time(Dissection d) {
        long t = d.timeNanos();
        switch (mode) {
            case R -> relative(t - firstTime);
            case D -> relative(t - d.previousTimeNanos());
            case DD -> relative(lastShown == Long.MIN_VALUE ? 0 : t - lastShown);
            case E -> seconds(t);
            default -> {
                java.time.LocalDateTime at = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(t, 1_000_000_000L), 0,
                        mode == A || mode == AD || mode == ADOY ? zone.getRules().getOffset(java.time.Instant.ofEpochSecond(Math.floorDiv(t, 1_000_000_000L)))
                                : java.time.ZoneOffset.UTC);
                if (mode == AD || mode == UD) out.ascii(String.format(java.util.Locale.ROOT, "%04d-%02d-%02d ", at.getYear(), at.getMonthValue(), at.getDayOfMonth()));
                if (mode == ADOY || mode == UDOY) out.ascii(String.format(java.util.Locale.ROOT, "%04d/%03d ", at.getYear(), at.getDayOfYear()));
                out.ascii(String.format(java.util.Locale.ROOT, "%02d:%02d:%02d", at.getHour(), at.getMinute(), at.getSecond()));
                fraction(Math.floorMod(t, 1_000_000_000L));
            }
        }
        lastShown = t;
    }

    /** A relative or delta time: seconds, or with -u hms tshark's "1h  2m  3.000000000s" (minutes and hours only when not 0). */
    private void relative(long ns) {
        if (!hms) {
            seconds(ns);
            return;
        }
        if (ns < 0) out.ascii("- ");
        long abs = Math.abs(ns), secs = abs / 1_000_000_000L;
        if (secs >= 3600) out.num(secs / 3600).ascii("h ").ascii(pad2(secs / 60 % 60)).ascii("m ").ascii(pad2(secs % 60));
        else if (secs >= 60) out.num(secs / 60).ascii("m ").ascii(pad2(secs % 60));
        else out.num(secs);
        fraction(abs % 1_000_000_000L);
        out.ch('s');
    }

    /** tshark's %2d. */
    private static String pad2(long v) {
        return v < 10 ? " " + v : Long.toString(v);
    }

    private void seconds(long ns) {
        if (ns < 0) out.ch('-');
        long abs = Math.abs(ns);
        out.num(abs / 1_000_000_000L);
        fraction(abs % 1_000_000_000L);
    }

    private void fraction(long ns) {
        if (digits == 0) return;
        String frac = Long.toString(ns / TENS[9 - digits]);
        out.ch('.');
        for (int i = frac.length(); i < digits; i++) out.ch('0');
        out.ascii(frac);
    }
}
