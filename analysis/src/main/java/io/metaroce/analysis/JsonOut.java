package io.metaroce.analysis;

import io.metaroce.dissector.ByteOut;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Map;

/**
 * A minimal streaming JSON writer (objects, arrays, strings, numbers, booleans, null, nested Maps and
 * Collections), compact or indented. Kept here so that {@code metaroce analyze} starts without loading a JSON
 * library.
 */
public final class JsonOut {
    private final Appendable out;
    private final boolean pretty;
    private int depth;
    private boolean first = true, afterName;

    public JsonOut(Appendable out, boolean pretty) {
        this.out = out;
        this.pretty = pretty;
    }

    private JsonOut raw(CharSequence s) {
        try {
            out.append(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    private JsonOut raw(char c) {
        try {
            out.append(c);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth > 0) {
            if (!first) raw(',');
            newline();
        }
        first = false;
    }

    private void newline() {
        if (!pretty) return;
        raw('\n');
        for (int i = 0; i < depth; i++) raw("  ");
    }

    public JsonOut beginObject() {
        beforeValue();
        raw('{');
        depth++;
        first = true;
        return this;
    }

    public JsonOut endObject() {
        depth--;
        if (!first) newline();
        raw('}');
        first = false;
        return this;
    }

    public JsonOut beginArray() {
        beforeValue();
        raw('[');
        depth++;
        first = true;
        return this;
    }

    public JsonOut endArray() {
        depth--;
        if (!first) newline();
        raw(']');
        first = false;
        return this;
    }

    public JsonOut name(String n) {
        if (!first) raw(',');
        newline();
        first = false;
        string(n);
        raw(pretty ? ": " : ":");
        afterName = true;
        return this;
    }

    /**
     * Integers beyond ±2^53 (time_ns, GUIDs, 64-bit addresses) are written as strings, as tshark does: jq 1.6 and
     * every JavaScript consumer read JSON numbers as doubles and would round them. Smaller ones stay numbers.
     */
    public JsonOut value(long v) {
        beforeValue();
        if (!ByteOut.exactInDouble(v)) return raw('"').raw(Long.toString(v)).raw('"');
        return raw(Long.toString(v));
    }

    public JsonOut value(double v) {
        beforeValue();
        if (Double.isNaN(v) || Double.isInfinite(v)) return raw("null");
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return raw(Long.toString((long) v));
        return raw(Double.toString(v));
    }

    public JsonOut value(boolean v) {
        beforeValue();
        return raw(v ? "true" : "false");
    }

    public JsonOut nullValue() {
        beforeValue();
        return raw("null");
    }

    public JsonOut value(String s) {
        beforeValue();
        if (s == null) return raw("null");
        string(s);
        return this;
    }

    /** Any supported value: null, String, Number, Boolean, Map (object), Collection or long[] (array). */
    public JsonOut value(Object v) {
        switch (v) {
            case null -> nullValue();
            case String s -> value(s);
            case Integer i -> value((long) i);
            case Long l -> value((long) l);
            case Short s -> value((long) s);
            case Double d -> value((double) d);
            case Float f -> value((double) f);
            case Boolean b -> value((boolean) b);
            case Map<?, ?> m -> {
                beginObject();
                for (Map.Entry<?, ?> e : m.entrySet()) name(String.valueOf(e.getKey())).value(e.getValue());
                endObject();
            }
            case Collection<?> c -> {
                beginArray();
                for (Object o : c) value(o);
                endArray();
            }
            case long[] a -> {
                beginArray();
                for (long x : a) value(x);
                endArray();
            }
            case int[] a -> {
                beginArray();
                for (int x : a) value((long) x);
                endArray();
            }
            default -> value(v.toString());
        }
        return this;
    }

    private void string(String s) {
        raw('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> raw("\\\"");
                case '\\' -> raw("\\\\");
                case '\n' -> raw("\\n");
                case '\r' -> raw("\\r");
                case '\t' -> raw("\\t");
                default -> {
                    if (c < 0x20) raw(String.format("\\u%04x", (int) c));
                    else raw(c);
                }
            }
        }
        raw('"');
    }

    @Override
    public String toString() { return out.toString(); }
}
