package io.metaroce.bench;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.PcapWriter;
import io.metaroce.dissector.FrameBuilder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes captures with many QPs for the flow-index benchmark (bench/index-bench.sh): in each capture, every QP
 * is one RDMA WRITE of two packets (First, Last, 256-byte payloads, the Last asking for an ACK) followed by the
 * responder's ACK on its own QP, so each QP gives two flow documents; the QPs of one capture stay below the
 * analysis' flow bound (65,536), as the ManyQpsIT capture's single-packet QPs do not. Correct ICRCs.
 * Usage: ManyQpCaptures OUTDIR [captures] [qps per capture]; prints the flows written.
 */
public final class ManyQpCaptures {
    private ManyQpCaptures() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int captures = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int qps = args.length > 2 ? Integer.parseInt(args[2]) : 31_250;
        Files.createDirectories(dir);
        for (int c = 0; c < captures; c++) {
            try (PcapWriter w = PcapWriter.create(dir.resolve(String.format("many-qps-%02d.pcap", c)), CaptureFormat.PCAP_NS, 1, 65535)) {
                long t = 1_796_000_000_000_000_000L + c * 60_000_000_000L;
                for (int q = 0; q < qps; q++) {
                    int qp = 0x1000 + q, psn = (q * 7) & 0xFFFFFF;
                    w.write(t, new FrameBuilder().opcode(0x06, 0).payload(256).set("bth.dest_qp", qp).set("bth.psn", psn)
                            .set("reth.dma_length", 512).set("reth.r_key", 0x1234).set("reth.virtual_address", 0x7f0000000000L).build());
                    w.write(t + 500, new FrameBuilder().opcode(0x08, 0).payload(256).set("bth.dest_qp", qp).set("bth.psn", (psn + 1) & 0xFFFFFF)
                            .set("bth.ack_req", 1).build());
                    w.write(t + 2500, new FrameBuilder().opcode(0x11, 0).set("bth.dest_qp", 0x80000 + q).set("bth.psn", (psn + 1) & 0xFFFFFF)
                            .set("aeth.syndrome", 0x1F).set("aeth.msn", 1).build());
                    t += 1000;
                }
            }
        }
        System.out.println((long) captures * qps * 2);
    }
}
