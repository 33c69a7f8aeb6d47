package io.metaroce.index;

/**
 * One field of the flow schema.
 *
 * @param name the field name, as in queries and in the analyze JSON (nested keys joined by dots)
 * @param type how it is indexed
 * @param multi whether a document may hold several values (source QPs, rules, events, path ids)
 */
public record FieldDef(String name, FieldType type, boolean multi) {
    /** Whether the field can order results: one numeric value per document. */
    public boolean sortable() { return !multi && type.numeric(); }

    /** Whether the field can group a facet ({@code --top FIELD}). */
    public boolean groupable() { return type == FieldType.KEYWORD || type == FieldType.LONG || type == FieldType.IP; }

    /** Whether the field can be summed by a facet ({@code --by COUNTER}): one integer per document. */
    public boolean summable() { return !multi && type == FieldType.LONG; }
}
