package io.metaroce.gui.search;

import io.metaroce.index.Connection;
import io.metaroce.index.FlowSchema;

/**
 * One host pair of the Connections graph ({@code search --connections --by COUNTER}): source and destination as
 * {@code search} prints them, the pair's flows, the sum of the counter that sizes its link, and its retransmitted
 * packets (what colours the link).
 */
public record ConnectionRow(String src, String dst, long flows, long sum, long retransmitted) {
    static ConnectionRow of(Connection c) {
        return new ConnectionRow(String.valueOf(c.from()), String.valueOf(c.to()), c.flows(), c.sums().get(0), c.sums().get(1));
    }

    /** The query that selects this pair's flows ({@code src:"10.0.0.1" AND dst:"10.0.0.2"}), as Arkime's link click. */
    public String term() { return FlowSchema.SRC + ":\"" + src + "\" AND " + FlowSchema.DST + ":\"" + dst + "\""; }
}
