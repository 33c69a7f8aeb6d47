package io.metaroce.capture.testing;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test fixture (capture test-jar): frames held in memory and handed out with no mapping, the contract of a live
 * capture. In ring mode every frame is copied into one reused buffer whose previous contents are overwritten
 * first, as a capture ring does, so a consumer that keeps a frame without copying it reads garbage and fails.
 */
public final class InMemoryPacketSource implements PacketSource {

    /** One frame: its captured bytes, capture time, length on the wire, link type and FCS length (-1 unknown). */
    public record Frame(byte[] bytes, long timeNs, long originalLength, int linkType, int fcsLength) {
        /** A frame captured whole. */
        public Frame(byte[] bytes, long timeNs, int linkType, int fcsLength) {
            this(bytes, timeNs, bytes.length, linkType, fcsLength);
        }
    }

    private final List<Frame> frames;
    private final byte[] ring;
    private int index = -1;

    private InMemoryPacketSource(List<Frame> frames, boolean ringMode) {
        this.frames = frames;
        this.ring = ringMode ? new byte[65536] : null;
    }

    /** The frames as given, each {@link #data()} a view of its own array. */
    public static InMemoryPacketSource of(List<Frame> frames) {
        return new InMemoryPacketSource(frames, false);
    }

    /** Every frame of a capture file, copied into memory, handed out through one reused buffer. */
    public static InMemoryPacketSource ringOf(Path file) throws CaptureException {
        return new InMemoryPacketSource(framesOf(file), true);
    }

    /** Every frame of a capture file, copied into memory. */
    public static List<Frame> framesOf(Path file) throws CaptureException {
        List<Frame> frames = new ArrayList<>();
        try (PacketSource src = CaptureFiles.open(file)) {
            while (src.next()) {
                frames.add(new Frame(src.data().toArray(ValueLayout.JAVA_BYTE), src.timestampNanos(), src.originalLength(),
                        src.linkType(), src.fcsLength()));
            }
        }
        return frames;
    }

    public int size() {
        return frames.size();
    }

    private Frame f() {
        return frames.get(index);
    }

    @Override
    public boolean next() {
        if (index + 1 >= frames.size()) return false;
        index++;
        if (ring != null) {
            Arrays.fill(ring, (byte) 0xEE); // the previous frame's bytes are gone
            System.arraycopy(f().bytes(), 0, ring, 0, f().bytes().length);
        }
        return true;
    }

    @Override public long frameNumber() { return index + 1; }
    @Override public long timestampNanos() { return f().timeNs(); }
    @Override public int capturedLength() { return f().bytes().length; }
    @Override public long originalLength() { return f().originalLength(); }
    @Override public int linkType() { return f().linkType(); }
    @Override public int fcsLength() { return f().fcsLength(); }
    @Override public int interfaceId() { return 0; }
    @Override public int sectionIndex() { return 0; }

    @Override
    public MemorySegment data() {
        return ring != null ? MemorySegment.ofArray(ring).asSlice(0, f().bytes().length) : MemorySegment.ofArray(f().bytes());
    }

    @Override public MemorySegment mapping() { return null; }
    @Override public long dataOffset() { return -1; }
    @Override public long recordOffset() { return -1; }
    @Override public String comment() { return null; }
    @Override public CaptureFormat format() { return CaptureFormat.PCAPNG; }
    @Override public List<CaptureProblem> problems() { return List.of(); }

    @Override
    public CaptureStats stats() {
        return new CaptureStats(CaptureFormat.PCAPNG, index + 1, 1, 1, List.of(), List.of(), null, 0);
    }

    @Override public void close() { }
}
