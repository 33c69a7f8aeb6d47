package io.metaroce.gui.search;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FlowSchema;

/**
 * One value of a top-N facet ({@code search --top FIELD --by COUNTER}): the value as {@code search} prints it (QPs
 * in hex), the counter's sum over its flows, and how many flows.
 */
public record FacetRow(String key, long sum, long flows, String field, Object rawKey) {
    static FacetRow of(String field, FacetBucket b) {
        String key = b.key() instanceof Long l && (field.equals(FlowSchema.DEST_QP) || field.equals(FlowSchema.SRC_QPS))
                ? String.format("0x%06x", l) : String.valueOf(b.key());
        return new FacetRow(key, b.sum(), b.flows(), field, b.key());
    }

    /** The query term that selects this value's flows ({@code dest_qp:"0x000201"}, {@code capture_path:"/a b"}). */
    public String term() { return field + ":\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }
}
