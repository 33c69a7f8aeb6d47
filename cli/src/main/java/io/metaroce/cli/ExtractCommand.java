package io.metaroce.cli;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PcapngWriter;
import io.metaroce.index.CaptureIdentity;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.QuerySyntaxException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce extract --index DIR 'QUERY' -w out.pcapng}: the packets of the matching flows, read from their
 * source captures at the offsets the index stored, into one pcapng: one interface per source capture (and link
 * type), each packet commented with its flow and source frame. A source that moved or changed since it was
 * indexed (size or content hash differ) is reported and left out, never misread.
 */
@Command(name = "extract", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Write the packets of the flows matching a query to one pcapng, read from the source captures.",
        footer = {"", "Examples:", "  metaroce extract --index flows.idx 'naks:>0 AND dest_qp:0x000201' -w naks.pcapng",
                "  metaroce analyze -r naks.pcapng"})
public final class ExtractCommand implements Callable<Integer> {
    @Spec(Spec.Target.SELF)
    CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Mixin
    IndexBackend backend;

    @Parameters(paramLabel = "QUERY", index = "0", description = "the flows to extract (the search query language)")
    String query;

    @Option(names = {"-w", "--write"}, paramLabel = "FILE", required = true, description = "the pcapng to write")
    Path output;

    @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "at most N flows (default: every match)")
    Integer limit;

    /** Where one wanted packet goes: its flow and its frame number in the source. */
    private record Wanted(String flow, long frame) {}

    @Override
    public Integer call() throws IOException {
        PrintStream err = System.err;
        FlowQuery q;
        try {
            q = FlowQueryParser.parse(query);
        } catch (QuerySyntaxException e) {
            err.println("metaroce extract: query: " + e.getMessage());
            return 2;
        }
        if (limit != null && limit < 0) throw new ParameterException(spec.commandLine(), "--limit must not be negative");
        int status = 0;
        long flows = 0, packets = 0;
        try (FlowIndex index = backend.open(false)) {
            long total = index.search(q, FlowSort.DEFAULT, 0).total();
            int n = (int) Math.min(limit != null ? limit : Integer.MAX_VALUE, total);
            // By capture, in the order the captures first appear, so each source is read once.
            Map<String, List<FlowDocument>> byCapture = new LinkedHashMap<>();
            for (FlowDocument d : index.search(q, FlowSort.DEFAULT, n).flows())
                byCapture.computeIfAbsent(d.getString(FlowSchema.CAPTURE_HASH), k -> new java.util.ArrayList<>()).add(d);
            try (PcapngWriter w = PcapngWriter.create(output)) {
                for (var e : byCapture.entrySet()) {
                    IndexedCapture cap = index.capture(e.getKey());
                    String problem = cap == null ? "its capture is no longer indexed" : changed(cap);
                    if (problem != null) {
                        err.println("metaroce extract: " + (cap == null ? e.getKey() : cap.path()) + ": " + problem + "; its "
                                + e.getValue().size() + " flows were not extracted");
                        status = 2;
                        continue;
                    }
                    TreeMap<Long, Wanted> wanted = new TreeMap<>();
                    for (FlowDocument f : e.getValue()) {
                        for (FlowDocument part : index.parts(f.getString(FlowSchema.ROOT_ID))) {
                            long[] offsets = part.offsets(), frames = part.frames();
                            for (int i = 0; i < offsets.length; i++) wanted.put(offsets[i], new Wanted(f.getString(FlowSchema.FLOW), frames[i]));
                        }
                    }
                    long written = copy(cap, wanted, w, err);
                    if (written < 0) {
                        status = 2;
                        continue;
                    }
                    flows += e.getValue().size();
                    packets += written;
                }
            }
        } catch (IndexFormatException e) {
            err.println("metaroce extract: " + e.getMessage());
            return 2;
        }
        err.println("metaroce extract: " + packets + " packets of " + flows + " flows written to " + output);
        return status;
    }

    /** Why a source capture cannot be read as indexed (gone, other size, other content), or null. */
    private static String changed(IndexedCapture cap) throws IOException { return CaptureIdentity.changedSince(cap); }

    /**
     * Copies the records at the wanted offsets, in capture order, with positional reads ({@link RecordsAt}); a
     * capture whose layout needs it is read front to back instead ({@link #copyReadingThrough}). Returns the
     * packets written, or -1 after reporting.
     */
    private static long copy(IndexedCapture cap, TreeMap<Long, Wanted> wanted, PcapngWriter w, PrintStream err) throws IOException {
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
                    err.println("metaroce extract: " + cap.path() + ": " + problem + "; the capture is not as indexed");
                    return -1;
                }
            }
        }
        return copyReadingThrough(cap, wanted, interfaces, err);
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
    private static long copyReadingThrough(IndexedCapture cap, TreeMap<Long, Wanted> wanted, Interfaces out, PrintStream err) throws IOException {
        long last = wanted.lastKey(), written = 0;
        try (PacketSource src = CaptureFiles.open(Path.of(cap.path()))) {
            while (src.next()) {
                long at = src.recordOffset();
                if (at > last) break;
                Wanted x = wanted.get(at);
                if (x == null) continue;
                if (src.frameNumber() != x.frame()) {
                    err.println("metaroce extract: " + cap.path() + ": the record at byte " + at + " is frame " + src.frameNumber()
                            + ", indexed as frame " + x.frame() + "; the capture is not as indexed");
                    return -1;
                }
                out.write(src, x);
                written++;
            }
        } catch (CaptureException e) {
            err.println("metaroce extract: " + e.getMessage());
            return -1;
        }
        if (written != wanted.size()) {
            err.println("metaroce extract: " + cap.path() + ": " + (wanted.size() - written) + " indexed packets were not found at their offsets; the capture is not as indexed");
            return -1;
        }
        return written;
    }
}
