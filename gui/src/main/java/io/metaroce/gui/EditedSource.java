package io.metaroce.gui;

import io.metaroce.capture.ForwardingPacketSource;
import io.metaroce.capture.PacketSource;
import java.util.BitSet;

/**
 * A capture file's frames as the GUI's analysis reads them after Edit > Ignore Packet and Edit > Time Shift: the
 * ignored frames left out (as Wireshark does not dissect them), the others with their shifted times, and every
 * frame with its number in the file (the analysis names frames by {@link #frameNumber()}, so verdicts, events and
 * links stay on the packet list's rows). Used only when there is something to leave out or shift: the plain file
 * is read otherwise. {@link #current()} is null, so that the analysis reads the time through
 * {@link #timestampNanos()}; the frame's bytes are the file's (its read-ahead window and mapping).
 */
final class EditedSource extends ForwardingPacketSource {
    private final BitSet ignored;
    private final TimeShift shift;

    /** @param ignored frame numbers to leave out (not changed while this is read); shift null for the file's times */
    EditedSource(PacketSource file, BitSet ignored, TimeShift shift) {
        super(file);
        this.ignored = ignored;
        this.shift = shift;
    }

    @Override
    public boolean next() {
        while (delegate.next()) {
            long n = delegate.frameNumber();
            if (n > Integer.MAX_VALUE || !ignored.get((int) n)) return true;
        }
        return false;
    }

    @Override
    public long timestampNanos() {
        long t = delegate.timestampNanos();
        return shift == null ? t : shift.shift(t);
    }

    // The file's read-ahead window too (ForwardingPacketSource leaves it out for its live-like wrappers): the hot loop
    // reads the frame there, as it would from the plain file.
    @Override public byte[] frameBuffer() { return delegate.frameBuffer(); }
    @Override public int frameBufferOffset() { return delegate.frameBufferOffset(); }
}
