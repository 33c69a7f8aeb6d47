package io.metaroce.bench;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.PcapWriter;
import io.metaroce.dissector.FrameBuilder;
import java.nio.file.Path;

/**
 * Writes the benchmark capture: N RoCEv2 frames, RDMA WRITE First/Middle/Last with 1 KiB payloads on
 * several QPs, every 16th frame an ACK, correct ICRCs. Frames are built once per (opcode, QP) and only
 * the PSN and timestamp vary, so writing 1 M frames takes seconds.
 * Usage: BenchCapture OUT.pcap [frames] [qps]
 */
public final class BenchCapture {
    private BenchCapture() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        long frames = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
        int qps = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int[] psn = new int[qps];
        try (PcapWriter w = PcapWriter.create(out, CaptureFormat.PCAP_NS, 1, 65535)) {
            long t = 1_700_000_000_000_000_000L;
            for (long i = 0; i < frames; i++) {
                int qp = (int) (i % qps);
                byte[] f;
                if (i % 16 == 15) {
                    f = new FrameBuilder().opcode(0x11, 0).set("bth.dest_qp", 0x100 + qp).set("bth.psn", psn[qp] - 1)
                            .set("aeth.syndrome", 0x1F).set("aeth.msn", psn[qp] / 4).build();
                } else {
                    int seg = psn[qp] % 4;
                    int opcode = seg == 0 ? 0x06 : seg == 3 ? 0x08 : 0x07;
                    FrameBuilder b = new FrameBuilder().opcode(opcode, 0).payload(1024).set("bth.dest_qp", 0x200 + qp)
                            .set("bth.psn", psn[qp] & 0xFFFFFF).set("bth.ack_req", seg == 3 ? 1 : 0);
                    if (opcode == 0x06) b.set("reth.dma_length", 4096).set("reth.r_key", 0x1234).set("reth.virtual_address", 0x7f0000000000L);
                    f = b.build();
                    psn[qp]++;
                }
                w.write(t, f);
                t += 1000;
            }
        }
        System.out.println("wrote " + frames + " frames to " + out);
    }
}
