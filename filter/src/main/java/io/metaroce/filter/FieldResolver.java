package io.metaroce.filter;

/** Maps the names used in a filter to fields. Implemented by the field source (the dissector). */
@FunctionalInterface
public interface FieldResolver {
    /**
     * @param name a field or protocol name as written in the filter, e.g. {@code bth.psn} or an alias
     *             such as {@code infiniband.bth.psn}
     * @return the field, or null when the name is unknown
     */
    FilterField resolve(String name);
}
