package io.metaroce.index;

/**
 * The order of search results: by one numeric field, then by document id ascending so that every backend
 * returns ties in the same order. Flows without a value for the field come last in either direction.
 */
public record FlowSort(FieldDef field, boolean descending) {
    /** Capture order: by first packet time, earliest first. */
    public static final FlowSort DEFAULT = new FlowSort(FlowSchema.field(FlowSchema.FIRST), false);

    public FlowSort {
        if (!field.sortable()) throw new IllegalArgumentException("'" + field.name() + "' cannot order results: sort by a number or time field");
    }

    /**
     * Parses {@code FIELD}, {@code FIELD:desc} or {@code FIELD:asc}; a bare counter sorts descending (most
     * first), a bare time ascending.
     *
     * @throws IllegalArgumentException naming the field when it is unknown or not sortable
     */
    public static FlowSort parse(String spec) {
        String name = spec, dir = null;
        int c = spec.lastIndexOf(':');
        if (c > 0) {
            name = spec.substring(0, c);
            dir = spec.substring(c + 1);
            if (!dir.equals("asc") && !dir.equals("desc")) throw new IllegalArgumentException("sort direction must be asc or desc, not '" + dir + "'");
        }
        FieldDef f = FlowSchema.userField(name);
        if (f == null) throw new IllegalArgumentException("unknown sort field '" + name + "'");
        boolean desc = dir == null ? f.type() != FieldType.TIME : dir.equals("desc");
        return new FlowSort(f, desc);
    }
}
