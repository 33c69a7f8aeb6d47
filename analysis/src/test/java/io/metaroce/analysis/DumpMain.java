package io.metaroce.analysis;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import java.nio.file.Path;

/** Developer tool: {@code DumpMain CAPTURE [from to]} prints each frame's analysis fields and the events. */
public final class DumpMain {
    public static void main(String[] args) throws Exception {
        Path f = Path.of(args[0]);
        long from = args.length > 1 ? Long.parseLong(args[1]) : 1, to = args.length > 2 ? Long.parseLong(args[2]) : Long.MAX_VALUE;
        java.util.List<AnalysisEvent> ev = new java.util.ArrayList<>();
        AnalysisResult r = Analyzer.analyze(f, AnalysisSettings.DEFAULT, true, ev::add);
        AnalysisFrameFields p = Analyzer.frameFields(f, AnalysisSettings.DEFAULT);
        Dissector dis = new Dissector();
        Dissection d = new Dissection();
        try (PacketSource src = CaptureFiles.open(f)) {
            while (src.next()) {
                dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(), d);
                if (d.number() < from || d.number() > to) continue;
                p.attach(d);
                StringBuilder b = new StringBuilder();
                b.append(d.number()).append(' ').append(d.timeNanos() % 10_000_000).append(' ').append(d.opcode() == null ? "-" : d.opcode().id())
                        .append(" psn=").append(d.psn());
                for (int i = 0; i < d.extra().size(); i++) {
                    var fd = d.extra().field(i);
                    b.append(' ').append(fd.shortName()).append('=')
                            .append(d.extra().stringValue(i) != null ? d.extra().stringValue(i) : d.extra().longValue(i));
                }
                System.out.println(b);
            }
        }
        if (args.length > 3) for (AnalysisEvent e : ev) System.out.println(e.toJson());
        if (args.length > 4) System.out.println(r.flows());
    }
}
