package io.metaroce.index;

import java.util.Comparator;

/**
 * One group of an exact top-N facet ({@code --top dest_qp --by naks}): the group's value, the sum of the
 * counter over the group's matching flows, and how many flows that is.
 *
 * @param key the group value: a Long for an integer field, a String for a keyword or IP field
 */
public record FacetBucket(Object key, long sum, long flows) {
    /**
     * The order of a facet, the same in every backend: largest sum first, then most flows, then the key
     * ascending (numbers numerically, IPs by address, keywords by text).
     */
    public static final Comparator<FacetBucket> ORDER = Comparator.comparingLong(FacetBucket::sum).reversed()
            .thenComparing(Comparator.comparingLong(FacetBucket::flows).reversed())
            .thenComparing((a, b) -> compareKeys(a.key, b.key));

    /** Keys ascending: numbers numerically, IPs by address, keywords by text. */
    static int compareKeys(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) return Long.compare(x, y);
        String s = a.toString(), t = b.toString();
        var ia = IpAddresses.parse(s);
        var ib = IpAddresses.parse(t);
        if (ia != null && ib != null) return IpAddresses.sortableHex(ia).compareTo(IpAddresses.sortableHex(ib));
        return s.compareTo(t);
    }
}
