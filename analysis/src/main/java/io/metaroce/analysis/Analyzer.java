package io.metaroce.analysis;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Shortcuts over {@link AnalysisSession} for one-shot callers, and the tap resolution shared by the analysis
 * and the validator.
 */
public final class Analyzer {
    static final int PRESCAN_FRAMES = 20_000;

    private Analyzer() {}

    /**
     * Analyzes a capture file (an {@link AnalysisSession} without progress or cancellation).
     *
     * @param recordVerdicts keep per-frame verdicts (see {@link AnalysisSession.Options#verdicts})
     * @param listener receives events in frame order, or null
     */
    public static AnalysisResult analyze(Path file, AnalysisSettings settings, boolean recordVerdicts,
                                         AnalysisEngine.EventListener listener) throws CaptureException {
        return analyze(file, settings, recordVerdicts, listener, null);
    }

    /**
     * As {@link #analyze(Path, AnalysisSettings, boolean, AnalysisEngine.EventListener)}, reporting progress.
     *
     * @param progress receives (bytes read, file size) every few thousand frames, on the reading thread; or null
     */
    public static AnalysisResult analyze(Path file, AnalysisSettings settings, boolean recordVerdicts,
                                         AnalysisEngine.EventListener listener, Progress progress) throws CaptureException {
        AnalysisSession s = new AnalysisSession(settings, new AnalysisSession.Options(recordVerdicts, false, false));
        if (listener != null) s.onEvent(listener);
        if (progress != null) s.onProgress((position, total, frames) -> progress.progress(position, total));
        return s.run(file);
    }

    /** Progress of a pass over a file: bytes read of the file's size. */
    public interface Progress {
        void progress(long bytesRead, long fileSize);
    }

    /** The per-frame field provider for a capture file (runs the analysis pass, recording verdicts). */
    public static AnalysisFrameFields frameFields(Path file, AnalysisSettings settings) throws CaptureException {
        AnalysisSession s = new AnalysisSession(settings, new AnalysisSession.Options(true, false, false));
        s.run(file);
        return s.frameFields();
    }

    /**
     * Resolves {@code --tap auto} from the first RoCE frames of a capture (spec §11): the address in every frame,
     * else for a single host pair the host whose packets carry an initial TTL, else a mirror. Shared by the
     * analysis and the validator, so both always judge a capture from the same tap.
     */
    public static TapChoice resolveTap(Path file, DissectorConfig dc) throws CaptureException {
        try (PacketSource src = CaptureFiles.open(file)) {
            return resolveTap(src, dc);
        }
    }

    /**
     * As {@link #resolveTap(Path, DissectorConfig)}, over the file mapping of a source the caller has opened for
     * its pass and not yet read ({@code pass}): a second reader over the same mapping, so the file is neither
     * opened nor mapped twice. The pass's own source stays where it is (it has no rewind). Before, validate's
     * pre-read opened the file itself: it took the capture FrontDoor had opened ahead (its pager had mapped the
     * first 96 MiB in during start-up), read 20,000 frames, unmapped it all on the decoding thread, and the pass
     * then opened, mapped and paged the file in from scratch. A source without a mapping opens the file.
     */
    static TapChoice resolveTap(PacketSource pass, Path file, DissectorConfig dc) throws CaptureException {
        TapChoice ahead = TapAhead.take(pass, file, dc);
        return ahead != null ? ahead : resolveTapOver(pass, file, dc);
    }

    /**
     * The pre-read of {@link #resolveTap(PacketSource, Path, DissectorConfig)} for file, to run on the thread that
     * opens it ahead ({@link io.metaroce.capture.CaptureFiles#prefetch(Path, java.util.function.Consumer)}): the pass
     * over the source that prefetch opened takes its choice instead of reading the first frames itself ({@link
     * TapAhead}). dc: the decoder's configuration the pass will have; with another, the pass reads ahead itself.
     */
    public static java.util.function.Consumer<PacketSource> tapAhead(Path file, DissectorConfig dc) {
        return TapAhead.of(file, dc);
    }

    /** {@link #resolveTap(PacketSource, Path, DissectorConfig)} without a choice made ahead. */
    static TapChoice resolveTapOver(PacketSource pass, Path file, DissectorConfig dc) throws CaptureException {
        MemorySegment map = pass.mapping();
        if (map == null) return resolveTap(file, dc);
        // Read through read(2) like the pass, not copied out of the mapping (CaptureFiles.open(Path, MemorySegment)).
        try (PacketSource src = CaptureFiles.open(file, map)) {
            return resolveTap(src, dc);
        }
    }

    /** The pre-read over a source the caller opened and closes, from where it stands (same-package tests). */
    static TapChoice resolveTap(PacketSource src, DissectorConfig dc) {
        TapResolver r = new TapResolver();
        Dissector dis = new Dissector(dc.withPorts(dc.roceUdpPorts()));
        Dissection d = new Dissection();
        FrameFacts f = new FrameFacts();
        FastFacts fast = new FastFacts(dc);
        while (r.frames() < PRESCAN_FRAMES && !r.decided() && src.next()) prescan(src, dis, d, fast, f, r);
        return r.resolve();
    }

    /**
     * One frame of the pre-read. Its own method, not the loop's body: the loop is one call of 20,000 frames, so
     * without on-stack replacement (the launcher's {@code validate}) its body, six calls on the source per frame,
     * ran interpreted to the end; a method called per frame is compiled within a few hundred frames. The common
     * frame takes {@link FastFacts} (the same facts, FastFactsTest), as the pass that follows does: the pre-read
     * then warms the pass's own decoder instead of compiling the dissector for a few thousand frames. It takes the
     * pass's own entry, {@link FastFacts#fill(FrameFacts, PacketSource)}, which reads the frame in the reader's
     * window: before, it sliced the mapping ({@code src.data()}, an object and a chain of calls per frame) and
     * copied the headers out of the slice, a path the pass never takes, so the pass's entry and the reader's
     * {@code current()} were still interpreted when its first frames came. This pre-read runs on the main thread
     * before validate's pass starts (serial, mostly interpreted): its CPU was 6 of 8 interleaved runs lower, by a
     * median of 8 ms (docs/benchmarks.md, helper val, sixteenth session).
     */
    private static void prescan(PacketSource src, Dissector dis, Dissection d, FastFacts fast, FrameFacts f, TapResolver r) {
        if (!fast.fill(f, src)) {
            dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                    src.fcsLength(), d);
            f.from(d);
        }
        r.add(f);
    }
}
