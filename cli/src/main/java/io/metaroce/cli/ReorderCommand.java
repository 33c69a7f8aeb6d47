package io.metaroce.cli;

import io.metaroce.capture.CaptureMerge;
import io.metaroce.capture.CaptureOutput;
import io.metaroce.capture.PacketSource;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code metaroce reorder IN OUT}: reordercap. The frames sorted by time, stable (frames of one time keep their order),
 * written in the input's file type. One pass builds an index of each frame's (time, place in the file, lengths,
 * output interface), {@value #INDEX_BYTES} bytes per frame with the sort's; the frames are then copied from the
 * file's mapping in the index's order (a gzip file or standard input too: the reader spools those to a mapped file).
 */
@Command(name = "reorder", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Write a capture's frames in time order (as reordercap).",
        footer = {"", "Examples:", "  metaroce reorder merged.pcapng sorted.pcapng",
                "  metaroce reorder -n maybe.pcap sorted.pcap"})
public final class ReorderCommand implements Callable<Integer> {
    /** Per frame: time 8, data offset 8, captured and original length 4 + 4, output interface 4, the sort's 2 x 4. */
    static final int INDEX_BYTES = 36;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Parameters(index = "0", paramLabel = "IN", description = "the capture to read")
    Path input;

    @Parameters(index = "1", paramLabel = "OUT", description = "the capture to write")
    Path output;

    @Option(names = "-n", description = "do not write OUT when IN is in time order already")
    boolean notIfOrdered;

    private long[] time = new long[1024], offset = new long[1024];
    private int[] captured = new int[1024], original = new int[1024], iface = new int[1024];
    private final Map<Integer, List<String>> comments = new HashMap<>();
    private int n;

    @Override
    public Integer call() {
        PrintStream err = System.err, out = System.out;
        PacketSource s = CaptureTools.openCopy(err, "reorder", input, output);
        if (s == null) return 2;
        try (s) {
            MemorySegment file = s.mapping();
            if (file == null) {
                err.println(FrontDoor.printable("metaroce reorder: " + input + ": reorder copies frames from a mapped file, and this input has none;"
                        + " write it to a file first (metaroce edit IN FILE)"));
                return 2;
            }
            // The output is opened at the first frame's interface (CaptureOutput creates the file then): with -n it is
            // opened only once we know the order needs fixing, so a capture already in order leaves no file behind.
            long outOfOrder = 0, previous = Long.MIN_VALUE;
            while (s.next()) {
                long t = s.timestampNanos();
                if (t < previous) outOfOrder++;
                previous = t;
                add(s, t);
            }
            out.println(n + " frames, " + outOfOrder + " out of order");
            boolean damaged = CaptureTools.reportProblems(err, "reorder", input, s);
            if (outOfOrder == 0 && notIfOrdered) {
                out.println("Not writing output file because input file is already in order.");
                return damaged ? 2 : 0;
            }
            int[] order = sortedByTime();
            try (CaptureOutput w = new CaptureOutput(output, s.format(), CaptureMerge.sectionComment(List.of(s)))) {
                // reordercap keeps the input's interfaces as they are, alike ones too.
                w.interfaceMerge(CaptureOutput.InterfaceMerge.NONE);
                InterfaceTable table = new InterfaceTable(w, s);
                for (int k = 0; k < n; k++) {
                    int i = order[k];
                    List<String> c = comments.get(i);
                    w.write(table.output(iface[i]), time[i], file, offset[i], captured[i], original[i] & 0xFFFF_FFFFL,
                            c == null ? List.of() : c);
                }
            }
            return damaged ? 2 : 0;
        } catch (CaptureOutput.MixedLinkTypes e) {
            err.println(FrontDoor.printable("metaroce reorder: cannot write " + output + ": " + e.getMessage()));
            return 2;
        } catch (IOException e) {
            err.println(FrontDoor.printable("metaroce reorder: " + OutputFiles.failure(e)));
            return 2;
        } catch (OutOfMemoryError e) {
            err.println(FrontDoor.printable("metaroce reorder: " + input + ": too many frames for the memory given (" + INDEX_BYTES
                    + " bytes of index per frame); give the JVM more (-Xmx) or split the capture first (metaroce edit -c)"));
            return 2;
        }
    }

    private void add(PacketSource s, long t) {
        if (n == time.length) {
            int size = n + (n >> 1);
            time = Arrays.copyOf(time, size);
            offset = Arrays.copyOf(offset, size);
            captured = Arrays.copyOf(captured, size);
            original = Arrays.copyOf(original, size);
            iface = Arrays.copyOf(iface, size);
        }
        time[n] = t;
        offset[n] = s.dataOffset();
        captured[n] = s.capturedLength();
        original[n] = (int) Math.min(s.originalLength(), 0xFFFF_FFFFL);
        iface[n] = InterfaceTable.key(s);
        if (s.comment() != null) comments.put(n, s.comments());
        n++;
    }

    /** The frames' numbers (from 0) by time, stable: a merge sort, the frames of one time in file order. */
    private int[] sortedByTime() {
        int[] a = new int[n], b = new int[n];
        for (int i = 0; i < n; i++) a[i] = i;
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n), i = lo, j = mid, k = lo;
                if (mid >= hi || time[a[mid - 1]] <= time[a[mid]]) {
                    System.arraycopy(a, lo, b, lo, hi - lo);   // already in order: the common case of a nearly sorted capture
                    continue;
                }
                while (i < mid && j < hi) b[k++] = time[a[j]] < time[a[i]] ? a[j++] : a[i++];
                while (i < mid) b[k++] = a[i++];
                while (j < hi) b[k++] = a[j++];
            }
            int[] swap = a;
            a = b;
            b = swap;
        }
        return a;
    }

    /**
     * Output interfaces by the input's (section, interface) pairs, numbered in the index as small ints: the pairs are
     * few (interfaces), the frames many.
     */
    private static final class InterfaceTable {
        private final CaptureOutput out;
        private final PacketSource source;
        private final Map<Integer, Integer> outputs = new HashMap<>();

        InterfaceTable(CaptureOutput out, PacketSource source) {
            this.out = out;
            this.source = source;
        }

        /** (section, interface) in one int: sections and interfaces beyond 65535 are a hostile file's, cut to 16 bits. */
        static int key(PacketSource s) {
            return (s.sectionIndex() & 0xFFFF) << 16 | (s.interfaceId() & 0xFFFF);
        }

        int output(int key) throws IOException {
            Integer o = outputs.get(key);
            if (o == null) {
                o = -1;
                for (io.metaroce.capture.CaptureInterface i : source.stats().interfaces()) {
                    if ((i.section() & 0xFFFF) == key >>> 16 && (i.interfaceId() & 0xFFFF) == (key & 0xFFFF)) {
                        o = out.interfaceFor(i);
                        break;
                    }
                }
                if (o < 0) o = out.interfaceFor(new io.metaroce.capture.CaptureInterface(key >>> 16, key & 0xFFFF,
                        source.linkType(), 0, source.fcsLength(), 9, 0, null, null, 0, -1, -1, -1));
                outputs.put(key, o);
            }
            return o;
        }
    }
}
