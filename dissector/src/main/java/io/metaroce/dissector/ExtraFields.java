package io.metaroce.dissector;

import io.metaroce.protocol.FieldDef;

/**
 * Values a later stage (the analysis) attaches to a frame, keyed by catalogue field: numbers, booleans
 * and strings. Small and reused: a frame carries a handful at most.
 */
public final class ExtraFields {
    private FieldDef[] fields = new FieldDef[8];
    private long[] longs = new long[8];
    private String[] strings = new String[8];
    private int size;

    public void clear() {
        for (int i = 0; i < size; i++) strings[i] = null;
        size = 0;
    }

    public int size() { return size; }
    public FieldDef field(int i) { return fields[i]; }
    public long longValue(int i) { return longs[i]; }
    public String stringValue(int i) { return strings[i]; }

    public void put(FieldDef f, long value) { add(f, value, null); }

    public void put(FieldDef f, boolean value) { add(f, value ? 1 : 0, null); }

    public void put(FieldDef f, String value) { add(f, 0, value); }

    private void add(FieldDef f, long v, String s) {
        if (size == fields.length) {
            fields = java.util.Arrays.copyOf(fields, size * 2);
            longs = java.util.Arrays.copyOf(longs, size * 2);
            strings = java.util.Arrays.copyOf(strings, size * 2);
        }
        fields[size] = f;
        longs[size] = v;
        strings[size] = s;
        size++;
    }

    /** Index of the first value of field f, or -1. */
    public int indexOf(FieldDef f) {
        for (int i = 0; i < size; i++) if (fields[i] == f) return i;
        return -1;
    }
}
