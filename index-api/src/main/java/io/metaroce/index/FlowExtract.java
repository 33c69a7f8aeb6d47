package io.metaroce.index;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapngWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The packets of some indexed flows, read from their source captures at the offsets the index stored, written to
 * one pcapng: one interface per source capture (and link type), each packet commented with its flow and source
 * frame. A source that moved or changed since it was indexed (size or SHA-256 differ) is reported and left out,
 * never misread. {@code metaroce extract} and the GUI's Flow Search write through this one entry point, so both
 * write the same bytes for the same flows.
 */
public final class FlowExtract {
    private FlowExtract() { }

    /**
     * One flow to extract: what the index needs to find its packets (a {@link FlowDocument}'s capture hash and
     * root id) and the flow id the packet comments name.
     */
    public record Flow(String captureHash, String rootId, String name) {
        public static Flow of(FlowDocument d) {
            return new Flow(d.getString(FlowSchema.CAPTURE_HASH), d.getString(FlowSchema.ROOT_ID), d.getString(FlowSchema.FLOW));
        }
    }

    /**
     * What was written.
     *
     * @param flows the flows whose packets were written
     * @param packets the packets written
     * @param problems why some flows were left out (a source gone, changed, or not as indexed), in the order met;
     *     empty when every flow was written
     */
    public record Result(long flows, long packets, List<String> problems) {
        public Result { problems = List.copyOf(problems); }
    }

    /** Where one wanted packet goes: its flow and its frame number in the source. */
    private record Wanted(String flow, long frame) {}

    /**
     * Writes the packets of the flows to output (created or replaced; written also when some flows are left out).
     * The sources are read in the order their first flow is given, each once; within a source the packets keep
     * capture order.
     *
     * @throws IndexFormatException when the index cannot be read
     */
    public static Result write(FlowIndex index, List<Flow> flows, Path output) throws IOException {
        List<String> problems = new ArrayList<>();
        long flowsWritten = 0, packets = 0;
        // By capture, in the order the captures first appear, so each source is read once.
        Map<String, List<Flow>> byCapture = new LinkedHashMap<>();
        for (Flow f : flows) byCapture.computeIfAbsent(f.captureHash(), k -> new ArrayList<>()).add(f);
        try (PcapngWriter w = new PcapngWriter(new Named(output), java.nio.ByteOrder.LITTLE_ENDIAN, PcapngWriter.DEFAULT_APPLICATION, null)) {
            for (var e : byCapture.entrySet()) {
                IndexedCapture cap = index.capture(e.getKey());
                String problem = cap == null ? "its capture is no longer indexed" : CaptureIdentity.changedSince(cap);
                if (problem != null) {
                    problems.add((cap == null ? e.getKey() : cap.path()) + ": " + problem + "; its " + e.getValue().size()
                            + " flows were not extracted");
                    continue;
                }
                TreeMap<Long, Wanted> wanted = new TreeMap<>();
                for (Flow f : e.getValue()) {
                    for (FlowDocument part : index.parts(f.rootId())) {
                        long[] offsets = part.offsets(), frames = part.frames();
                        for (int i = 0; i < offsets.length; i++) wanted.put(offsets[i], new Wanted(f.name(), frames[i]));
                    }
                }
                long written = copy(cap, wanted, w, problems);
                if (written < 0) continue;
                flowsWritten += e.getValue().size();
                packets += written;
            }
        }
        return new Result(flowsWritten, packets, problems);
    }

    /**
     * Copies the records at the wanted offsets, in capture order, with positional reads ({@link RecordsAt}); a
     * capture whose layout needs it is read front to back instead ({@link #copyReadingThrough}). Returns the
     * packets written, or -1 after adding the problem.
     */
    private static long copy(IndexedCapture cap, TreeMap<Long, Wanted> wanted, PcapngWriter w, List<String> problems) throws IOException {
        if (wanted.isEmpty()) return 0;
        long[] offsets = new long[wanted.size()];
        Wanted[] what = new Wanted[wanted.size()];
        int k = 0;
        for (var e : wanted.entrySet()) {
            offsets[k] = e.getKey();
            what[k++] = e.getValue();
        }
        Interfaces interfaces = new Interfaces(w, cap);
        try (RecordsAt records = RecordsAt.open(Path.of(cap.path()))) {
            if (records != null) {
                String problem = records.read(offsets, CHUNK_BYTES, (i, src) -> interfaces.write(src, what[i]));
                if (problem == null) return offsets.length;
                if (!problem.equals(RecordsAt.NEEDS_FULL_READ)) {
                    problems.add(cap.path() + ": " + problem + "; the capture is not as indexed");
                    return -1;
                }
            }
        }
        return copyReadingThrough(cap, wanted, interfaces, problems);
    }

