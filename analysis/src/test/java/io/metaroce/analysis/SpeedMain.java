package io.metaroce.analysis;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.nio.file.Path;
import java.util.Set;

/** Developer tool: times reading, dissecting, extracting and analyzing a capture. */
public final class SpeedMain {
    public static void main(String[] args) throws Exception {
        Path f = Path.of(args[0]);
        if (args.length > 1) {
            java.util.List<FrameFacts> all = new java.util.ArrayList<>();
            Dissector dis = new Dissector(new DissectorConfig(Set.of(4791), false));
            Dissection d = new Dissection();
            try (PacketSource src = CaptureFiles.open(f)) {
                while (src.next()) {
                    dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(), d);
                    all.add(new FrameFacts().from(d));
                }
            }
            for (int rep = 0; rep < 5; rep++) {
                AnalysisEngine e = new AnalysisEngine(AnalysisSettings.DEFAULT.withTap(AnalysisSettings.Tap.host("10.0.0.1")), args[1].equals("store"), null);
                long a = System.nanoTime();
                for (FrameFacts x : all) e.accept(x);
                e.finish(-1, -1);
                long b = System.nanoTime();
                System.out.printf("engine only: %.3f s (store %s: %d entries, %d ack runs, %d KB)%n", (b - a) / 1e9, args[1],
                        e.verdicts() == null ? 0 : e.verdicts().size(), e.verdicts() == null ? 0 : e.verdicts().ackRuns(),
                        e.verdicts() == null ? 0 : e.verdicts().memoryBytes() / 1024);
            }
            return;
        }
        for (int rep = 0; rep < 3; rep++) {
            long t0 = System.nanoTime(), n = 0;
            try (PacketSource src = CaptureFiles.open(f)) { while (src.next()) n++; }
            long t1 = System.nanoTime();
            for (boolean icrc : new boolean[] {true, false}) {
                Dissector dis = new Dissector(new DissectorConfig(Set.of(4791), icrc));
                Dissection d = new Dissection();
                FrameFacts ff = new FrameFacts();
                long a = System.nanoTime();
                try (PacketSource src = CaptureFiles.open(f)) {
                    while (src.next()) {
                        dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(), d);
                        ff.from(d);
                    }
                }
                long b = System.nanoTime();
                System.out.printf("dissect+facts icrc=%s: %.3f s%n", icrc, (b - a) / 1e9);
            }
            long a = System.nanoTime();
            AnalysisResult r = Analyzer.analyze(f, AnalysisSettings.DEFAULT, false, null);
            long b = System.nanoTime();
            AnalysisResult r2 = Analyzer.analyze(f, AnalysisSettings.DEFAULT.withCheckIcrc(false), false, null);
            long c = System.nanoTime();
            System.out.printf("read %d frames %.3f s; analyze %.3f s; analyze no-icrc %.3f s%n", n, (t1 - t0) / 1e9, (b - a) / 1e9, (c - b) / 1e9);
        }
    }
}
