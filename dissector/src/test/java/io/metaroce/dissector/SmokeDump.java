package io.metaroce.dissector;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Spec;
import java.nio.file.Path;

/** Developer tool: prints every field of every frame of a capture. */
public final class SmokeDump {
    public static void main(String[] args) throws Exception {
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        FrameFields ff = new FrameFields();
        try (PacketSource src = CaptureFiles.open(Path.of(args[0]))) {
            while (src.next()) {
                dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(), d);
                ff.of(d);
                StringBuilder b = new StringBuilder();
                b.append(d.number()).append(' ').append(d.protocols()).append(' ').append(d.opcode()).append(" icrc=").append(d.icrcStatus());
                for (FieldDef f : Spec.FIELDS) {
                    if (args.length > 1 && !f.name().matches(args[1])) continue;
                    for (int i = 0; i < ff.count(f); i++) b.append(' ').append(f.name()).append('=').append(ff.value(f, i));
                }
                b.append(' ').append(d.expert());
                System.out.println(b);
            }
        }
    }
}
