package io.metaroce.index;

import java.util.Arrays;
import java.util.List;

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
                int[] p = wildcard(w.pattern());
                yield d.values(w.field().name()).stream().anyMatch(v -> wildcardMatches(p, (String) v));
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

    private static final int ANY_RUN = -1, ANY_ONE = -2;

    /**
     * A wildcard pattern as code points, {@code *} and {@code ?} as {@link #ANY_RUN} and {@link #ANY_ONE}, a
     * backslash quoting the next character; a run of stars is one star (the same language).
     */
    static int[] wildcard(String pattern) {
        int[] cps = pattern.codePoints().toArray();
        int[] out = new int[cps.length];
        int n = 0;
        for (int i = 0; i < cps.length; i++) {
            int c = cps[i];
            if (c == '\\' && i + 1 < cps.length) out[n++] = cps[++i];
            else if (c == '*') {
                if (n == 0 || out[n - 1] != ANY_RUN) out[n++] = ANY_RUN;
            } else if (c == '?') out[n++] = ANY_ONE;
            else out[n++] = c;
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * Whether the whole text matches, in O(pattern x text) steps at worst: on a mismatch only the last star
     * extends its run by one character. (A regex of ".*" per star backtracks exponentially: the fuzzer found 29
     * stars in a row taking minutes.) Characters are code points, as Lucene's WildcardQuery counts them.
     */
    static boolean wildcardMatches(int[] p, String value) {
        int[] t = value.codePoints().toArray();
        int pi = 0, ti = 0, star = -1, resume = 0;
        while (ti < t.length) {
            if (pi < p.length && p[pi] != ANY_RUN && (p[pi] == ANY_ONE || p[pi] == t[ti])) {
                pi++;
                ti++;
            } else if (pi < p.length && p[pi] == ANY_RUN) {
                star = pi++;
                resume = ti;
            } else if (star >= 0) {
                pi = star + 1;
                ti = ++resume;
            } else {
                return false;
            }
        }
        while (pi < p.length && p[pi] == ANY_RUN) pi++;
        return pi == p.length;
    }
}
