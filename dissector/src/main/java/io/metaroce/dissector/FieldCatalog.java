package io.metaroce.dissector;

import io.metaroce.filter.FieldResolver;
import io.metaroce.filter.FieldType;
import io.metaroce.filter.FilterField;
import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.ValueType;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Field names as users type them: the catalogue's {@code header.field} names, Wireshark's names as
 * aliases ({@code infiniband.bth.psn}), and header names as protocols ({@code mrth}). This is the one
 * place that turns a name into a {@link FieldDef}, for {@code -e}, {@code -Y} and the GUI alike.
 *
 * <p>Thread-safe: one instance serves every thread ({@link #get()}).
 */
public final class FieldCatalog implements FieldResolver {
    private static final FieldCatalog INSTANCE = new FieldCatalog();
    private final Map<String, FieldDef> byName = new LinkedHashMap<>();
    private final Map<String, FieldDef> byAlias = new HashMap<>();
    private final Map<String, HeaderDef> protocols = new HashMap<>();
    /**
     * Resolved filter fields, filled on demand. Concurrent because the catalogue is a process-wide singleton
     * that a GUI thread and a background task may both compile filters against; the other maps are filled
     * in the constructor and only read afterwards, which the final fields make safe to share.
     */
    private final Map<String, FilterField> filterFields = new ConcurrentHashMap<>();

    /** Package-private for tests that need a fresh cache; everyone else uses {@link #get()}. */
    FieldCatalog() {
        for (FieldDef f : Spec.FIELDS) byName.put(f.name(), f);
        for (FieldDef f : Spec.FIELDS) for (String a : f.aliases()) byAlias.putIfAbsent(a, f);
        for (HeaderDef h : Spec.HEADERS) protocols.put(h.id(), h);
    }

    public static FieldCatalog get() { return INSTANCE; }

    /** The field with this name or alias, or null. */
    public FieldDef field(String name) {
        FieldDef f = byName.get(name);
        return f != null ? f : byAlias.get(name);
    }

    /** The header (protocol) with this name, or null. */
    public HeaderDef protocol(String name) { return protocols.get(name); }

    public Collection<FieldDef> fields() { return byName.values(); }

    @Override
    public FilterField resolve(String name) {
        FilterField cached = filterFields.get(name);
        if (cached != null) return cached;
        FilterField ff = null;
        FieldDef f = field(name);
        if (f != null) ff = new FilterField(f.name(), filterType(f), f.id(), valueNames(f));
        else {
            HeaderDef h = protocols.get(name);
            if (h != null) ff = new FilterField(h.id(), FieldType.PROTOCOL, protocolId(h.index()));
        }
        if (ff == null) return null;
        // Two threads may resolve the same name at once; both get the instance that was stored first.
        FilterField raced = filterFields.putIfAbsent(name, ff);
        return raced != null ? raced : ff;
    }

    /** Protocol presence "fields" get negative ids so they never collide with field ids. */
    static int protocolId(int headerIndex) { return -1 - headerIndex; }

    static int headerOfProtocolId(int id) { return -1 - id; }

    private static FieldType filterType(FieldDef f) {
        return switch (f.type()) {
            case UINT -> FieldType.UNSIGNED;
            case BOOL -> FieldType.BOOLEAN;
            case IPV4 -> FieldType.IPV4;
            case IPV6 -> FieldType.IPV6;
            case ETHER -> FieldType.ETHER;
            case BYTES -> FieldType.BYTES;
            case STRING -> FieldType.STRING;
        };
    }

    /** Enum symbols usable as filter literals: {@code bth.opcode == rc_send_only}, {@code aeth.syndrome.kind == nak}. */
    private static Map<String, Long> valueNames(FieldDef f) {
        if (f.enumDef() == null || f.type() == ValueType.STRING) return Map.of();
        Map<String, Long> m = new HashMap<>();
        for (EnumValueDef v : f.enumDef().values()) {
            m.put(v.id(), v.value());
            m.putIfAbsent(v.label(), v.value());
        }
        return m;
    }
}
