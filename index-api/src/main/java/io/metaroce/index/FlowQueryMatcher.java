package io.metaroce.index;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The meaning of a {@link FlowQuery} on one {@link FlowDocument}, evaluated in memory: the reference every
 * backend's translation is tested against (and a filter for documents already at hand). A field with several
 * values matches when any value does; a missing field matches nothing but {@code NOT}.
 */
public final class FlowQueryMatcher {
    private FlowQueryMatcher() {}

    public static boolean matches(FlowQuery q, FlowDocument d) {
        return switch (q) {
            case FlowQuery.MatchAll m -> true;
            case FlowQuery.And a -> a.parts().stream().allMatch(p -> matches(p, d));
            case FlowQuery.Or o -> o.parts().stream().anyMatch(p -> matches(p, d));
            case FlowQuery.Not n -> !matches(n.query(), d);
            case FlowQuery.Exists e -> !d.values(e.field().name()).isEmpty();
            case FlowQuery.Term t -> d.values(t.field().name()).contains(t.value());
            case FlowQuery.Wildcard w -> {
                Pattern p = wildcard(w.pattern());
                yield d.values(w.field().name()).stream().anyMatch(v -> p.matcher((String) v).matches());
            }
            case FlowQuery.LongRange r -> d.values(r.field().name()).stream().anyMatch(v -> (Long) v >= r.lo() && (Long) v <= r.hi());
            case FlowQuery.DoubleRange r -> d.values(r.field().name()).stream()
                    .anyMatch(v -> Double.compare((Double) v, r.lo()) >= 0 && Double.compare((Double) v, r.hi()) <= 0);
            case FlowQuery.IpRange r -> {
                byte[] lo = IpAddresses.to16(r.lo()), hi = IpAddresses.to16(r.hi());
                List<Object> vs = d.values(r.field().name());
                yield vs.stream().anyMatch(v -> {
                    byte[] x = IpAddresses.to16(IpAddresses.parse((String) v));
                    return Arrays.compareUnsigned(x, lo) >= 0 && Arrays.compareUnsigned(x, hi) <= 0;
                });
            }
        };
    }

    /** A wildcard pattern as a regex: {@code *} and {@code ?} special, a backslash quoting the next character. */
    static Pattern wildcard(String pattern) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) b.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            else if (c == '*') b.append(".*");
            else if (c == '?') b.append('.');
            else b.append(Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(b.toString(), Pattern.DOTALL);
    }
}
