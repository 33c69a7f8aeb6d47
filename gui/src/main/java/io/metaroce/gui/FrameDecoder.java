package io.metaroce.gui;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameIndex;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Decodes frames of an open capture on demand, with the {@code analysis.*} fields attached once the analysis is
 * done: what the packet list, the tree and the filter read. Holds scratch state (one {@link Dissection} reused),
 * so one decoder per thread; the result of {@link #decode} is valid until the next call.
 */
public final class FrameDecoder {
    /**
     * The UDP ports decoded as RoCE in each open capture's index (Decode As, {@code gui -d}), when not only 4791:
     * kept with the index, where the capture is opened, so that every decoder of it (the packet list, the tree,
     * the filter, the sort, the export) dissects alike without each of them being handed the ports. Weak: an
     * index closed and dropped takes its entry with it.
     */
    private static final Map<FrameIndex, DissectorConfig> CONFIGS = Collections.synchronizedMap(new WeakHashMap<>());

    private final FrameIndex index;
    private final Dissector dissector;
    private final Dissection dissection = new Dissection();
    private final FrameFields fields = new FrameFields();
    private final AnalysisFrameFields analysis;

    /** @param session a finished analysis with verdicts, or null while (or if) there is none */
    public FrameDecoder(FrameIndex index, AnalysisSession session) {
        this.index = index;
        this.dissector = new Dissector(config(index));
        this.analysis = session != null && session.state() == AnalysisSession.State.FINISHED ? session.frameFields() : null;
    }

    /** The dissector settings every decoder of index uses: the default ones unless Decode As gave it other ports. */
    public static DissectorConfig config(FrameIndex index) {
        DissectorConfig c = CONFIGS.get(index);
        return c == null ? DissectorConfig.DEFAULT : c;
    }

    /** Decodes the frames of index with these UDP ports as RoCE (4791 among them) from now on. */
    static void decodeAs(FrameIndex index, Set<Integer> rocePorts) {
        CONFIGS.put(index, DissectorConfig.DEFAULT.withPorts(rocePorts));
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