    /**
     * The output file, whose write failures name it. WHY: a full disk (extract -w /dev/full) was the bare "No space
     * left on device", which could as well have been a source capture's read.
     */
    private static final class Named implements java.nio.channels.WritableByteChannel {
        private final Path file;
        private final java.nio.channels.FileChannel ch;

        Named(Path file) throws IOException {
            this.file = file;
            this.ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.TRUNCATE_EXISTING, java.nio.file.StandardOpenOption.WRITE);
        }

        private IOException named(IOException e) {
            return e instanceof java.nio.file.FileSystemException ? e : new java.nio.file.FileSystemException(file.toString(), null, e.getMessage());
        }

        @Override
        public int write(java.nio.ByteBuffer src) throws IOException {
            try {
                return ch.write(src);
            } catch (IOException e) {
                throw named(e);
            }
        }

        @Override
        public boolean isOpen() { return ch.isOpen(); }

        @Override
        public void close() throws IOException {
            try {
                ch.close();
            } catch (IOException e) {
                throw named(e);
            }
        }
    }

    /** Records are gathered this many bytes at a time: a flow of any length is extracted in bounded memory. */
    private static final int CHUNK_BYTES = 8 << 20;

    /** The output's interfaces, one per source capture and link type (and FCS length). */
    private static final class Interfaces {
        final Map<Long, Integer> ids = new HashMap<>(); // (link type << 8 | fcs + 1) -> interface id
        final PcapngWriter w;
        final IndexedCapture cap;
        final String name;

        Interfaces(PcapngWriter w, IndexedCapture cap) {
            this.w = w;
            this.cap = cap;
            this.name = Path.of(cap.path()).getFileName().toString();
        }

        void write(PacketSource src, Wanted x) throws IOException {
            long key = ((long) src.linkType() << 8) | (src.fcsLength() + 1);
            Integer id = ids.get(key);
            if (id == null) {
                id = w.addInterface(src.linkType(), 0, name, cap.path(), null, src.fcsLength() >= 0 ? src.fcsLength() : -1);
                ids.put(key, id);
            }
            w.write(id, src.timestampNanos(), src.data(), 0, src.capturedLength(), src.originalLength(),
                    "flow " + x.flow() + ", frame " + x.frame() + " of " + name);
        }
    }

    /**
     * Copies the records at the wanted offsets reading the source front to back up to the last one (the reader
     * resolves each record's interface, link type and time resolution); a record found at a wanted offset must
     * be the indexed frame, else the capture is reported.
     */
    private static long copyReadingThrough(IndexedCapture cap, TreeMap<Long, Wanted> wanted, Interfaces out, List<String> problems)
            throws IOException {
        long last = wanted.lastKey(), written = 0;
        try (PacketSource src = CaptureFiles.open(Path.of(cap.path()))) {
            while (src.next()) {
                long at = src.recordOffset();
                if (at > last) break;
                Wanted x = wanted.get(at);
                if (x == null) continue;
                if (src.frameNumber() != x.frame()) {
                    problems.add(cap.path() + ": the record at byte " + at + " is frame " + src.frameNumber()
                            + ", indexed as frame " + x.frame() + "; the capture is not as indexed");
                    return -1;
                }
                out.write(src, x);
                written++;
            }
        } catch (CaptureException e) {
            problems.add(e.getMessage());
            return -1;
        }
        if (written != wanted.size()) {
            problems.add(cap.path() + ": " + (wanted.size() - written) + " indexed packets were not found at their offsets; the capture is not as indexed");
            return -1;
        }
        return written;
    }
}
