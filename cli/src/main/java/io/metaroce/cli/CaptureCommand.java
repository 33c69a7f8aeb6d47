package io.metaroce.cli;

import io.metaroce.capture.live.CaptureLimits;
import io.metaroce.capture.live.InterfaceList;
import io.metaroce.capture.live.LiveCapture;
import io.metaroce.capture.live.LiveCaptureException;
import io.metaroce.capture.live.LiveFileWriter;
import io.metaroce.capture.live.LivePacket;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code metaroce capture}: dumpcap for RoCE. Captures live traffic into pcapng (one IDB per interface, an
 * ISB per interface with libpcap's counters at every file close) or, with -P, classic pcap (one interface),
 * optionally as a ring of files, until -c,
 * -a, Ctrl-C or SIGTERM. The capture threads only queue frames; this thread writes them.
 */
@Command(name = "capture", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = {"Capture live RoCEv2/MetaRoCE traffic into pcapng (or pcap: -P), with dumpcap's options. Needs root or "
                + "CAP_NET_RAW; -D does not.", "Default filter: udp port 4791 (plus every -d port)."},
        footer = {"", "Examples:", "  metaroce capture -D", "  sudo metaroce capture -i eth1 -w roce.pcapng",
                // Each example fits the help's 80 columns (picocli cut longer ones anywhere), and runs when copied:
                // the remark is a shell comment of its own, and standard input is "-r -" (-r /dev/stdin is a pipe,
                // which analyze refuses to map).
                "  sudo metaroce capture -i eth1 -i eth2 -w ring.pcapng \\",
                "      -b filesize:100000 -b files:10",
                "  sudo metaroce capture -i eth1 -w - | metaroce analyze -r -",
                "      # analyze reads standard input once it ends; analyze -i eth1 is live"})
final class CaptureCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Option(names = {"-D", "--list-interfaces"}, description = "List the interfaces (name, description, addresses) and exit.")
    boolean list;

    @Mixin
    LiveOptions live;

    @Option(names = {"-w"}, paramLabel = "FILE.pcapng", description = "File to write (- for stdout).")
    String output;

    @Option(names = {"-P"}, description = "Write classic pcap (microsecond timestamps) instead of pcapng, as dumpcap -P; "
            + "several interfaces are still written as pcapng (pcap holds one).")
    boolean pcap;

    @Option(names = {"-n"}, description = "Write pcapng (the default), as dumpcap -n.")
    boolean pcapng;

    @Option(names = {"-b", "--ring-buffer"}, paramLabel = "filesize:KB|duration:S|files:N",
            description = "Ring of files: a new file after KB kB (1000 bytes) or S seconds, keeping the newest N (repeatable).")
    List<String> ring = new ArrayList<>();

    @Option(names = {"-c"}, paramLabel = "N", description = "Stop after N frames.")
    Long count;

    @Option(names = {"-d", "--decode-as"}, paramLabel = DecodeAs.LABEL,
            description = "Also capture (and decode as RoCE) this UDP port, the same -d as dissect, analyze and validate (repeatable).")
    List<String> decodeAs = new ArrayList<>();

    private final PrintStream err = System.err;

    @Override
    public Integer call() {
        if (list) return listInterfaces();
        if (!live.live()) return usage("no interface given (-i IFACE; list them with -D)");
        if (output == null) return usage("no output file given (-w FILE.pcapng, or -w - for stdout); to watch live traffic use analyze -i or dissect -i");
        if (pcap && pcapng) return usage("-P (pcap) and -n (pcapng) ask for two formats: give one");
        LiveSession.Autostop stop;
        LiveFileWriter.Ring rb;
        try {
            stop = LiveSession.Autostop.parse(live.autostop);
            rb = parseRing(ring);
        } catch (IllegalArgumentException e) {
            return usage(e.getMessage());
        }
        // -c 0 captured without a count limit, silently (0 is "no limit" inside); dumpcap refuses it too.
        if (count != null && CaptureLimits.countProblem(count) != null) return usage(CaptureLimits.countProblem(count));
        boolean toStdout = output.equals("-");
        String conflict = CaptureLimits.outputProblem(rb, new CaptureLimits.Autostop(stop.durationNanos(), stop.fileKB(), stop.files()), output);
        if (conflict != null) return usage(conflict);
        // Before the interface is opened: a capture must not start only to find it has nowhere to go.
        String why = toStdout ? null : OutputFiles.unwritable(Path.of(output));
        if (why != null) {
            err.println("metaroce capture: cannot write " + output + ": " + why);
            return 2;
        }
        LiveSession session = LiveSession.start("capture", live, extraPorts(), count == null ? 0 : count, stop.durationNanos(), err);
        if (session == null) return 2;
        LiveCapture capture = session.capture();
        // The file descriptor, not System.out: a PrintStream swallows write errors, and a reader that went
        // away (broken pipe) must end the capture with a message rather than let it write into the void.
        OutputStream stdout = toStdout ? new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16) : null;
        LiveFileWriter writer = null;
        String failure = null;
        try {
            writer = new LiveFileWriter(capture, toStdout ? null : Path.of(output), stdout, rb, "metaroce 0.1.0 (MetaRoCE Analyzer)", pcap);
            // dumpcap -P on several interfaces writes pcapng without a word; saying it spares a surprise.
            if (pcap && !writer.pcap()) err.println("metaroce capture: " + capture.interfaceCount()
                    + " interfaces: writing pcapng (pcap holds one interface), as dumpcap -P does");
            LivePacket p;
            while ((p = capture.take()) != null) {
                writer.write(p);
                if (stop.fileKB() > 0 && writer.fileBytes() >= stop.fileKB() * 1000) capture.stop("file size");
                if (stop.files() > 0 && writer.files().size() > stop.files()) capture.stop("file count");
            }
        } catch (IOException e) {
            capture.stop("write error");
            Path file = writer == null ? null : writer.currentFile();
            failure = "cannot write " + (file == null ? output : file) + ": " + OutputFiles.failure(e);
            if (writer != null) {
                // Full disk or a vanished reader: wait for the capture to end so that the statistics are final.
                while (capture.take() != null) { }
                long kept = writer.salvage();
                if (kept >= 0) failure += "; the file was cut back to the " + kept + " frames written whole";
            }
        } finally {
            session.close();
            if (writer != null) {
                try {
                    writer.close();
                } catch (IOException e) {
                    if (failure == null) failure = "cannot finish " + writer.currentFile() + ": " + e.getMessage();
                }
            }
        }
        session.summary();
        if (failure != null) {
            err.println("metaroce capture: " + failure + "; the capture stopped");
            return 2;
        }
        return capture.error() != null ? 2 : 0;
    }

    private int listInterfaces() {
        try {
            int n = 0;
            for (InterfaceList.Entry e : InterfaceList.all()) System.out.println(e.line(++n));
            System.out.flush();
            return 0;
        } catch (LiveCaptureException e) {
            err.println("metaroce capture: " + e.getMessage());
            return 2;
        }
    }

    private int usage(String message) {
        err.println("metaroce capture: " + message);
        return 2;
    }

    /** The checks and words are the capture module's, shared with the GUI's Capture Options. */
    static LiveFileWriter.Ring parseRing(List<String> specs) {
        return CaptureLimits.ring(specs);
    }

    /** The -d ports beyond 4791 (which the default filter has already), in the shared -d vocabulary. */
    private List<Integer> extraPorts() {
        List<Integer> extra = new ArrayList<>();
        for (String d : decodeAs) {
            try {
                extra.add(DecodeAs.port(d));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        return extra;
    }
}
