package io.metaroce.index;

import java.util.List;

/**
 * The answer to a search: how many flows matched in all, and the first of them in the requested order.
 *
 * @param total every matching flow, also beyond the limit
 * @param flows the flow documents returned (at most the limit)
 */
public record SearchResult(long total, List<FlowDocument> flows) {
    public SearchResult { flows = List.copyOf(flows); }
}
