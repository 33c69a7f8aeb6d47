package io.metaroce.protocol;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A code-to-name table (Wireshark's value_string). Unknown values stay numbers; nothing throws. */
public final class EnumDef {
    private final String id;
    private final List<EnumValueDef> values;
    private final Map<Long, EnumValueDef> byValue = new HashMap<>();
    private final Map<String, EnumValueDef> byId = new HashMap<>();

    public EnumDef(String id, List<EnumValueDef> values) {
        this.id = id;
        this.values = List.copyOf(values);
        for (EnumValueDef v : values) {
            byValue.put(v.value(), v);
            byId.put(v.id(), v);
        }
    }

    public String id() { return id; }

    public List<EnumValueDef> values() { return values; }

    /** The entry for a value, or null. */
    public EnumValueDef of(long value) { return byValue.get(value); }

    /** The entry with this symbolic id, or null. */
    public EnumValueDef byId(String symbol) { return byId.get(symbol); }

    /** Label of a value, or null when the value is not named. */
    public String label(long value) {
        EnumValueDef v = byValue.get(value);
        return v == null ? null : v.label();
    }
}
