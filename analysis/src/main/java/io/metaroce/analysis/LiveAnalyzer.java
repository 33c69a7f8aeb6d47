package io.metaroce.analysis;

import io.metaroce.capture.PacketSource;

/**
 * One pass over a source that cannot be read twice (live capture): a shortcut over
 * {@link AnalysisSession#run(PacketSource, String)}, which analyzes frames as they arrive (events come out as
 * they are decided) and resolves {@code --tap auto} from the first frames ({@link TapPrescan}).
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
        AnalysisSession s = new AnalysisSession(settings, new AnalysisSession.Options(recordVerdicts, false, false));
        if (listener != null) s.onEvent(listener);
        AnalysisResult result = s.run(src, name);
        return result;
    }
}
