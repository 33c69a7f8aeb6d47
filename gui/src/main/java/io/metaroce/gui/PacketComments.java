package io.metaroce.gui;

import io.metaroce.dissector.FrameIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The packet comments of the open capture (Edit > Packet Comments): a frame's comments are the file's (the pcapng
 * opt_comments the capture module read, several per frame allowed) until the user edits them, then the edited list replaces them. Only the
 * edited frames are held (memory grows with the comments, not with the frames), in an immutable state replaced at
 * each edit, so that a display filter running on other threads reads one consistent state without locks. Edited on
 * the JavaFX thread only ({@link GuiContext} wraps the edits and counts them for the views).
 */
public final class PacketComments {
    /**
     * edited: frame number to its comments (an empty list: all deleted); fileDropped: Delete All Packet Comments
     * dropped every comment the file had.
     */
    public record State(Map<Integer, List<String>> edited, boolean fileDropped) {
        public static final State NONE = new State(Map.of(), false);

        /** The comments of a frame, in order (empty for none). */
        List<String> of(FrameIndex ix, int frame) {
            List<String> e = edited.get(frame);
            if (e != null) return e;
            if (fileDropped || ix == null || frame < 1 || frame > ix.size()) return List.of();
            return ix.comments(frame);
        }

        /** The frames that have a comment, ascending. */
        int[] frames(FrameIndex ix) {
            TreeSet<Integer> set = new TreeSet<>();
            if (!fileDropped && ix != null) for (int f : ix.commentedFrames()) set.add(f);
            for (Map.Entry<Integer, List<String>> e : edited.entrySet()) {
                if (e.getValue().isEmpty()) set.remove(e.getKey());
                else set.add(e.getKey());
            }
            int[] out = new int[set.size()];
            int n = 0;
            for (int f : set) out[n++] = f;
            return out;
        }

        boolean isEdited() { return fileDropped || !edited.isEmpty(); }
    }

    private volatile State state = State.NONE;

    /** The current state (a filter thread keeps the one it started with). */
    State state() { return state; }

    List<String> of(FrameIndex ix, int frame) { return state.of(ix, frame); }

    /** Adds a comment after the frame's others (Add New Comment...). */
    void add(FrameIndex ix, int frame, String text) {
        List<String> l = new ArrayList<>(of(ix, frame));
        l.add(text);
        set(frame, l);
    }

    /** Replaces the frame's comment at index i. */
    void edit(FrameIndex ix, int frame, int i, String text) {
        List<String> l = new ArrayList<>(of(ix, frame));
        if (i < 0 || i >= l.size()) return;
        l.set(i, text);
        set(frame, l);
    }

    /** Deletes the frame's comment at index i. */
    void delete(FrameIndex ix, int frame, int i) {
        List<String> l = new ArrayList<>(of(ix, frame));
        if (i < 0 || i >= l.size()) return;
        l.remove(i);
        set(frame, l);
    }

    /** Deletes every comment of these frames. */
    void deleteAll(FrameIndex ix, int[] frames) {
        Map<Integer, List<String>> m = new HashMap<>(state.edited());
        for (int f : frames) if (!of(ix, f).isEmpty()) m.put(f, List.of());
        state = new State(Map.copyOf(m), state.fileDropped());
    }

    /** Deletes every comment of the capture. */
    void deleteAll() { state = new State(Map.of(), true); }

    /** Puts back a state taken earlier (the capture opened again by Decode As keeps its comments). */
    void restore(State s) { state = s; }

    /** Forgets every edit: the file's comments are the comments again (a capture opened or saved). */
    void clear() { state = State.NONE; }

    private void set(int frame, List<String> comments) {
        Map<Integer, List<String>> m = new HashMap<>(state.edited());
        m.put(frame, List.copyOf(comments));
        state = new State(Map.copyOf(m), state.fileDropped());
    }
}
