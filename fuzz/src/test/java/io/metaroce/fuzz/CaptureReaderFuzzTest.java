package io.metaroce.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The pcap and pcapng readers on whole-file bytes (read in place through {@link CaptureFiles#open(String,
 * MemorySegment)}), each frame then dissected. The magic is forced so that every input reaches the reader under
 * test; the pcap target lets byte 0 pick byte order and timestamp resolution. Contract: {@code open} throws only
 * {@link CaptureException}, {@code next()} never throws, every frame lies inside the file, problems name an
 * offset inside the file, and the frame count is bounded by the file size (no frame without its header bytes).
 */
class CaptureReaderFuzzTest {
    private static final byte[][] PCAP_MAGICS = {
            {(byte) 0xD4, (byte) 0xC3, (byte) 0xB2, (byte) 0xA1}, {(byte) 0x4D, (byte) 0x3C, (byte) 0xB2, (byte) 0xA1},
            {(byte) 0xA1, (byte) 0xB2, (byte) 0xC3, (byte) 0xD4}, {(byte) 0xA1, (byte) 0xB2, (byte) 0x3C, (byte) 0x4D}};
    private static final byte[] PCAPNG_MAGIC = {0x0A, 0x0D, 0x0D, 0x0A};
    /** Smallest record that can carry a frame: a pcap record header (16) or a pcapng SPB (16). */
    private static final int MIN_RECORD = 16;

    private final Dissector dissector = new Dissector();
    private final Dissection out = new Dissection();
    private final FrameContract contract = new FrameContract();

    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "5m")
    void pcap(byte[] input) {
        if (input.length < 4) return;
        byte[] file = input.clone();
        System.arraycopy(PCAP_MAGICS[input[0] & 3], 0, file, 0, 4);
        readAll(file);
    }

    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "5m")
    void pcapng(byte[] input) {
        if (input.length < 4) return;
        byte[] file = input.clone();
        System.arraycopy(PCAPNG_MAGIC, 0, file, 0, 4);
        readAll(file);
    }

    private void readAll(byte[] file) {
        PacketSource source;
        try {
            source = CaptureFiles.open("fuzz", MemorySegment.ofArray(file));
        } catch (CaptureException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("fuzz: ")) {
                throw new AssertionError("refusal without the file name: " + e.getMessage(), e);
            }
            return;
        }
        try (source) {
            long frames = 0;
            while (source.next()) {
                frames++;
                if (frames > file.length / MIN_RECORD) {
                    throw new AssertionError(frames + " frames from a " + file.length + "-byte file");
                }
                int captured = source.capturedLength();
                long at = source.dataOffset();
                if (captured < 0 || at < 0 || at + captured > file.length || source.data().byteSize() != captured
                        || source.recordOffset() < 0 || source.recordOffset() > at) {
                    throw new AssertionError("frame " + frames + ": " + captured + " bytes at " + at + ", record at "
                            + source.recordOffset() + ", in a " + file.length + "-byte file");
                }
                source.comment();
                source.interfaceId();
                dissector.dissect(source.data(), source.frameNumber(), source.timestampNanos(), source.originalLength(),
                        source.linkType(), source.fcsLength(), out);
                contract.check(out);
            }
            if (source.next()) throw new AssertionError("next() true again after the end");
            for (CaptureProblem p : source.problems()) {
                if (p.message() == null || p.message().isBlank() || p.offset() < 0 || p.offset() > file.length) {
                    throw new AssertionError("problem " + p.offset() + ": " + p.message());
                }
            }
            source.stats();
        }
    }
}
