package io.metaroce.analysis;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --tap auto} for a source that cannot be read twice (live capture): reads and holds the first frames,
 * as {@link Analyzer#resolveTap} pre-reads a file (up to {@link Analyzer#PRESCAN_FRAMES} RoCE frames, or until
 * {@link TapResolver#decided()}), but also stops when the source pauses a second or more after its first frame, or
 * ends, so that a quiet link does not hold results back. {@link #source()} then yields the held frames again
 * followed by the rest of the source.
 */
public final class TapPrescan {
    static final long PAUSE_NS = 1_000_000_000L;

    private final TapChoice choice;
    private final PacketSource source;

    private TapPrescan(TapChoice choice, PacketSource source) {
        this.choice = choice;
        this.source = source;
    }

    /** Reads the first frames of {@code src} and resolves the tap from them (dissected with {@code dc}'s ports). */
    public static TapPrescan of(PacketSource src, DissectorConfig dc) {
        TapResolver r = new TapResolver();
        Dissector dis = new Dissector(dc.withPorts(dc.roceUdpPorts()));
        Dissection d = new Dissection();
        FrameFacts f = new FrameFacts();
        List<Held> held = new ArrayList<>();
        long first = 0;
        while (r.frames() < Analyzer.PRESCAN_FRAMES && !r.decided() && src.next()) {
            MemorySegment data = src.data();
            held.add(new Held(src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(),
                    src.interfaceId(), data.toArray(ValueLayout.JAVA_BYTE)));
            dis.dissect(data, src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(), d);
            r.add(f.from(d));
            if (held.size() == 1) first = System.nanoTime();
            if (src.endOfBurst() && System.nanoTime() - first >= PAUSE_NS) break;
        }
        return new TapPrescan(r.resolve(), new Replay(held, src));
    }

    public TapChoice choice() {
        return choice;
    }

    /** The held frames, then the rest of the original source (closing it closes the original). */
    public PacketSource source() {
        return source;
    }

    private record Held(long number, long timeNanos, long originalLength, int linkType, int fcsLength, int interfaceId,
                        byte[] data) {}

    /** Serves the held frames first; every accessor answers for the current frame, wherever it came from. */
    private static final class Replay implements PacketSource {
        private final List<Held> held;
        private final PacketSource src;
        private int next;
        private Held current;

        Replay(List<Held> held, PacketSource src) {
            this.held = held;
            this.src = src;
        }

        @Override
        public boolean next() {
            if (next < held.size()) {
                current = held.get(next);
                held.set(next++, null); // released as served: memory stays bounded by what is held now
                return true;
            }
            current = null;
            return src.next();
        }

        @Override public boolean endOfBurst() { return next >= held.size() && src.endOfBurst(); }
        @Override public long frameNumber() { return current != null ? current.number() : src.frameNumber(); }
        @Override public long timestampNanos() { return current != null ? current.timeNanos() : src.timestampNanos(); }
        @Override public int capturedLength() { return current != null ? current.data().length : src.capturedLength(); }
        @Override public long originalLength() { return current != null ? current.originalLength() : src.originalLength(); }
        @Override public int linkType() { return current != null ? current.linkType() : src.linkType(); }
        @Override public int fcsLength() { return current != null ? current.fcsLength() : src.fcsLength(); }
        @Override public int interfaceId() { return current != null ? current.interfaceId() : src.interfaceId(); }
        @Override public int sectionIndex() { return current != null ? 0 : src.sectionIndex(); }
        @Override public MemorySegment data() { return current != null ? MemorySegment.ofArray(current.data()) : src.data(); }
        /** Null: held frames are not in any mapping, so batching readers must keep {@link #data()}. */
        @Override public MemorySegment mapping() { return null; }
        @Override public long dataOffset() { return 0; }
        @Override public long recordOffset() { return current != null ? -1 : src.recordOffset(); }
        @Override public String comment() { return current != null ? null : src.comment(); }
        @Override public CaptureFormat format() { return src.format(); }
        @Override public List<CaptureProblem> problems() { return src.problems(); }
        @Override public CaptureStats stats() { return src.stats(); }
        @Override public void close() { src.close(); }
    }
}
