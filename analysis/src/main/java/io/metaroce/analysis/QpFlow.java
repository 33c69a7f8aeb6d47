package io.metaroce.analysis;

/**
 * One QP flow of the analysis engine (one direction to one destination QP, spec §12) as a consumer riding the
 * same pass sees it ({@link AnalysisSession.FrameStages}, {@link FrameOutcome}): the engine's identity of the
 * flow, where the tap sees it from, its pairing with the other direction and what connection management
 * announced for it. Read-only, valid on the analysis thread during the pass; the values are the engine's
 * current ones (a flow may be paired, or learn its connection parameters, later in the capture). A consumer that
 * keeps per-flow state keys it by {@link #index()}, so that there is one flow table and one pairing.
 */
public interface QpFlow {
    /** Unique over the pass (also once flows were evicted), dense from 0 in order of creation. */
    int index();

    /** The flow id the analysis reports ({@link FlowKey#id()}). */
    String id();

    /** Source and destination addresses and destination QP. */
    FlowKey key();

    /** Where the tap sees this direction from (fixed when the flow is created). */
    View view();

    /** The other direction of the connection (paired from CM, else from the PSNs replies name), or null. */
    QpFlow peer();

    /**
     * What this flow's sender announced in the CM REQ or REP that set up its connection (start PSN, and the
     * MetaRoCE parameters when it sent them), or null when the capture holds no such exchange.
     */
    CmPairing.Side announced();

    /** The IBTA path MTU of the connection's CM REQ in bytes, 0 when unknown or not set up by CM. */
    int cmPathMtu();

    /**
     * The engine's PSN window of this flow's request stream, or null when it keeps none (no request yet, UD,
     * released after idling or evicted). A new window, or a new {@link RequestWindow#generation()}, is a new stream.
     */
    RequestWindow requests();
}
