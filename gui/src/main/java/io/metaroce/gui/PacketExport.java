package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.capture.PcapngWriter;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Export Specified Packets: which frames (all, those displayed, the selected one, the marked ones, the selected
 * packet's flow) and writing them to a pcapng file with the capture module's writer, bytes, times, lengths and
 * comments as read. One interface per link type and FCS length met (nanosecond resolution).
 */
final class PacketExport {
    /** Wireshark's "Packet Range" choices (RANGE: the numbers typed, "1-10,15"). */
    enum Range { ALL, DISPLAYED, SELECTED, MARKED, FLOW, RANGE }

    /**
     * A range as chosen in a dialog: numbers are RANGE's text; displayedOnly keeps only the frames the filter shows
     * (Wireshark's Captured/Displayed columns, for the choices that are not already displayed frames);
     * removeIgnored: the frames Edit > Ignore Packet ignored, left out (Wireshark's "Remove ignored packets"), or null.
     */
    record Choice(Range range, String numbers, boolean displayedOnly, java.util.BitSet removeIgnored) {
        Choice(Range range) { this(range, "", false); }

        Choice(Range range, String numbers, boolean displayedOnly) { this(range, numbers, displayedOnly, null); }
    }

    private PacketExport() { }

    /**
     * A write's progress and its Cancel: the writers report the fraction of frames written (every
     * {@link #PULSE} frames) and stop with a {@link java.util.concurrent.CancellationException} once cancelled.
     */
    interface Progress {
        Progress NONE = new Progress() {
            @Override public void report(double fraction) { }

            @Override public boolean cancelled() { return false; }
        };

        void report(double fraction);

        boolean cancelled();

        /** Called for the i-th of n frames written: reports and checks Cancel every PULSE frames. */
        default void frame(int i, int n) {
            if ((i & (PULSE - 1)) != 0) return;
            if (cancelled()) throw new java.util.concurrent.CancellationException("cancelled");
            report((double) i / Math.max(1, n));
        }
    }

    /** Frames between two progress reports and Cancel checks (a power of two: some hundred microseconds of writing). */
    static final int PULSE = 4096;

    /** The frame numbers of a range, in capture order; empty when the range has none (no selection, no flow). */
    static int[] frames(GuiContext ctx, Range r) {
        OpenCapture c = ctx.capture();
        if (c == null) return new int[0];
        return frames(c, ctx.view(), ctx.selectedFrame(), r == Range.MARKED ? ctx.markedFrames() : null, ctx.analysis(), r);
    }

    /**
     * As above from values read on the UI thread, so that it can run elsewhere (a flow is a filter pass); marked:
     * the marked frames in capture order (read only for {@link Range#MARKED}).
     */
    static int[] frames(OpenCapture c, FrameView view, int selected, int[] marked, AnalysisSession s, Range r) {
        return switch (r) {
            case ALL -> FrameView.all(c.frames()).toArray();
            case DISPLAYED -> {
                int[] f = view.toArray();
                Arrays.sort(f);
                yield f;
            }
            case SELECTED -> selected == 0 ? new int[0] : new int[] {selected};
            case MARKED -> marked;
            case FLOW -> flowOf(c, s, selected);
            case RANGE -> new int[0];       // needs its numbers: frames(..., Choice)
        };
    }

    /** The frames of a chosen range, in capture order; a RANGE's numbers that do not parse: IllegalArgumentException. */
    static int[] frames(OpenCapture c, FrameView view, int selected, int[] marked, AnalysisSession s, Choice ch) {
        int[] f = ch.range() == Range.RANGE ? numbers(ch.numbers(), c.frames())
                : frames(c, view, selected, marked, s, ch.range());
        boolean displayed = ch.displayedOnly() && !view.isAll();
        java.util.BitSet ignored = ch.removeIgnored() == null || ch.removeIgnored().isEmpty() ? null : ch.removeIgnored();
        if (!displayed && ignored == null) return f;
        int n = 0;
        int[] kept = new int[f.length];
        for (int x : f) if ((!displayed || view.rowOf(x) >= 0) && (ignored == null || !ignored.get(x))) kept[n++] = x;
        return Arrays.copyOf(kept, n);
    }

    /**
     * Wireshark's range text: numbers and ranges separated by commas ({@code 1-10,15,20-}; an open end is the last
     * frame, an open start the first), each frame once, in capture order; numbers past the last frame are dropped,
     * and no text is no frame.
     */
    static int[] numbers(String text, int frames) {
        java.util.BitSet set = new java.util.BitSet(frames + 1);
        if (text == null) return new int[0];
        for (String part : text.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) continue;
            int dash = p.indexOf('-');
            int from, to;
            try {
                if (dash < 0) from = to = Integer.parseInt(p);
                else {
                    from = dash == 0 ? 1 : Integer.parseInt(p.substring(0, dash).strip());
                    to = dash == p.length() - 1 ? frames : Integer.parseInt(p.substring(dash + 1).strip());
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a packet range: \"" + p + "\" (e.g. 1-10,15)");
            }
            if (from < 1 || to < from) throw new IllegalArgumentException("not a packet range: \"" + p + "\" (e.g. 1-10,15)");
            if (from <= frames) set.set(from, Math.min(to, frames) + 1);
        }
        return set.stream().toArray();
    }

    /** The frames of the selected frame's QP flow (both directions are separate flows, as in analyze). */
    static int[] flowOf(OpenCapture c, AnalysisSession s, int frame) {
        String flow = flowId(c, s, frame);
        if (flow == null) return new int[0];
        try {
            DisplayFilter f = GuiContext.compile("analysis.flow == \"" + flow + "\"");
            int[] r = FrameFilter.run(c.index(), s, f, x -> { }, () -> false);
            return r == null ? new int[0] : r;
        } catch (FilterException e) {
            throw new IllegalStateException("flow filter for " + flow, e);
        }
    }

    /** The analysis.flow of a frame, or null (no analysis yet, no selection, not a RoCE frame). */
    static String flowId(OpenCapture c, AnalysisSession s, int frame) {
        if (s == null || frame == 0) return null;
        Dissection d = new FrameDecoder(c.index(), s).decode(frame);
        for (int i = 0; i < d.extra().size(); i++)
            if (d.extra().field(i).name().equals("analysis.flow")) return d.extra().stringValue(i);
        return null;
    }

    /**
     * Writes every frame of the index to a new pcapng file with the comments as edited (several per frame: an
     * opt_comment each), the bytes, times and lengths as read, and the file's interfaces (one per interface id and
     * link type met, with its name, description and snap length; the section's comment); returns the frames written.
     */
    static int writeAll(FrameIndex ix, PacketComments.State comments, io.metaroce.capture.CaptureStats stats, Path out)
            throws IOException {
        return writeAll(ix, comments, stats, out, Progress.NONE);
    }

    static int writeAll(FrameIndex ix, PacketComments.State comments, io.metaroce.capture.CaptureStats stats, Path out,
            Progress progress) throws IOException {
        Map<Long, Integer> interfaces = new HashMap<>();
        Map<Long, Integer> longest = new HashMap<>();
        for (int f = 1; f <= ix.size(); f++) longest.merge(interfaceKey(ix, f), ix.capturedLength(f), Math::max);
        String section = stats == null || stats.fileComments().isEmpty() ? null : stats.fileComments().getFirst();
        try (PcapngWriter w = new PcapngWriter(java.nio.channels.FileChannel.open(out, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.TRUNCATE_EXISTING, java.nio.file.StandardOpenOption.WRITE),
                java.nio.ByteOrder.LITTLE_ENDIAN, PcapngWriter.DEFAULT_APPLICATION, section)) {
            for (int f = 1; f <= ix.size(); f++) {
                progress.frame(f, ix.size());
                long key = interfaceKey(ix, f);
                Integer id = interfaces.get(key);
                if (id == null) {
                    io.metaroce.capture.CaptureInterface read = null;
                    if (stats != null)
                        for (var i : stats.interfaces())
                            if (i.interfaceId() == ix.interfaceId(f) && i.linkType() == ix.linkType(f)) {
                                read = i;
                                break;
                            }
                    // The file's snap length, unless a frame is longer (a damaged file): the writer would cut it.
                    int snap = read == null || read.snapLength() < longest.get(key) || read.snapLength() > Integer.MAX_VALUE ? 0 : (int) read.snapLength();
                    id = w.addInterface(ix.linkType(f), snap, read == null ? null : read.name(),
                            read == null ? null : read.description(), null, ix.fcsLength(f));
                    interfaces.put(key, id);
                }
                w.writeWithComments(id, ix.timeNanos(f), ix.data(f), 0, ix.capturedLength(f), ix.originalLength(f), comments.of(ix, f));
            }
        }
        return ix.size();
    }

    /**
     * Writes every frame of the index to a new pcap file (nanosecond timestamps; no comments: pcap cannot hold them);
     * IllegalArgumentException when the frames have more than one link type (pcap holds one).
     */
    static int writeAllPcap(FrameIndex ix, Path out) throws IOException { return writeAllPcap(ix, out, Progress.NONE); }

    static int writeAllPcap(FrameIndex ix, Path out, Progress progress) throws IOException {
        if (ix.size() == 0) throw new IllegalArgumentException("there are no packets to save");
        int linkType = ix.linkType(1), fcs = ix.fcsLength(1), longest = 0;
        for (int f = 1; f <= ix.size(); f++) {
            if (ix.linkType(f) != linkType || ix.fcsLength(f) != fcs)
                throw new IllegalArgumentException("the packets have several link types: pcap holds one (save as pcapng)");
            longest = Math.max(longest, ix.capturedLength(f));
        }
        int field;
        try {
            field = fcs > 0 ? io.metaroce.capture.LinkTypes.pcapLinkTypeWithFcs(linkType, fcs) : linkType;
        } catch (IllegalArgumentException e) {
            field = linkType;
        }
        try (var w = io.metaroce.capture.PcapWriter.create(out, io.metaroce.capture.CaptureFormat.PCAP_NS, field,
                Math.max(262_144, longest))) {
            for (int f = 1; f <= ix.size(); f++) {
                progress.frame(f, ix.size());
                w.write(ix.timeNanos(f), ix.data(f), 0, ix.capturedLength(f), ix.originalLength(f));
            }
        }
        return ix.size();
    }

    private static long interfaceKey(FrameIndex ix, int f) {
        return ((long) ix.interfaceId(f) << 40) | ((long) ix.linkType(f) << 8) | (ix.fcsLength(f) & 0xFF);
    }

    /** Writes the frames to a new pcapng file; returns the number written. */
    static int write(FrameIndex ix, int[] frames, Path out) throws IOException { return write(ix, frames, out, Progress.NONE); }

    static int write(FrameIndex ix, int[] frames, Path out, Progress progress) throws IOException {
        try (PcapngWriter w = PcapngWriter.create(out)) {
            Map<Long, Integer> interfaces = new HashMap<>();
            for (int i = 0; i < frames.length; i++) {
                progress.frame(i, frames.length);
                int f = frames[i];
                long key = ((long) ix.linkType(f) << 8) | (ix.fcsLength(f) & 0xFF);
                Integer id = interfaces.get(key);
                if (id == null) {
                    id = w.addInterface(ix.linkType(f), 0, null, ix.fcsLength(f));
                    interfaces.put(key, id);
                }
                var data = ix.data(f);
                w.write(id, ix.timeNanos(f), data, 0, ix.capturedLength(f), ix.originalLength(f), ix.comment(f));
            }
        }
        return frames.length;
    }
}
