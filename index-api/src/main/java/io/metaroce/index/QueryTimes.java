package io.metaroce.index;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Times as an operator types them: {@code 2026-11-30}, {@code 2026-11-30T02:10}, {@code 2026-11-30T02:10:05.25},
 * optionally ending in {@code Z} or an offset ({@code +01:00}); UTC when none is given. A plain integer is
 * nanoseconds since the epoch. Each names a span as long as its last given unit (a day, a minute, 10 ms...).
 */
public final class QueryTimes {
    private static final Pattern ISO = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})(?:[T ](\\d{2})(?::(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?)?(Z|[+-]\\d{2}(?::?\\d{2})?)?");
    private static final long SECOND = 1_000_000_000L;

    private QueryTimes() {}

    /**
     * The span a time names: {@code [start, end)} in nanoseconds since the epoch.
     *
     * @throws IllegalArgumentException with a message saying which forms are accepted
     */
    public static long[] span(String text) {
        if (text.matches("-?\\d{1,19}")) {
            long ns = Long.parseLong(text);
            return new long[] {ns, ns == Long.MAX_VALUE ? ns : ns + 1};
        }
        Matcher m = ISO.matcher(text);
        if (!m.matches())
            throw new IllegalArgumentException("'" + text + "' is not a time: write 2026-11-30T02:10[:05[.25]][Z|+01:00] or nanoseconds since the epoch");
        try {
            int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
            int min = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
            int sec = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
            String frac = m.group(7);
            long fracNs = frac == null ? 0 : Long.parseLong((frac + "00000000").substring(0, 9));
            LocalDateTime t = LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)), hour, min, sec);
            ZoneOffset off = m.group(8) == null || m.group(8).equals("Z") ? ZoneOffset.UTC : ZoneOffset.of(offset(m.group(8)));
            long start = Math.addExact(Math.multiplyExact(t.toEpochSecond(off), SECOND), fracNs);
            long unit = frac != null ? pow10(9 - frac.length()) : m.group(6) != null ? SECOND : m.group(5) != null ? 60 * SECOND
                    : m.group(4) != null ? 3600 * SECOND : 86400 * SECOND;
            return new long[] {start, start + unit};
        } catch (DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a valid time (" + e.getMessage() + ")");
        }
    }

    private static String offset(String o) { return o.length() == 3 ? o + ":00" : o.length() == 5 ? o.substring(0, 3) + ":" + o.substring(3) : o; }

    private static long pow10(int n) {
        long v = 1;
        for (int i = 0; i < n; i++) v *= 10;
        return v;
    }
}
