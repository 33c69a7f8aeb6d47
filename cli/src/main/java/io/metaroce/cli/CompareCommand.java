package io.metaroce.cli;

import io.metaroce.analysis.CaptureCompare;
import io.metaroce.analysis.JsonOut;
import io.metaroce.capture.CaptureException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec.Target;

/**
 * {@code metaroce compare A B}: two captures of the same traffic at two points, matched packet by packet
 * ({@link CaptureCompare}): where a packet was lost, one-way delays, the clock offset. Exit codes as analyze's.
 */
@Command(name = "compare", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = {"Compare two captures of the same RoCEv2/MetaRoCE traffic taken at two points (both hosts' "
                + "NICs, or a host and a switch mirror): per flow and direction, packets lost between the points "
                + "(seen upstream, never downstream), packets seen downstream only, resends of packets the downstream "
                + "point already had, one-way delay; the clock offset of the two points, estimated as NTP does.",
                "Packets are matched by flow, PSN, opcode and wire ICRC (with IP id and source port); the two files "
                + "are merged by time, and a packet not matched within the window plus the largest one-way delay "
                + "seen counts as unmatched."},
        footer = {"", "Examples:", "  metaroce compare sender.pcapng receiver.pcapng",
                "  metaroce compare a.pcapng b.pcapng -T json",
                "  metaroce compare a.pcapng b.pcapng --time-shift -2.5 --window 0.1"})
public final class CompareCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec(Target.SELF)
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    StandardOptions standard;

    @picocli.CommandLine.Mixin
    StandardOptions.NoVerbose noVerbose;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "the two captures (pcap, pcapng, gzip-compressed or not; "
            + "- reads standard input, for one of them): point 1, 2")
    List<Path> files = new java.util.ArrayList<>();

    @Option(names = {"-T", "--format"}, paramLabel = "FORMAT", description = "report format: text (tables, default) or json (one object)")
    String format = "text";

    @Option(names = "--compact", description = "JSON on one line instead of indented")
    boolean compact;

    @Option(names = "--time-shift", paramLabel = "SECONDS",
            description = "add SECONDS to point 2's times (as editcap -t) and take the clocks as agreeing then, instead of "
                    + "estimating the offset")
    Double timeShift;

    @Option(names = "--window", paramLabel = "SECONDS",
            description = "how long a packet waits for its copy at the other point, beyond the largest one-way delay "
                    + "seen (default 1); memory grows with the packets in it")
    double window = 1;

    @Option(names = {"-d", "--decode-as"}, paramLabel = DecodeAs.LABEL, description = DecodeAs.HELP)
    List<String> ports;

    @Option(names = "--progress", negatable = true, description = "progress bar on stderr (default: only when stderr is a terminal)")
    Boolean progress;

    @Override
    public Integer call() throws IOException {
        boolean json = switch (format.toLowerCase()) {
            case "json" -> true;
            case "text" -> false;
            default -> throw new ParameterException(spec.commandLine(), "-T must be json or text, not '" + format + "'");
        };
        if (files.size() != 2) {
            throw new ParameterException(spec.commandLine(), "two captures are needed, one per point (got " + files.size() + ")");
        }
        if (files.get(0).toString().equals("-") && files.get(1).toString().equals("-")) {
            // One standard input holds one capture: the second read would get nothing (or the first's bytes again).
            throw new ParameterException(spec.commandLine(), "- given for both points; standard input holds one capture "
                    + "(give the other as a file)");
        }
        if (!(window > 0) || Double.isInfinite(window)) {
            throw new ParameterException(spec.commandLine(), "--window must be a number of seconds above 0, not " + window);
        }
        if (timeShift != null && (timeShift.isNaN() || timeShift.isInfinite())) {
            throw new ParameterException(spec.commandLine(), "--time-shift must be a number of seconds, not " + timeShift);
        }
        java.util.Set<Integer> portSet;
        try {
            portSet = DecodeAs.ports(ports);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        var options = new CaptureCompare.Options(Math.round(window * 1e9),
                timeShift == null ? null : Math.round(timeShift * 1e9), io.metaroce.analysis.AnalysisSettings.DEFAULT.withPorts(portSet).rocePorts());
        java.io.PrintStream err = System.err;
        CaptureCompare.Result r;
        try (ProgressBar bar = ProgressBar.open("compare", progress)) {
            r = CaptureCompare.run(files.get(0), files.get(1), options, bar == null ? null : bar::update);
        } catch (CaptureException e) {
            err.println("metaroce compare: " + e.getMessage());
            return 2;
        }
        if (!r.common()) {
            for (String p : r.problems()) err.println("metaroce compare: " + p);
            err.println("metaroce compare: " + files.get(0) + " and " + files.get(1) + " have no RoCE flow in common (no host "
                    + "pair seen at both points): not two captures of the same traffic");
            return 2;
        }
        Writer out = new BufferedWriter(new OutputStreamWriter(new ClosedStdout.Guard(System.out), StandardCharsets.UTF_8), 1 << 16);
        try {
            if (json) {
                JsonOut j = new JsonOut(out, !compact);
                j.value(r.model());
                out.write('\n');
            } else {
                out.write(r.text());
            }
            out.flush();
        } catch (ClosedStdout e) {
            return 0; // the reader of our output went away (| head): stop quietly
        }
        // Every readable frame was compared, but a capture is damaged: exit 2, as analyze does.
        for (String p : r.problems()) err.println("metaroce compare: " + p);
        return r.problems().isEmpty() ? 0 : 2;
    }
}
