package io.metaroce.index;

import java.util.HashMap;
import java.util.Map;

/**
 * Which occurrence of its flow id each flow of a capture is ({@link FlowDocuments#of}'s {@code occurrence}): a QP the
 * analysis evicted and that sent again is a second flow of the same id. Before, index counted them in a map of every
 * flow id of the capture (about 150 bytes per QP: 10^6 QPs, 150 MB beside the pass); here the ids are first
 * {@link #note noted} as 64-bit hashes (8 to 16 bytes per flow) and only the ids whose hash came twice are counted
 * by name, so the answer stays exact (two ids of the same hash are told apart by the map) at a memory of a few bytes
 * per QP.
 *
 * <p>Two rounds over the same flows in the same order: {@link #note} for each, then {@link #next} for each.
 */
public final class FlowOccurrences {
    private final LongSet seen = new LongSet(), twice = new LongSet();
    private final Map<String, Integer> counted = new HashMap<>();
    private final java.util.function.ToLongFunction<String> hash;

    public FlowOccurrences() { this(FlowOccurrences::hash); }

    /** With another hash (tests: one that collides, to show that the counts stay exact). */
    FlowOccurrences(java.util.function.ToLongFunction<String> hash) { this.hash = hash; }

    /** First round: one flow of this id. */
    public void note(String id) {
        long h = hash.applyAsLong(id);
        if (!seen.add(h)) twice.add(h);
    }

    /** Second round, in the first round's order: the occurrence of this flow of this id, from 1. */
    public int next(String id) {
        long h = hash.applyAsLong(id);
        return twice.contains(h) ? counted.merge(id, 1, Integer::sum) : 1;
    }

    /** FNV-1a over the characters, then MurmurHash3's finaliser (so that the table's low bits are mixed). */
    static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0, n = s.length(); i < n; i++) h = (h ^ s.charAt(i)) * 0x100000001b3L;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    /** A set of longs by open addressing (0 is held by a flag: the empty slot). */
    static final class LongSet {
        private long[] table = new long[16];
        private int size;
        private boolean zero;

        boolean add(long v) {
            if (v == 0) {
                boolean was = zero;
                zero = true;
                return !was;
            }
            if (2 * (size + 1) > table.length) grow();
            if (!insert(table, v)) return false;
            size++;
            return true;
        }

        boolean contains(long v) {
            if (v == 0) return zero;
            int mask = table.length - 1;
            for (int i = (int) v & mask; ; i = (i + 1) & mask) {
                long x = table[i];
                if (x == v) return true;
                if (x == 0) return false;
            }
        }

        private static boolean insert(long[] t, long v) {
            int mask = t.length - 1;
            for (int i = (int) v & mask; ; i = (i + 1) & mask) {
                long x = t[i];
                if (x == v) return false;
                if (x == 0) {
                    t[i] = v;
                    return true;
                }
            }
        }

        private void grow() {
            long[] t = new long[table.length * 2];
            for (long x : table) if (x != 0) insert(t, x);
            table = t;
        }
    }
}
