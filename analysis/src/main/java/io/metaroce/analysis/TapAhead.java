package io.metaroce.analysis;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.DissectorConfig;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The pre-read of {@code --tap auto} that a pass with frame stages (validate) needs before its first frame, done ahead
 * on the thread that opens the capture ahead ({@link io.metaroce.capture.CaptureFiles#prefetch(Path, Consumer)}),
 * while the main thread sets the command and the rules up; the pass that opens the same file then takes the choice
 * instead of reading the first frames itself ({@link Analyzer#resolveTap(PacketSource, Path, DissectorConfig)}).
 * Why: that pre-read (20,000 RoCE frames, 14.6 MB of the 1 M-frame capture, still mostly interpreted) was 26-45 ms of
 * the main thread's CPU between the set-up and the pass, serial, and the set-up before it (the command, the
 * settings, the rule engine's tables) another 35-40 ms during which the second core had little to do
 * (docs/benchmarks.md, helper vdec, eighteenth session).
 *
 * <p>The choice is the same function of the file and the decoder's configuration as the pre-read the pass would make
 * (the same reader over the same mapping, the same {@link TapResolver}); the pass takes it only for the very source
 * the prefetch opened (so the same file, opened once) and the same RoCE ports and ICRC setting, else it reads ahead
 * itself as before. One at a time, taken once.
 */
final class TapAhead implements Consumer<PacketSource> {
    /** The pending one, until a pass takes it or another replaces it. */
    private static volatile TapAhead pending;

    private final Path file;
    private final Set<Integer> ports;
    private final boolean checkIcrc;
    private final DissectorConfig dc;
    /** Written on the prefetch thread, read by the pass after its open joined that thread. */
    private PacketSource source;
    private TapChoice choice;

    private TapAhead(Path file, DissectorConfig dc) {
        this.file = file;
        this.dc = dc;
        this.ports = dc.roceUdpPorts();
        this.checkIcrc = dc.checkIcrc();
    }

    /** A pre-read of file's tap with dc, to run on the prefetch thread, registered for the pass to take. */
    static TapAhead of(Path file, DissectorConfig dc) {
        TapAhead a = new TapAhead(file, dc);
        pending = a;
        return a;
    }

    /** The one pending (tests). */
    static TapAhead pendingForTests() { return pending; }

    /** Drops the pending one (tests). */
    static void clearForTests() { pending = null; }

    @Override
    public void accept(PacketSource src) {
        // Only over the source's mapping: without one the pre-read would open the file, and that open would wait for
        // this very thread (the prefetch is not taken yet).
        if (src.mapping() == null) return;
        try {
            choice = Analyzer.resolveTapOver(src, file, dc);
            source = src;
        } catch (CaptureException e) {
            // The pass's own pre-read reports nothing either; it reads again and meets the same.
        }
    }

    /**
     * The choice made ahead for the pass that reads pass (the source the prefetch opened) of file with dc, or null
     * (none pending, another file or source, other ports, not done): then the pass reads ahead itself.
     */
    static TapChoice take(PacketSource pass, Path file, DissectorConfig dc) {
        TapAhead a = pending;
        // source is set only after the choice, on the prefetch thread; the pass's source came out of the open that
        // joined that thread, so a source equal to it means the choice is there and visible.
        if (a == null || a.source != pass || !a.file.equals(file) || a.checkIcrc != dc.checkIcrc()
                || !a.ports.equals(dc.roceUdpPorts())) return null;
        pending = null;
        return a.choice;
    }
}
