package io.metaroce.index;

import java.util.List;

/**
 * The queries behind {@link FlowIndex}'s own operations, as trees, so every backend translates the same
 * meaning with its one query translator instead of writing each again.
 */
public final class FlowIndexQueries {
    private FlowIndexQueries() {}

    private static FieldDef f(String name) { return FlowSchema.field(name); }

    /** The flow documents matching a user's query. */
    public static FlowQuery flows(FlowQuery user) {
        FlowQuery kind = new FlowQuery.Term(f(FlowSchema.KIND), FlowSchema.KIND_FLOW);
        return user instanceof FlowQuery.MatchAll ? kind : new FlowQuery.And(List.of(kind, user));
    }

    /** The capture documents (one per indexed capture). */
    public static FlowQuery captures() { return new FlowQuery.Term(f(FlowSchema.KIND), FlowSchema.KIND_CAPTURE); }

    /** Every document of the capture with this content hash. */
    public static FlowQuery captureHash(String hash) { return new FlowQuery.Term(f(FlowSchema.CAPTURE_HASH), hash); }

    /** Every document of captures read from this path. */
    public static FlowQuery capturePath(String path) { return new FlowQuery.Term(f(FlowSchema.CAPTURE_PATH), path); }

    /** Every document of one flow (flow and parts). */
    public static FlowQuery root(String rootId) { return new FlowQuery.Term(f(FlowSchema.ROOT_ID), rootId); }

    /**
     * Every document of the captures that ended before {@code epochNs}: by the last packet, or by the indexing
     * time for a capture without packets.
     */
    public static FlowQuery expiredBefore(long epochNs) {
        FieldDef last = f(FlowSchema.CAPTURE_LAST);
        return new FlowQuery.Or(List.of(new FlowQuery.LongRange(last, Long.MIN_VALUE, epochNs - 1),
                new FlowQuery.And(List.of(new FlowQuery.Not(new FlowQuery.Exists(last)),
                        new FlowQuery.LongRange(f(FlowSchema.INDEXED_AT), Long.MIN_VALUE, epochNs - 1)))));
    }
}
