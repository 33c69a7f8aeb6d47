package io.metaroce.capture;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * mergecap's core, for {@code metaroce merge} and the GUI's File > Merge: the inputs' frames in time order (a k-way
 * merge: each input read in its own order, the earliest next frame goes out, a tie to the input named last, as
 * mergecap's), or one input after the other. Memory is per input (its reader and one heap entry), never per frame.
 * Each input has read its first frame before any frame is written, so that {@link CaptureOutput.InterfaceMerge#ALL}
 * compares the interface lists the inputs start with, as mergecap compares the ones it finds at open.
 */
public final class CaptureMerge {
    /** How often (in frames) a merge looks whether its thread was interrupted (the GUI's window closed). */
    private static final int INTERRUPT_CHECK = 1 << 16;

    private CaptureMerge() {}

    /**
     * Writes the sources' frames to {@code out}, by time or ({@code concatenate}) each whole in the order given,
     * cut to {@code snapLength} bytes (0: as they are). The caller closes the sources and the output.
     *
     * @throws InterruptedIOException when the thread was interrupted (the frames so far are written)
     */
    public static void merge(List<PacketSource> sources, CaptureOutput out, boolean concatenate, int snapLength) throws IOException {
        int n = sources.size();
        CaptureOutput.Input[] ins = new CaptureOutput.Input[n];
        boolean[] has = new boolean[n];
        for (int i = 0; i < n; i++) {
            ins[i] = out.input(sources.get(i));
            has[i] = sources.get(i).next();
        }
        out.inputsRead(sources);
        if (concatenate) {
            long frames = 0;
            for (int i = 0; i < n; i++) {
                PacketSource s = sources.get(i);
                for (boolean more = has[i]; more; more = s.next()) {
                    out.copy(ins[i], s.timestampNanos(), snapLength);
                    if ((++frames & (INTERRUPT_CHECK - 1)) == 0) interrupted();
                }
            }
        } else {
            byTime(sources, ins, has, out, snapLength);
        }
    }

    /** The k-way merge: a heap of the inputs by their current frame's time (ties: the input named last). */
    private static void byTime(List<PacketSource> sources, CaptureOutput.Input[] ins, boolean[] has, CaptureOutput out,
                               int snapLength) throws IOException {
        int n = sources.size();
        final long[] head = new long[n];
        PriorityQueue<Integer> ready = new PriorityQueue<>(Math.max(1, n), new Comparator<Integer>() {
            @Override
            public int compare(Integer a, Integer b) {
                int c = Long.compare(head[a], head[b]);
                // mergecap's tie: its scan keeps the last input whose frame is not later, so the input named last wins.
                return c != 0 ? c : Integer.compare(b, a);
            }
        });
        for (int i = 0; i < n; i++) {
            if (has[i]) {
                head[i] = sources.get(i).timestampNanos();
                ready.add(i);
            }
        }
        long frames = 0;
        while (!ready.isEmpty()) {
            Integer i = ready.poll();
            PacketSource s = sources.get(i);
            out.copy(ins[i], head[i], snapLength);
            if (s.next()) {
                head[i] = s.timestampNanos();
                ready.add(i);
            }
            if ((++frames & (INTERRUPT_CHECK - 1)) == 0) interrupted();
        }
    }

    private static void interrupted() throws InterruptedIOException {
        if (Thread.currentThread().isInterrupted()) throw new InterruptedIOException("merge cancelled");
    }

    /** The inputs' section comments (pcapng shb_comment), each once, one per line; null when none has one. */
    public static String sectionComment(List<PacketSource> sources) {
        Set<String> comments = new LinkedHashSet<>();
        for (PacketSource s : sources) comments.addAll(s.stats().fileComments());
        return comments.isEmpty() ? null : String.join("\n", comments);
    }
}
