package io.metaroce.gui;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameIndex;

/**
 * Decodes frames of an open capture on demand, with the {@code analysis.*} fields attached once the analysis is
 * done: what the packet list, the tree and the filter read. Holds scratch state (one {@link Dissection} reused),
 * so one decoder per thread; the result of {@link #decode} is valid until the next call.
 */
public final class FrameDecoder {
    private final FrameIndex index;
    private final Dissector dissector = new Dissector();
    private final Dissection dissection = new Dissection();
    private final FrameFields fields = new FrameFields();
    private final AnalysisFrameFields analysis;

    /** @param session a finished analysis with verdicts, or null while (or if) there is none */
    public FrameDecoder(FrameIndex index, AnalysisSession session) {
        this.index = index;
        this.analysis = session != null && session.state() == AnalysisSession.State.FINISHED ? session.frameFields() : null;
    }

    public boolean hasAnalysis() { return analysis != null; }

    /** The analysis fields attached to each decoded frame, or null without a finished analysis. */
    public AnalysisFrameFields analysis() { return analysis; }

    /** Dissects frame (1-based) and attaches its analysis fields. */
    public Dissection decode(int frame) {
        index.dissect(frame, dissector, dissection);
        if (analysis != null) analysis.attach(dissection);
        return dissection;
    }

    /** The fields of the frame last decoded. */
    public FrameFields fields() { return fields.of(dissection); }
}
