package io.metaroce.capture.live;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureInterface;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link PacketSource} over a running {@link LiveCapture}: {@link #next()} waits for the next frame and
 * returns false once the capture has stopped and every captured frame was read. There is no file mapping
 * ({@link #mapping()} is null); each frame's bytes are its own heap array, which stays valid while referenced,
 * so {@link #data()} segments may be handed to other threads as the contract asks. The capture's counters
 * appear in {@link #stats()} as each interface's isb_osdrop (kernel drops plus ours) and isb_ifdrop, so the
 * analysis reports them as capture loss, never as network loss.
 */
public final class LivePacketSource implements PacketSource {
    private final LiveCapture capture;
    private LivePacket current;
    private long frameNumber;
    private long framesRead;
    private boolean closed;

    /** Reads from {@code capture}, which must be started; closing this source stops and closes the capture. */
    public LivePacketSource(LiveCapture capture) {
        this.capture = capture;
    }

    public LiveCapture capture() {
        return capture;
    }

    @Override
    public boolean next() {
        if (closed) return false;
        current = capture.take();
        if (current == null) return false;
        frameNumber++;
        framesRead++;
        return true;
    }

    /** The current frame as the capture handed it over (to write it to a file as well, as the GUI does). */
    public LivePacket packet() {
        return current;
    }

    /** True when no further frame is waiting right now: a batching reader should hand over what it has. */
    @Override
    public boolean endOfBurst() {
        return capture.queueEmpty();
    }

    @Override public long frameNumber() { return frameNumber; }
    @Override public long timestampNanos() { return current.timestampNanos(); }
    @Override public int capturedLength() { return current.data().length; }
    @Override public long originalLength() { return current.originalLength(); }
    @Override public int linkType() { return capture.linkType(current.interfaceIndex()); }
    /** Linux hands frames over without their FCS, but does not say so per interface: unknown, as in a pcap. */
    @Override public int fcsLength() { return -1; }
    @Override public int interfaceId() { return current.interfaceIndex(); }
    @Override public int sectionIndex() { return 0; }
    @Override public MemorySegment data() { return MemorySegment.ofArray(current.data()); }
    /** Always null: live frames are not in a file mapping. */
    @Override public MemorySegment mapping() { return null; }
    @Override public long dataOffset() { return 0; }
    @Override public long recordOffset() { return -1; }
    @Override public String comment() { return null; }
    @Override public CaptureFormat format() { return CaptureFormat.LIVE; }

    /** The error that ended the capture (an interface went away), if any. */
    @Override
    public List<CaptureProblem> problems() {
        String e = capture.error();
        return e == null ? List.of() : List.of(new CaptureProblem(-1, e));
    }

    @Override
    public CaptureStats stats() {
        List<CaptureInterface> ifs = new ArrayList<>();
        for (int i = 0; i < capture.interfaceCount(); i++) {
            InterfaceCounters c = capture.counters(i);
            long osDrop = Math.max(0, c.osDropped()) + c.ourDropped();
            ifs.add(new CaptureInterface(0, i, capture.linkType(i), capture.snapLength(i), -1, 9, 0, capture.interfaceName(i),
                    capture.interfaceDescription(i), c.queued(), c.ifReceived(), c.ifDropped(), osDrop));
        }
        return new CaptureStats(CaptureFormat.LIVE, framesRead, 1, ifs.size(), ifs, List.of(), null, problems().size());
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        capture.close();
    }
}
