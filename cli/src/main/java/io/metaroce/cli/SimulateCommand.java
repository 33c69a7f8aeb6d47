package io.metaroce.cli;

import io.metaroce.samples.Params;
import io.metaroce.samples.Simulator;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce simulate}: runs the reference traffic simulator (module samples) and writes a capture plus
 * its ground-truth JSON. A thin shell over {@link Simulator}: every option maps to a simulator parameter.
 */
@Command(name = "simulate", versionProvider = StandardOptions.Version.class,
        description = {"Generate a deterministic RoCEv2 / MetaRoCE capture with a ground-truth JSON file.",
                "Same scenario, seed and parameters give byte-identical files. See samples/README.md."},
        // Each example fits the help's 80 columns, continued with a backslash: picocli cut the longer ones at a
        // space, and the copied lines were two commands.
        footer = {"", "Examples:",
                "  metaroce simulate --scenario metaroce-spray-lossy-path --out x.pcapng \\",
                "      --truth x.json",
                "  metaroce simulate --scenario rocev2-clean --frames 1000000 --out bench.pcap",
                "  metaroce simulate --scenario rocev2-gbn-loss --tap mirror --param loss=0.05 \\",
                "      --out m.pcapng"})
public final class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    StandardOptions standard;

    @picocli.CommandLine.Mixin
    StandardOptions.NoVerbose noVerbose;

    @Option(names = "--progress", negatable = true, description = "progress on stderr (default: only when stderr is a terminal)")
    Boolean progress;

    @Option(names = "--scenario", paramLabel = "NAME", description = "scenario to run (--list shows them)")
    String scenario;

    @Option(names = "--list", description = "list the scenarios and what each shows, then exit")
    boolean list;

    @Option(names = "--list-params", description = "list every simulator parameter with its default, then exit")
    boolean listParams;

    @Option(names = "--seed", paramLabel = "N", description = "random seed (default 1)")
    Long seed;

    @Option(names = "--out", paramLabel = "FILE", description = "capture file: .pcapng for pcapng, else pcap (ns)")
    Path out;

    @Option(names = "--truth", paramLabel = "FILE", description = "ground-truth JSON file")
    Path truth;

    @Option(names = "--frames", paramLabel = "N",
            description = "generate work until the capture holds about N frames (benchmark captures)")
    Long frames;

    @Option(names = "--tap", paramLabel = "WHERE", description = "sender, receiver, mirror or port")
    String tap;

    @Option(names = "--format", paramLabel = "FMT", description = "pcap, pcapng or auto (from --out)")
    String format;

    @Option(names = "--pmtu", paramLabel = "BYTES", description = "path MTU 256..4096")
    Integer pmtu;

    @Option(names = "--paths", paramLabel = "N", description = "fabric paths / MetaRoCE path count")
    Integer paths;

    @Option(names = "--loss", paramLabel = "P", description = "loss probability on the lossy path(s)")
    Double loss;

    @Option(names = "--snaplen", paramLabel = "BYTES", description = "capture snap length (0: whole frames)")
    Integer snaplen;

    @Option(names = "--capture-drop", paramLabel = "P", description = "probability the capture misses a packet")
    Double captureDrop;

    @Option(names = "--sample", paramLabel = "N", description = "keep 1 packet in N at the tap")
    Integer sample;

    @Option(names = {"-p", "--param"}, paramLabel = "KEY=VALUE",
            description = "any simulator parameter (repeatable; --list-params shows them)")
    List<String> params = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        PrintWriter w = spec.commandLine().getOut();
        if (list) {
            for (String s : Simulator.scenarios()) w.printf("%-28s %s%n", s, Simulator.describe(s));
            w.flush();
            return 0;
        }
        if (listParams) {
            for (Params.Key k : Params.KEYS.values()) w.printf("%-22s %-14s %s%n", k.name(), k.defaultValue(), k.doc());
            w.flush();
            return 0;
        }
        if (scenario == null) throw new ParameterException(spec.commandLine(), "--scenario is required (see --list)");
        if (out == null && truth == null) throw new ParameterException(spec.commandLine(), "give --out and/or --truth");
        Params p;
        try {
            p = Simulator.params(scenario);
            if (seed != null) p.set("seed", seed.toString());
            if (frames != null) p.set("frames", frames.toString());
            if (tap != null) p.set("tap", tap);
            if (format != null) p.set("format", format);
            if (pmtu != null) p.set("pmtu", pmtu.toString());
            if (paths != null) p.set("paths", paths.toString());
            if (loss != null) p.set("loss", loss.toString());
            if (snaplen != null) p.set("snaplen", snaplen.toString());
            if (captureDrop != null) p.set("capture-drop", captureDrop.toString());
            if (sample != null) p.set("sample", sample.toString());
            for (String kv : params) p.set(kv);
            Simulator.validate(p); // bad values are a usage error, found before any file is created
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        // Both into one file: the JSON ran over the capture and the run said it wrote both.
        if (out != null && truth != null && sameFile(out, truth)) {
            spec.commandLine().getErr().println(FrontDoor.printable("metaroce simulate: --out and --truth name the same file: " + out));
            return 2;
        }
        for (Path f : new Path[] {out, truth}) {
            String why = f == null ? null : OutputFiles.unwritable(f);
            if (why != null) {
                spec.commandLine().getErr().println(FrontDoor.printable("metaroce simulate: cannot write " + f + ": " + why));
                return 2;
            }
        }
        long t0 = System.nanoTime();
        Simulator.Result r;
        try (ProgressBar bar = ProgressBar.open("simulate", progress); Poll poll = new Poll(bar, out)) {
            r = Simulator.run(scenario, p, out, truth);
        } catch (java.io.IOException e) {
            // A full disk says only "No space left on device": name the file then (the one written, or both).
            String why = OutputFiles.failure(e);
            if (!(e instanceof java.nio.file.FileSystemException)) {
                why = (out == null ? truth : truth == null ? out : out + " or " + truth) + ": " + why;
            }
            spec.commandLine().getErr().println(FrontDoor.printable("metaroce simulate: cannot write " + why));
            return 2;
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        w.printf("%s: %d frames (%d packets at the tap, %d capture drops), %.3f ms simulated, %.2f s%n", scenario,
                r.frames(), r.packetsAtTap(), r.captureDropped(), r.simulatedNanos() / 1e6, seconds);
        if (out != null) w.printf("capture: %s (%d bytes)%n", out, Files.size(out));
        if (truth != null) w.printf("truth:   %s (%d bytes)%n", truth, Files.size(truth));
        w.flush();
        return 0;
    }

    /** a and b are one file: the same path, or links to one existing file. */
    private static boolean sameFile(Path a, Path b) {
        try {
            if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) return true;
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (java.io.IOException | RuntimeException e) {
            return false; // left to the writing, which says what is wrong
        }
    }

    /** Shows the capture's growing size on the progress bar (the simulator has no progress callback). */
    private static final class Poll implements AutoCloseable {
        private final Thread thread;

        Poll(ProgressBar bar, Path file) {
            thread = bar == null || file == null ? null : Thread.ofPlatform().daemon().name("metaroce-progress").start(() -> {
                try {
                    while (true) {
                        bar.update(Files.exists(file) ? Files.size(file) : 0, 0);
                        Thread.sleep(100);
                    }
                } catch (InterruptedException | java.io.IOException e) {
                    // done
                }
            });
        }

        @Override
        public void close() {
            if (thread == null) return;
            thread.interrupt();
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
