package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Analyzer}'s one pass over a source that cannot be read twice (live capture): the same dissector and
 * {@link AnalysisEngine}, frame by frame as they arrive, so events come out as they are decided.
 * {@code --tap auto} cannot pre-read the capture, so {@link TapPrescan} holds the first frames, resolves the
 * tap from them, and they are then analyzed in order.
 *
 * <p>Isolated on purpose: once the analysis has a typed session API over any {@link PacketSource}, this
 * class is what moves onto it.
 */
public final class LiveAnalyzer {
    private LiveAnalyzer() {}

    /**
     * Analyzes {@code src} until it ends (the caller stops a live capture with Ctrl-C, -c or -a).
     *
     * @param name the source's name in the report (for example the interface names)
     */
    public static AnalysisResult analyze(PacketSource src, String name, AnalysisSettings settings, boolean recordVerdicts,
                                         AnalysisEngine.EventListener listener) {
        DissectorConfig dc = new DissectorConfig(settings.rocePorts(), settings.checkIcrc());
        AnalysisEngine engine = new AnalysisEngine(settings, recordVerdicts, listener);
        Dissector dis = new Dissector(dc);
        Dissection d = new Dissection();
        FrameFacts f = new FrameFacts();
        if (settings.tap().kind() == Tap.Kind.AUTO) {
            TapPrescan pre = TapPrescan.of(src, dc);
            engine.setTap(pre.choice().tap(), pre.choice().how());
            src = pre.source();
        }
        while (src.next()) {
            dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                    src.fcsLength(), d);
            engine.accept(f.from(d));
        }
        CaptureStats stats = src.stats();
        AnalysisResult result = engine.finish(stats.totalIfDropped(), stats.totalOsDropped());
        List<String> problems = new ArrayList<>();
        for (var p : src.problems()) problems.add(p.message());
        result.source(name, src.format().toString().toLowerCase());
        result.problems(problems);
        return result;
    }
}
