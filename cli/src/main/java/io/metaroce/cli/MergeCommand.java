package io.metaroce.cli;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureOutput;
import io.metaroce.capture.PacketSource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce merge -w OUT IN...}: mergecap. The inputs' frames in time order (a k-way merge: each input is read
 * in its own order, the earliest next frame goes out, a tie to the input named last, as mergecap's), or one input after the other
 * with {@code -a}. Memory is per input (its reader), never per frame. Interfaces as mergecap's default {@code -I all}:
 * alike ones (link type, snap length, name, description, FCS length) become one ({@link CaptureOutput}).
 */
@Command(name = "merge", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Merge captures into one, in time order (as mergecap).",
        footer = {"", "Examples:", "  metaroce merge -w all.pcapng host1.pcapng host2.pcapng",
                "  metaroce merge -a -F pcap -w both.pcap part1.pcap part2.pcap"})
public final class MergeCommand implements Callable<Integer> {
    @Spec(Spec.Target.SELF)
    CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "the captures to merge")
    List<Path> inputs;

    @Option(names = {"-w", "--write"}, paramLabel = "FILE", required = true, description = "the capture to write")
    Path output;

    @Option(names = "-a", description = "concatenate: each input whole, in the order given, instead of by time")
    boolean concatenate;

    @Option(names = "-F", paramLabel = "TYPE", description = "the file type to write: pcapng (default), pcap or nsecpcap")
    CaptureTools.FileType type = CaptureTools.FileType.pcapng;

    @Option(names = "-s", paramLabel = "SNAPLEN", description = "cut frames to SNAPLEN bytes")
    Integer snapLength;

    @Override
    public Integer call() {
        PrintStream err = System.err;
        if (snapLength != null && snapLength < 1) {
            throw new ParameterException(spec.commandLine(), "-s must be at least 1, not " + snapLength);
        }
        for (Path in : inputs) {
            if (CaptureTools.sameFile(in, output)) {
                err.println(FrontDoor.printable("metaroce merge: -w " + output + " is one of the inputs (it would be overwritten while read)"));
                return 2;
            }
        }
        String why = OutputFiles.unwritable(output);
        if (why != null) {
            err.println(FrontDoor.printable("metaroce merge: cannot write " + output + ": " + why));
            return 2;
        }
        List<PacketSource> sources = new ArrayList<>();
        try {
            for (Path in : inputs) {
                try {
                    sources.add(CaptureFiles.open(in));
                } catch (CaptureException e) {
                    err.println(FrontDoor.printable("metaroce merge: " + e.getMessage()));
                    return 2;
                }
            }
            return merge(sources, err);
        } finally {
            for (PacketSource s : sources) s.close();
        }
    }

    private int merge(List<PacketSource> sources, PrintStream err) {
        int snap = snapLength == null ? 0 : snapLength;
        CaptureOutput out = new CaptureOutput(output, type.format, sectionComment(sources));
        int n = sources.size();
        CaptureOutput.Input[] ins = new CaptureOutput.Input[n];
        for (int i = 0; i < n; i++) ins[i] = out.input(sources.get(i));
        boolean failed = false;
        try (out) {
            if (concatenate) {
                for (int i = 0; i < n; i++) {
                    PacketSource s = sources.get(i);
                    while (s.next()) CaptureTools.copy(s, ins[i], out, s.timestampNanos(), snap);
                }
            } else {
                mergeByTime(sources, ins, out, snap);
            }
        } catch (CaptureOutput.MixedLinkTypes e) {
            err.println(FrontDoor.printable("metaroce merge: cannot write " + output + " as " + type + ": " + e.getMessage()));
            deleteQuietly(output);
            return 2;
        } catch (IOException e) {
            err.println(FrontDoor.printable("metaroce merge: " + OutputFiles.failure(e)));
            return 2;
        } catch (IllegalArgumentException e) {
            // A timestamp the output type cannot hold (pcap's 32-bit seconds).
            err.println(FrontDoor.printable("metaroce merge: cannot write " + output + " as " + type + ": " + e.getMessage()));
            return 2;
        }
        for (int i = 0; i < n; i++) {
            failed |= CaptureTools.reportProblems(err, "merge", inputs.get(i), sources.get(i));
        }
        err.println(FrontDoor.printable("metaroce merge: " + out.framesWritten() + " frames from " + n + " capture"
                + (n == 1 ? "" : "s") + " written to " + output + " (" + out.interfaceCount() + " interface"
                + (out.interfaceCount() == 1 ? "" : "s") + ")"));
        return failed ? 2 : 0;
    }

    /** The k-way merge: a heap of the inputs by their current frame's time (ties: the input named last). */
    private static void mergeByTime(List<PacketSource> sources, CaptureOutput.Input[] ins, CaptureOutput out, int snap)
            throws IOException {
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
            if (sources.get(i).next()) {
                head[i] = sources.get(i).timestampNanos();
                ready.add(i);
            }
        }
        while (!ready.isEmpty()) {
            Integer i = ready.poll();
            PacketSource s = sources.get(i);
            CaptureTools.copy(s, ins[i], out, head[i], snap);
            if (s.next()) {
                head[i] = s.timestampNanos();
                ready.add(i);
            }
        }
    }

    /** The inputs' section comments (pcapng shb_comment), each once, one per line; null when none has one. */
    private static String sectionComment(List<PacketSource> sources) {
        Set<String> comments = new LinkedHashSet<>();
        for (PacketSource s : sources) comments.addAll(s.stats().fileComments());
        return comments.isEmpty() ? null : String.join("\n", comments);
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // Left as it is: the message said the run failed.
        }
    }
}
