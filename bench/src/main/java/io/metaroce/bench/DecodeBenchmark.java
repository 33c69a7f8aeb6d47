package io.metaroce.bench;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameBuilder;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.kaitai.RoceFrame;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-frame decode cost: the generated flyweight dissector (with and without the ICRC) against the
 * Kaitai parser of record on the same frame, and a single BTH field read.
 * Run: java -jar bench/target/benchmarks.jar DecodeBenchmark -prof gc
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DecodeBenchmark {
    /** write_first_1k: RoCEv2 RDMA WRITE First, 1 KiB payload; ack: RoCEv2 ACK; mr_sack: MetaRoCE MR-SACK. */
    @Param({"write_first_1k", "ack", "mr_sack"})
    public String frame;

    private MemorySegment segment;
    private byte[] bytes;
    private final Dissector withIcrc = new Dissector();
    private final Dissector noIcrc = new Dissector(new DissectorConfig(Set.of(4791), false));
    private final Dissection out = new Dissection();

    @Setup
    public void setup() {
        bytes = switch (frame) {
            case "write_first_1k" -> new FrameBuilder().opcode(0x06, 0).payload(1024).set("bth.psn", 42).set("reth.dma_length", 4096).build();
            case "ack" -> new FrameBuilder().opcode(0x11, 0).set("aeth.syndrome", 0x1F).set("aeth.msn", 7).build();
            case "mr_sack" -> new FrameBuilder().opcode(0xE0, 1).set("sacketh.cum_psn", 100).set("sacketh.bitmap", 0x0B).build();
            default -> throw new IllegalArgumentException(frame);
        };
        // Off-heap like a capture mapping, so the flyweights read the same kind of segment as in production.
        segment = Arena.ofAuto().allocate(bytes.length);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, segment, 0, bytes.length);
    }

    @Benchmark
    public Dissection flyweightWithIcrc() {
        return withIcrc.dissect(segment, 1, 0, bytes.length, 1, -1, out);
    }

    @Benchmark
    public Dissection flyweightNoIcrc() {
        return noIcrc.dissect(segment, 1, 0, bytes.length, 1, -1, out);
    }

    @Benchmark
    public Object kaitaiParse() {
        RoceFrame f = new RoceFrame(new ByteBufferKaitaiStream(bytes));
        return f.udpTransport().bth().psn();
    }

    @Benchmark
    public long flyweightBthPsn() {
        return Bth.psn(segment, 42);
    }
}
