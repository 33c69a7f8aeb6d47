package io.metaroce.index;

import java.util.Comparator;
import java.util.List;

/**
 * One pair of a connections facet ({@code search --connections}, Arkime's Connections view): the value of the first
 * field ({@code src}) and of the second ({@code dst}) that flows share, how many flows that is, and the exact sum of
 * each asked counter over them.
 *
 * @param from the first field's value: a Long for an integer field, a String for a keyword or IP field
 * @param to the second field's value, typed as {@code from}
 * @param flows the matching flows holding both values
 * @param sums the sums of the counters asked, in the order asked
 */
public record Connection(Object from, Object to, long flows, List<Long> sums) {
    public Connection {
        sums = List.copyOf(sums);
    }

    /** The sum of the first counter asked (the one that orders the pairs). */
    public long sum() { return sums.isEmpty() ? 0 : sums.getFirst(); }

    /**
     * The order of the pairs, the same in every backend: largest sum of the first counter first, then most flows,
     * then the first value and the second ascending as {@link FacetBucket#ORDER} orders keys.
     */
    public static final Comparator<Connection> ORDER = Comparator.comparingLong(Connection::sum).reversed()
            .thenComparing(Comparator.comparingLong(Connection::flows).reversed())
            .thenComparing((a, b) -> FacetBucket.compareKeys(a.from, b.from))
            .thenComparing((a, b) -> FacetBucket.compareKeys(a.to, b.to));

    /** The pairs in {@link #ORDER}, at most {@code n} (what every backend returns after summing them all). */
    public static List<Connection> top(List<Connection> all, int n) {
        List<Connection> sorted = new java.util.ArrayList<>(all);
        sorted.sort(ORDER);
        return List.copyOf(sorted.subList(0, Math.min(n, sorted.size())));
    }

    /** Refuses fields that cannot pair or counters that cannot be summed, with the words {@code top} uses. */
    public static void check(FieldDef from, FieldDef to, List<FieldDef> counters) {
        for (FieldDef f : List.of(from, to))
            if (!f.groupable()) throw new IllegalArgumentException("'" + f.name() + "' cannot group a facet: use a keyword, integer or IP field");
        if (counters.isEmpty()) throw new IllegalArgumentException("connections need a counter to sum");
        for (FieldDef c : counters)
            if (!c.summable()) throw new IllegalArgumentException("'" + c.name() + "' cannot be summed: use a counter (an integer field)");
    }
}
