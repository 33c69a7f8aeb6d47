package io.metaroce.gui;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import java.lang.foreign.MemorySegment;
import java.util.BitSet;
import java.util.List;

/**
 * A capture file's frames as the GUI's analysis reads them after Edit > Ignore Packet and Edit > Time Shift: the
 * ignored frames left out (as Wireshark does not dissect them), the others with their shifted times, and every
 * frame with its number in the file (the analysis names frames by {@link #frameNumber()}, so verdicts, events and
 * links stay on the packet list's rows). Used only when there is something to leave out or shift: the plain file
 * is read otherwise. {@link #current()} is null, so that the analysis reads the time through
 * {@link #timestampNanos()}; the frame's bytes are the file's (its read-ahead window and mapping).
 */
final class EditedSource implements PacketSource {
    private final PacketSource file;
    private final BitSet ignored;
    private final TimeShift shift;

    /** @param ignored frame numbers to leave out (not changed while this is read); shift null for the file's times */
    EditedSource(PacketSource file, BitSet ignored, TimeShift shift) {
        this.file = file;
        this.ignored = ignored;
        this.shift = shift;
    }

    @Override
    public boolean next() {
        while (file.next()) {
            long n = file.frameNumber();
            if (n > Integer.MAX_VALUE || !ignored.get((int) n)) return true;
        }
        return false;
    }

    @Override public long frameNumber() { return file.frameNumber(); }

    @Override
    public long timestampNanos() {
        long t = file.timestampNanos();
        return shift == null ? t : shift.shift(t);
    }

    @Override public int capturedLength() { return file.capturedLength(); }
    @Override public long originalLength() { return file.originalLength(); }
    @Override public int linkType() { return file.linkType(); }
    @Override public int fcsLength() { return file.fcsLength(); }
    @Override public int interfaceId() { return file.interfaceId(); }
    @Override public int sectionIndex() { return file.sectionIndex(); }
    @Override public MemorySegment data() { return file.data(); }
    @Override public byte[] frameBuffer() { return file.frameBuffer(); }
    @Override public int frameBufferOffset() { return file.frameBufferOffset(); }
    @Override public MemorySegment mapping() { return file.mapping(); }
    @Override public long dataOffset() { return file.dataOffset(); }
    @Override public long recordOffset() { return file.recordOffset(); }
    @Override public String comment() { return file.comment(); }
    @Override public List<String> comments() { return file.comments(); }
    @Override public CaptureFormat format() { return file.format(); }
    @Override public List<CaptureProblem> problems() { return file.problems(); }
    @Override public CaptureStats stats() { return file.stats(); }
    @Override public void close() { file.close(); }
}
