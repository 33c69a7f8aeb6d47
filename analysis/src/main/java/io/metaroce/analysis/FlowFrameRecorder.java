package io.metaroce.analysis;

import java.util.Arrays;

/**
 * Records, per flow index, the frame numbers and file offsets of the flow's frames during the pass (only when a
 * caller asked for them: "follow this QP", the flow index). Growable primitive arrays, doubled as needed.
 */
final class FlowFrameRecorder {
    private long[][] frames = new long[16][], offsets = new long[16][];
    private int[] sizes = new int[16];

    void add(int flow, long frame, long offset) {
        if (flow >= sizes.length) {
            int n = Math.max(flow + 1, sizes.length * 2);
            frames = Arrays.copyOf(frames, n);
            offsets = Arrays.copyOf(offsets, n);
            sizes = Arrays.copyOf(sizes, n);
        }
        long[] fr = frames[flow];
        int s = sizes[flow];
        if (fr == null) {
            fr = frames[flow] = new long[16];
            offsets[flow] = new long[16];
        } else if (s == fr.length) {
            fr = frames[flow] = Arrays.copyOf(fr, s * 2);
            offsets[flow] = Arrays.copyOf(offsets[flow], s * 2);
        }
        fr[s] = frame;
        offsets[flow][s] = offset;
        sizes[flow] = s + 1;
    }

    /** Forgets a flow's frames (an evicted flow: its arrays were handed over, or are not wanted). */
    void release(int flow) {
        if (flow < 0 || flow >= sizes.length) return;
        frames[flow] = null;
        offsets[flow] = null;
        sizes[flow] = 0;
    }

    /** The frames of a flow (the arrays are handed over: call once per flow, after the pass or at its eviction). */
    FrameList of(int flow) {
        if (flow < 0 || flow >= sizes.length || frames[flow] == null) return FrameList.EMPTY;
        return new FrameList(frames[flow], offsets[flow], sizes[flow]);
    }
}
