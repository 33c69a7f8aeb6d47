package io.metaroce.cli;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureMerge;
import io.metaroce.capture.CaptureOutput;
import io.metaroce.capture.PacketSource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce merge -w OUT IN...}: mergecap. The options and messages; the merge itself ({@link CaptureMerge}: by
 * time, or one input after the other with {@code -a}) is in the capture module, where the GUI's File > Merge uses it
 * too. Interfaces as mergecap's {@code -I} ({@link CaptureOutput.InterfaceMerge}), {@code -w -} writes to standard output.
 */
@Command(name = "merge", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Merge captures into one, in time order (as mergecap).",
        footer = {"", "Examples:", "  metaroce merge -w all.pcapng host1.pcapng host2.pcapng",
                "  metaroce merge -a -F pcap -w both.pcap part1.pcap part2.pcap",
                "  metaroce merge -w - nic1.pcapng nic2.pcapng | metaroce analyze -r -"})
public final class MergeCommand implements Callable<Integer> {
    @Spec(Spec.Target.SELF)
    CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "the captures to merge")
    List<Path> inputs;

    @Option(names = {"-w", "--write"}, paramLabel = "FILE", required = true, description = "the capture to write ('-': standard output)")
    Path output;

    @Option(names = "-a", description = "concatenate: each input whole, in the order given, instead of by time")
    boolean concatenate;

    @Option(names = "-F", paramLabel = "TYPE", description = "the file type to write: pcapng (default), pcap or nsecpcap")
    CaptureTools.FileType type = CaptureTools.FileType.pcapng;

    @Option(names = "-s", paramLabel = "SNAPLEN", description = "cut frames to SNAPLEN bytes")
    Integer snapLength;

    @Option(names = "-I", paramLabel = "MODE", description = "interfaces: all (default: shared when every input has the same"
            + " ones), any (alike ones shared) or none (each its own)")
    IdbMode interfaceMerge = IdbMode.all;

    /** mergecap 4.0's -I names. */
    enum IdbMode {
        none(CaptureOutput.InterfaceMerge.NONE), all(CaptureOutput.InterfaceMerge.ALL), any(CaptureOutput.InterfaceMerge.ANY);

        final CaptureOutput.InterfaceMerge mode;

        IdbMode(CaptureOutput.InterfaceMerge mode) {
            this.mode = mode;
        }
    }

    @Override
    public Integer call() {
        PrintStream err = System.err;
        if (snapLength != null && snapLength < 1) {
            throw new ParameterException(spec.commandLine(), "-s must be at least 1, not " + snapLength);
        }
        boolean stdout = output.toString().equals("-");
        for (Path in : inputs) {
            if (!stdout && CaptureTools.sameFile(in, output)) {
                err.println(FrontDoor.printable("metaroce merge: -w " + output + " is one of the inputs (it would be overwritten while read)"));
                return 2;
            }
        }
        String why = stdout ? null : OutputFiles.unwritable(output);
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
        boolean stdout = output.toString().equals("-");
        String comment = CaptureMerge.sectionComment(sources);
        CaptureOutput out = (stdout ? new CaptureOutput(CaptureCopy.stdout(), type.format, comment)
                : new CaptureOutput(output, type.format, comment)).interfaceMerge(interfaceMerge.mode);
        int n = sources.size();
        try (out) {
            CaptureMerge.merge(sources, out, concatenate, snap);
        } catch (CaptureOutput.MixedLinkTypes e) {
            err.println(FrontDoor.printable("metaroce merge: cannot write " + output + " as " + type + ": " + e.getMessage()));
            if (!stdout) deleteQuietly(output);
            return 2;
        } catch (IOException e) {
            err.println(FrontDoor.printable("metaroce merge: " + OutputFiles.failure(e)));
            return 2;
        } catch (IllegalArgumentException e) {
            // A timestamp the output type cannot hold (pcap's 32-bit seconds).
            err.println(FrontDoor.printable("metaroce merge: cannot write " + output + " as " + type + ": " + e.getMessage()));
            return 2;
        }
        boolean failed = false;
        for (int i = 0; i < n; i++) {
            failed |= CaptureTools.reportProblems(err, "merge", inputs.get(i), sources.get(i));
        }
        err.println(FrontDoor.printable("metaroce merge: " + out.framesWritten() + " frames from " + n + " capture"
                + (n == 1 ? "" : "s") + " written to " + (stdout ? "standard output" : output.toString()) + " ("
                + out.interfaceCount() + " interface" + (out.interfaceCount() == 1 ? "" : "s") + ")"));
        return failed ? 2 : 0;
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // Left as it is: the message said the run failed.
        }
    }
}
