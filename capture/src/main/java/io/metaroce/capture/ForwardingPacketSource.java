package io.metaroce.capture;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A {@link PacketSource} that forwards every call to another one; subclasses override only what they change
 * (a live source that also writes each frame to a file, a file read the way a live capture is). Saves each such
 * wrapper from restating the seventeen accessors, and from forgetting one when the interface grows.
 */
public abstract class ForwardingPacketSource implements PacketSource {
    protected final PacketSource delegate;

    protected ForwardingPacketSource(PacketSource delegate) {
        this.delegate = delegate;
    }

    /**
     * The same frames without the file behind them: no mapping, no offsets, as a live capture hands them out
     * (consumers must then copy what they keep; tests use it to run the non-file paths over real captures).
     */
    public static PacketSource withoutMapping(PacketSource s) {
        return new ForwardingPacketSource(s) {
            @Override public MemorySegment mapping() { return null; }
            @Override public long dataOffset() { return -1; }
            @Override public long recordOffset() { return -1; }
        };
    }

    @Override public boolean next() { return delegate.next(); }
    @Override public boolean endOfBurst() { return delegate.endOfBurst(); }
    @Override public long frameNumber() { return delegate.frameNumber(); }
    @Override public long timestampNanos() { return delegate.timestampNanos(); }
    @Override public int capturedLength() { return delegate.capturedLength(); }
    @Override public long originalLength() { return delegate.originalLength(); }
    @Override public int linkType() { return delegate.linkType(); }
    @Override public int fcsLength() { return delegate.fcsLength(); }
    @Override public int interfaceId() { return delegate.interfaceId(); }
    @Override public int sectionIndex() { return delegate.sectionIndex(); }
    @Override public MemorySegment data() { return delegate.data(); }
    @Override public MemorySegment mapping() { return delegate.mapping(); }
    @Override public long dataOffset() { return delegate.dataOffset(); }
    @Override public long recordOffset() { return delegate.recordOffset(); }
    @Override public String comment() { return delegate.comment(); }
    @Override public List<String> comments() { return delegate.comments(); }
    @Override public CaptureFormat format() { return delegate.format(); }
    @Override public List<CaptureProblem> problems() { return delegate.problems(); }
    @Override public CaptureStats stats() { return delegate.stats(); }
    @Override public void close() { delegate.close(); }
}
