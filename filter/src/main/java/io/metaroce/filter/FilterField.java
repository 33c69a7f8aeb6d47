package io.metaroce.filter;

import java.util.Map;
import java.util.Objects;

/**
 * A field (or protocol) that a display filter may name.
 *
 * @param name       canonical filter name, e.g. {@code bth.psn}; used in {@link DisplayFilter#toString()}
 * @param type       value type
 * @param id         identifier chosen by the field source (e.g. an index into its field table)
 * @param valueNames symbolic values usable as literals (e.g. {@code "nak" -> 3},
 *                   {@code "RC_SEND_ONLY" -> 4}); may be empty, never null after construction
 */
public record FilterField(String name, FieldType type, int id, Map<String, Long> valueNames) {

    public FilterField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        valueNames = valueNames == null ? Map.of() : Map.copyOf(valueNames);
    }

    /** A field without symbolic values. */
    public FilterField(String name, FieldType type, int id) {
        this(name, type, id, Map.of());
    }
}
