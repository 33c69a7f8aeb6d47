package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The index's narrow columns give back every value exactly, including those that do not fit them (long pauses,
 * time going backwards, offsets past 4 GiB, jumbo and sliced lengths, hundreds of interfaces), and hold a plain
 * capture in about 14 bytes per frame.
 */
class FrameIndexColumnsTest {

    /** One frame's values as a source reports them. */
    record Row(long time, long data, long record, int captured, long original, int iface, int link, int fcs) { }

    @Test
    void extremeValuesComeBackExactly() {
        SplittableRandom r = new SplittableRandom(7);
        Row[] rows = new Row[5000];
        long t = 1_700_000_000_000_000_000L, off = 24;
        for (int i = 0; i < rows.length; i++) {
            t += switch (i % 97) {
                case 3 -> 5_000_000_000L;                 // a pause of 5 s
                case 4 -> -3_000_000_000L;                // time goes back (a merged capture)
                case 5 -> Long.MIN_VALUE / 4;              // nonsense from a damaged file
                default -> r.nextInt(2000);
            };
            int cap = i % 89 == 0 ? 70_000 + r.nextInt(200_000) : 60 + r.nextInt(1500);
            long orig = i % 83 == 0 ? 0xFFFF_FFFFL : i % 5 == 0 ? cap + r.nextInt(9000) : cap;
            int header = i % 71 == 0 ? 300 + r.nextInt(100) : i % 2 == 0 ? 16 : 28;
            off += header;
            if (i == 2500) off += 5L << 32;               // past 4 GiB (and a block spanning it)
            int iface = i < 4000 ? i % 3 : i % 400;       // finally more interfaces than a byte numbers
            rows[i] = new Row(t, off, off - header, cap, orig, iface, iface % 2 == 0 ? 1 : 228, iface % 5 == 0 ? 4 : -1);
            off += cap;
        }
        FrameIndex ix = FrameIndex.build(new RowSource(rows));
        assertEquals(rows.length, ix.size());
        for (int i = 0; i < rows.length; i++) {
            Row w = rows[i];
            int n = i + 1;
            String at = "frame " + n;
            assertEquals(w.time, ix.timeNanos(n), at);
            assertEquals(w.data, ix.dataOffset(n), at);
            assertEquals(w.record, ix.recordOffset(n), at);
            assertEquals(w.captured, ix.capturedLength(n), at);
            assertEquals(w.original, ix.originalLength(n), at);
            assertEquals(w.iface, ix.interfaceId(n), at);
            assertEquals(w.link, ix.linkType(n), at);
            assertEquals(w.fcs, ix.fcsLength(n), at);
        }
    }

    @Test
    void aPlainCaptureTakesAboutFourteenBytesPerFrame() {
        Row[] rows = new Row[300_000];
        long t = 1_700_000_000_000_000_000L, off = 24;
        for (int i = 0; i < rows.length; i++) {
            t += 48;
            off += 16;
            rows[i] = new Row(t, off, off - 16, 1082, 1082, 0, 1, -1);
            off += 1082;
        }
        FrameIndex ix = FrameIndex.build(new RowSource(rows));
        double perFrame = ix.memoryBytes() / (double) rows.length;
        // 4 + 4 (time and offset deltas) + 1 (header) + 2 + 2 (lengths) + 1 (interface) + two longs per 256 frames.
        assertEquals(14.0625, perFrame, 0.001);
        assertTrue(perFrame <= 16);
    }

    /** A file-backed source (a tiny mapping: the test reads no bytes) reporting the given rows. */
    private static final class RowSource implements PacketSource {
        private final Row[] rows;
        private final MemorySegment mapping = MemorySegment.ofArray(new byte[16]);
        private int at = -1;

        RowSource(Row[] rows) { this.rows = rows; }

        @Override public boolean next() { return ++at < rows.length; }
        @Override public long frameNumber() { return at + 1; }
        @Override public long timestampNanos() { return rows[at].time; }
        @Override public int capturedLength() { return rows[at].captured; }
        @Override public long originalLength() { return rows[at].original; }
        @Override public int linkType() { return rows[at].link; }
        @Override public int fcsLength() { return rows[at].fcs; }
        @Override public int interfaceId() { return rows[at].iface; }
        @Override public int sectionIndex() { return 0; }
        @Override public MemorySegment data() { return mapping; }
        @Override public MemorySegment mapping() { return mapping; }
        @Override public long dataOffset() { return rows[at].data; }
        @Override public long recordOffset() { return rows[at].record; }
        @Override public String comment() { return null; }
        @Override public CaptureFormat format() { return CaptureFormat.PCAP_NS; }
        @Override public List<CaptureProblem> problems() { return List.of(); }
        @Override public CaptureStats stats() { return null; }
        @Override public void close() { }
    }
}
