package io.metaroce.analysis;

import io.metaroce.capture.CaptureException;
import io.metaroce.dissector.DissectorConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --tap auto} on a file, resolved from the pass's own first frames: the engine needs the tap before its first
 * frame, so the facts of the first frames are held on the analysis thread (the objects themselves: the pass gives
 * each held object's slot a fresh one, so no field is copied) until {@link Analyzer#PRESCAN_FRAMES} RoCE frames, or
 * fewer that already decide it ({@link TapResolver#decided()}), or the end of the capture, resolve it; then they go
 * to the engine in capture order. The same frames through the same {@link TapResolver} as
 * {@link Analyzer#resolveTap}, so the same tap, without decoding those frames twice: the separate pre-read ran on one
 * thread while the JIT was still cold and cost a sixth of the whole analysis of a 1 M-frame capture.
 *
 * <p>Memory stays bounded when RoCE frames are rare (a capture of mostly other traffic): past {@link #MAX_HELD}
 * frames the tap is resolved by {@link Analyzer#resolveTap}, which reads the file's first frames again, as
 * before.
 */
final class TapHold {
    /** Frames held at most (a few hundred bytes each). */
    static final int MAX_HELD = 2 * Analyzer.PRESCAN_FRAMES;

    private final Path file;
    private final DissectorConfig dc;
    private final TapResolver resolver = new TapResolver();
    private final List<FrameFacts> held = new ArrayList<>();
    private TapChoice choice;

    TapHold(Path file, DissectorConfig dc) {
        this.file = file;
        this.dc = dc;
    }

    /** True once the tap is known: {@link #choice()} and {@link #drain()} may then be called. */
    boolean resolved() { return choice != null; }

    /**
     * Holds f itself, which the caller must no longer reuse (it takes a fresh object for its next frame), and
     * resolves the tap when it has seen enough.
     */
    void add(FrameFacts f) {
        held.add(f);
        resolver.add(f);
        if (resolver.frames() >= Analyzer.PRESCAN_FRAMES || resolver.decided()) choice = resolver.resolve();
        else if (held.size() >= MAX_HELD) choice = reread();
    }

    /** The end of the capture came first: the tap from what was seen (as the pre-read would have stopped there too). */
    void end() {
        if (choice == null) choice = resolver.resolve();
    }

    TapChoice choice() { return choice; }

    /** The held frames in capture order, handed over once. */
    List<FrameFacts> drain() {
        List<FrameFacts> h = new ArrayList<>(held);
        held.clear();
        return h;
    }

    private TapChoice reread() {
        try {
            return Analyzer.resolveTap(file, dc);
        } catch (CaptureException e) {
            // The file was read a moment ago by this very pass; failing now means it went away under us.
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
