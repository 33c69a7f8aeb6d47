package io.metaroce.analysis;

import java.nio.file.Path;

/** Developer tool: {@code ReportMain CAPTURE [json|text] [tap]} prints the analyze report. */
public final class ReportMain {
    public static void main(String[] args) throws Exception {
        AnalysisSettings s = AnalysisSettings.DEFAULT;
        if (args.length > 2) s = s.withTap(AnalysisSettings.Tap.parse(args[2]));
        try (Reports.EventBuffer ev = new Reports.EventBuffer()) {
            long t0 = System.nanoTime();
            AnalysisResult r = Analyzer.analyze(Path.of(args[0]), s, false, ev);
            long t1 = System.nanoTime();
            StringBuilder out = new StringBuilder();
            if (args.length > 1 && args[1].equals("json")) Reports.json(r, ev, out, true);
            else Reports.text(r, ev, out);
            System.out.print(out);
            System.err.printf("analysis %.3f s%n", (t1 - t0) / 1e9);
        }
    }
}
