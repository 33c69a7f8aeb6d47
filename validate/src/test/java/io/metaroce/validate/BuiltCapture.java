package io.metaroce.validate;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.LinkTypes;
import io.metaroce.capture.PcapWriter;
import io.metaroce.dissector.FrameBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A small capture built frame by frame with the dissector's FrameBuilder (frames made to the spec tables). */
final class BuiltCapture {
    static final long A = 0x0A000001L, B = 0x0A000002L;
    private final List<byte[]> frames = new ArrayList<>();
    private final List<Long> times = new ArrayList<>();
    /** Bytes of each frame written (the snap length's cut), -1 for the whole frame. */
    private final List<Integer> captured = new ArrayList<>();
    private long t = 1_767_225_600_000_000_000L;

    /** A RoCEv2 frame from src to dst (10.0.0.1 / 10.0.0.2); fields set by name after the defaults. */
    static FrameBuilder v2(int opcode, long src, long dst) {
        FrameBuilder b = new FrameBuilder().opcode(opcode, 0).set("ip.src", src).set("ip.dst", dst).set("bth.dest_qp", 0x21);
        if (src == B) b.set("ip.ttl", 61);
        return b;
    }

    /** A MetaRoCE frame (tver 1). */
    static FrameBuilder v1(int opcode, boolean spray, long src, long dst) {
        FrameBuilder b = new FrameBuilder().opcode(opcode, 1).spray(spray).set("ip.src", src).set("ip.dst", dst)
                .set("bth.dest_qp", 0x33).set("mrth.ts_valid", 1);
        if (src == B) b.set("ip.ttl", 61);
        return b;
    }

    BuiltCapture add(FrameBuilder b, long gapNs) {
        return add(b.build(), gapNs);
    }

    private BuiltCapture add(byte[] frame, long gapNs) {
        t += gapNs;
        frames.add(frame);
        times.add(t);
        captured.add(-1);
        return this;
    }

    /** A frame of which only the first capturedLength bytes are written (cut by the snap length). */
    BuiltCapture addCut(FrameBuilder b, int capturedLength) {
        add(b);
        captured.set(captured.size() - 1, capturedLength);
        return this;
    }

    BuiltCapture add(FrameBuilder b) { return add(b, 1_000); }

    /** A frame given as its bytes (e.g. a built frame changed after the builder, its ICRC made right again). */
    BuiltCapture add(byte[] frame) { return add(frame, 1_000); }

    Path write(Path file) throws IOException {
        try (PcapWriter w = PcapWriter.create(file, CaptureFormat.PCAP_NS, LinkTypes.ETHERNET, 0)) {
            for (int i = 0; i < frames.size(); i++) {
                byte[] f = frames.get(i);
                int cap = captured.get(i);
                w.write(times.get(i), f, 0, cap < 0 ? f.length : Math.min(cap, f.length), f.length);
            }
        }
        return file;
    }
}
