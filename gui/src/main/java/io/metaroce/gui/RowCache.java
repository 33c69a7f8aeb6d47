package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FrameVerdict;
import io.metaroce.analysis.LiveAnalyzer;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.NameResolver;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The text of the rows on screen, decoded on demand and kept for the few thousand rows seen last (a table asks
 * for each cell of a row separately; one decode serves the row). Used on the JavaFX thread only; the capture
 * bytes are read from the file mapping, so the memory per frame of the capture is zero here.
 */
final class RowCache {
    static final int SOURCE = 0, DESTINATION = 1, PROTOCOL = 2, QP = 3, PSN = 4, INFO = 5, CUSTOM = 6;
    private static final int KEEP = 4096;

    /** One decoded row: its column texts and the coloring rule it matches (-1 none). */
    record Row(String[] text, int colorRule) { }

    private final OpenCapture capture;
    private final FrameDecoder decoder;
    private final AnalysisSession session;
    /** The running analysis of a live capture (its verdicts so far), when there is no session yet; else null. */
    private final LiveAnalyzer.Monitor live;
    private final ColoringRules rules;
    /** The custom columns, whose texts follow Info's in a row ({@link #CUSTOM} + i): one field lookup each. */
    private final CustomColumn[] custom;
    private final CustomColumn.Text customText = new CustomColumn.Text();
    private final Map<Integer, Row> rows = new LinkedHashMap<>(KEEP * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Row> e) { return size() > KEEP; }
    };

    /** The names Source and Destination show (View > Name Resolution's when the cache was made). */
    private final NameResolver names;

    RowCache(OpenCapture capture, AnalysisSession session, ColoringRules rules) {
        this(capture, session, null, rules, new CustomColumn[0], NameResolver.NONE);
    }

    RowCache(OpenCapture capture, AnalysisSession session, LiveAnalyzer.Monitor live, ColoringRules rules, CustomColumn[] custom,
             NameResolver names) {
        this.names = names;
        this.custom = custom;
        this.capture = capture;
        this.session = session;
        this.live = session == null ? live : null;
        this.decoder = new FrameDecoder(capture.index(), session);
        this.rules = rules;
    }

    Row row(int frame) {
        Row r = rows.get(frame);
        if (r == null) {
            r = decode(frame);
            rows.put(frame, r);
        }
        return r;
    }

    private Row decode(int frame) {
        Dissection d = decoder.decode(frame);
        FrameVerdict v = session != null ? session.verdictOf(frame) : null;
        if (live != null) {
            v = live.verdictOf(frame);
            live.attach(d);     // the analysis.* fields the coloring rules read
        }
        String[] t = new String[CUSTOM + custom.length];
        t[SOURCE] = PacketSummary.source(d, names);
        t[DESTINATION] = PacketSummary.destination(d, names);
        t[PROTOCOL] = PacketSummary.protocol(d);
        t[QP] = PacketSummary.qp(d);
        t[PSN] = PacketSummary.psn(d);
        t[INFO] = PacketSummary.info(d, v);
        if (custom.length > 0) {
            var ff = decoder.fields();
            for (int i = 0; i < custom.length; i++) t[CUSTOM + i] = customText.of(custom[i], ff);
        }
        return new Row(t, rules == null ? -1 : rules.match(decoder.fields(), capture, frame, session));
    }
}
