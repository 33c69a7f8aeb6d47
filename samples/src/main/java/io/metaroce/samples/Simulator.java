package io.metaroce.samples;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Entry point of the reference traffic simulator: runs a named scenario with its parameters and writes the
 * capture (pcap with nanosecond timestamps, or pcapng) and the ground-truth JSON. The same scenario and
 * parameters (the seed among them) always give byte-identical files.
 *
 * <pre>{@code
 * Params p = Simulator.params("metaroce-spray-lossy-path").set("seed", "7");
 * Simulator.Result r = Simulator.run("metaroce-spray-lossy-path", p, Path.of("x.pcapng"), Path.of("x.json"));
 * }</pre>
 */
public final class Simulator {
    private Simulator() {}

    /** What a run produced. */
    public record Result(String scenario, long frames, long packetsAtTap, long captureDropped, long sampledOut,
                         long simulatedNanos, long events, int violations, int flows) {}

    /** Scenario names, in documentation order. */
    public static List<String> scenarios() { return Scenarios.names(); }

    /** What a user should see in a scenario. */
    public static String describe(String scenario) { return Scenarios.get(scenario).description(); }

    /** The scenario's parameters (global defaults overridden by the scenario's), ready for user overrides. */
    public static Params params(String scenario) { return Scenarios.params(scenario); }

    /**
     * Runs a scenario. capture or truth may be null (not written). The capture format follows the
     * {@code format} parameter, or the file name when it is {@code auto} (".pcapng" gives pcapng).
     */
    public static Result run(String scenario, Params params, Path capture, Path truth) throws IOException {
        boolean pcapng = switch (params.str("format").toLowerCase(Locale.ROOT)) {
            case "pcapng" -> true;
            case "pcap" -> false;
            case "auto" -> capture != null && capture.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".pcapng");
            default -> throw new IllegalArgumentException("format must be pcap, pcapng or auto");
        };
        try (OutputStream c = capture == null ? null : new BufferedOutputStream(Files.newOutputStream(capture), 1 << 20);
             OutputStream t = truth == null ? null : new BufferedOutputStream(Files.newOutputStream(truth), 1 << 20)) {
            return run(scenario, params, c, pcapng, t);
        }
    }

    /**
     * Command-line use without the CLI module: {@code Simulator SCENARIO OUT|- [TRUTH|-] [key=value ...]};
     * prints the frame count and the wall time of the run.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: Simulator SCENARIO OUT|- [TRUTH|-] [key=value ...]  scenarios: " + scenarios());
            System.exit(2);
        }
        Params p = params(args[0]);
        int i = 2;
        Path truth = null;
        if (args.length > 2 && !args[2].contains("=")) {
            truth = args[2].equals("-") ? null : Path.of(args[2]);
            i = 3;
        }
        for (; i < args.length; i++) p.set(args[i]);
        long t0 = System.nanoTime();
        Result r = run(args[0], p, args[1].equals("-") ? null : Path.of(args[1]), truth);
        System.out.printf("%s: %d frames, %d events, %.3f s%n", args[0], r.frames(), r.events(),
                (System.nanoTime() - t0) / 1e9);
    }

    /** Checks the parameters a run would reject, before any file is created (IllegalArgumentException). */
    public static void validate(Params p) {
        int pmtu = p.i("pmtu");
        if (pmtu < 256 || pmtu > 4096 || Integer.bitCount(pmtu) != 1) {
            throw new IllegalArgumentException("pmtu must be 256, 512, 1024, 2048 or 4096, not " + pmtu);
        }
        if (p.i("paths") < 1 || p.i("paths") > 1024) throw new IllegalArgumentException("paths must be 1..1024");
        if (p.i("hosts") < 2 || p.i("hosts") > 4096) throw new IllegalArgumentException("hosts must be 2..4096");
        if (p.i("qps") < 1 || p.i("window") < 1 || p.i("sample") < 1 || p.i("messages") < 0 || p.l("frames") < 0) {
            throw new IllegalArgumentException("qps, window and sample must be >= 1; messages and frames >= 0");
        }
        if (p.i("snaplen") < 0) throw new IllegalArgumentException("snaplen must be >= 0");
        for (String k : new String[] {"loss", "capture-drop"}) {
            if (p.d(k) < 0 || p.d(k) > 1) throw new IllegalArgumentException(k + " must be a probability 0..1");
        }
        if (p.d("line-rate-gbps") <= 0) throw new IllegalArgumentException("line-rate-gbps must be > 0");
        // Times are durations or instants after the start; a negative one ran the clock backwards without a word.
        for (String k : p.asMap().keySet()) {
            if ((k.endsWith("-us") || k.endsWith("-ns")) && p.d(k) < 0) throw new IllegalArgumentException(k + " must be >= 0");
        }
        // A timeout of 0 ns fires again at the same instant for ever: the run never ended.
        if (p.us("rto-us") < 1) throw new IllegalArgumentException("rto-us must be at least 0.001 (1 ns)");
        String mirrored = p.str("mirror-paths");
        if (!mirrored.equals("all")) {
            // Checked here, not when the mirror tap is built: path 99 of 4 was an internal error, 'x' a bare
            // "For input string".
            for (String path : mirrored.split(",", -1)) {
                int i;
                try {
                    i = Integer.parseInt(path.trim());
                } catch (NumberFormatException e) {
                    i = -1;
                }
                if (i < 0 || i >= p.i("paths")) {
                    throw new IllegalArgumentException("mirror-paths must be 'all' or path numbers 0.." + (p.i("paths") - 1)
                            + " separated by commas, not '" + mirrored + "'");
                }
            }
        }
    }

    /** Runs a scenario writing to streams (closed by this call when not null). */
    public static Result run(String scenario, Params params, OutputStream capture, boolean pcapng, OutputStream truth)
            throws IOException {
        Scenarios.Scenario sc = Scenarios.get(scenario);
        validate(params);
        Sim sim = new Sim(params);
        sim.truth = new Truth(sim, truth != null);
        Cm cm = new Cm(sim);
        Scenarios.Roles roles = sc.setup().build(sim, cm);
        sim.applyFaults();
        String tapName = params.str("tap");
        Tap tap;
        switch (tapName) {
            case "sender", "receiver" -> tap = new Tap(sim, Tap.Kind.HOST,
                    tapName.equals("sender") ? roles.sender() : roles.receiver(), null, capture, pcapng);
            case "mirror" -> {
                boolean[] mirrored = new boolean[sim.fabric.paths.length];
                String which = params.str("mirror-paths");
                if (which.equals("all")) java.util.Arrays.fill(mirrored, true);
                else for (String k : which.split(",")) mirrored[Integer.parseInt(k.trim())] = true;
                tap = new Tap(sim, Tap.Kind.MIRROR, null, mirrored, capture, pcapng);
            }
            default -> throw new IllegalArgumentException("tap must be sender, receiver or mirror, not '" + tapName + "'");
        }
        sim.tap = tap;
        sim.run();
        sim.recordHangs();
        tap.close();
        if (truth != null) {
            sim.truth.write(truth, scenario, sc.description());
        }
        return new Result(scenario, tap.frames(), tap.seen() + tap.sampledOut(), tap.dropped(), tap.sampledOut(),
                sim.now, sim.eventsRun, sim.violations.size(), sim.flows.size());
    }
}
