package io.metaroce.analysis;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapngWriter;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameFields;
import io.metaroce.protocol.FieldDef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds a small pcapng capture in a temp file, then analyzes it and exposes results per frame. */
final class Cap {
    private record F(long t, byte[] b, int snap) {}

    private final List<F> frames = new ArrayList<>();
    private long ifDrop = -1;
    long t = 1_000_000_000L;

    /** Adds a frame dt ns after the previous one; returns its frame number. */
    int add(long dt, Pkt p) { return add(dt, p.build(), 0); }

    int add(long dt, byte[] b, int snap) {
        t += dt;
        frames.add(new F(t, b, snap));
        return frames.size();
    }

    /** Adds a frame truncated to snap bytes. */
    int addTruncated(long dt, Pkt p, int snap) { return add(dt, p.build(), snap); }

    Cap drops(long n) { ifDrop = n; return this; }

    Path write() {
        try {
            Path f = Files.createTempFile("analysis-test", ".pcapng");
            f.toFile().deleteOnExit();
            try (PcapngWriter w = PcapngWriter.create(f)) {
                w.addInterface(1, 0);
                for (F x : frames) {
                    int cap = x.snap > 0 ? Math.min(x.snap, x.b.length) : x.b.length;
                    w.write(0, x.t, x.b, 0, cap, x.b.length, null);
                }
                if (ifDrop >= 0) w.writeStatistics(0, t, frames.size() + ifDrop, ifDrop, 0);
            }
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Run analyze(String tap) { return analyze(AnalysisSettings.DEFAULT.withTap(AnalysisSettings.Tap.parse(tap))); }

    Run analyze(AnalysisSettings s) {
        try {
            Path f = write();
            AnalysisSession session = new AnalysisSession(s, AnalysisSession.Options.ALL);
            AnalysisResult r = session.run(f);
            return new Run(f, session, r, session.events().all(), session.frameFields());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The outcome of one analysis: results, events, and the analysis fields of every frame. */
    static final class Run {
        final Path file;
        final AnalysisSession session;
        final AnalysisResult result;
        final List<AnalysisEvent> events;
        final Map<Long, Map<String, Object>> fields = new HashMap<>();

        Run(Path file, AnalysisSession session, AnalysisResult result, List<AnalysisEvent> events,
            AnalysisFrameFields provider) throws Exception {
            this.file = file;
            this.session = session;
            this.result = result;
            this.events = events;
            Dissector dis = new Dissector();
            Dissection d = new Dissection();
            FrameFields ff = new FrameFields();
            try (PacketSource src = CaptureFiles.open(file)) {
                while (src.next()) {
                    dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    provider.attach(d);
                    ff.of(d);
                    Map<String, Object> m = new LinkedHashMap<>();
                    for (FieldDef fd : FieldCatalog.get().fields()) {
                        if (!fd.name().startsWith("analysis.")) continue;
                        int n = ff.count(fd);
                        if (n == 1) m.put(fd.shortName(), ff.value(fd, 0));
                        else if (n > 1) {
                            List<Object> l = new ArrayList<>();
                            for (int i = 0; i < n; i++) l.add(ff.value(fd, i));
                            m.put(fd.shortName(), l);
                        }
                    }
                    fields.put(d.number(), m);
                }
            }
        }

        Map<String, Object> frame(long n) { return fields.get(n); }

        Object field(long n, String name) { return fields.get(n).get(name); }

        boolean flag(long n, String name) { return Boolean.TRUE.equals(fields.get(n).get(name)); }

        long count(String flow, String field) { return result.count(flow, field); }

        List<AnalysisEvent> events(EventType t) {
            List<AnalysisEvent> l = new ArrayList<>();
            for (AnalysisEvent e : events) if (e.type() == t) l.add(e);
            return l;
        }

        String dump() {
            StringBuilder b = new StringBuilder();
            for (long i = 1; i <= fields.size(); i++) b.append(i).append(' ').append(fields.get(i)).append('\n');
            for (AnalysisEvent e : events) b.append(e.toJson()).append('\n');
            return b.toString();
        }
    }
}
