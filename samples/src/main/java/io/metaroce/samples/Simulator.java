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
        // Read as longs: a value past an int was Java's "For input string" here.
        long pmtu = p.l("pmtu"), peerPmtu = p.l("peer-pmtu");
        if (pmtu < 256 || pmtu > 4096 || Long.bitCount(pmtu) != 1) {
            throw new IllegalArgumentException("pmtu must be 256, 512, 1024, 2048 or 4096, not " + pmtu);
        }
        // peer-pmtu < 0 was taken as 0 (none), 999 as a path MTU no QP can have.
        if (peerPmtu != 0 && (peerPmtu < 256 || peerPmtu > 4096 || Long.bitCount(peerPmtu) != 1)) {
            throw new IllegalArgumentException("peer-pmtu must be 0 (pmtu), 256, 512, 1024, 2048 or 4096, not " + peerPmtu);
        }
        // The text parameters: an unknown transport or workload was the default (rocev2, write) without a word, a
        // tap or format only refused once the output files were created.
        oneOf(p, "transport", "rocev2", "metaroce");
        oneOf(p, "workload", "write", "send", "mixed", "read-atomic", "ring-allreduce", "incast", "alltoall");
        oneOf(p, "tap", "sender", "receiver", "mirror", "port");
        oneOf(p, "format", "pcap", "pcapng", "auto");
        messageSize(p.str("message-size"));
        if (p.i("paths") < 1 || p.i("paths") > 1024) throw new IllegalArgumentException("paths must be 1..1024");
        if (p.i("hosts") < 2 || p.i("hosts") > 4096) throw new IllegalArgumentException("hosts must be 2..4096");
        if (p.i("qps") < 1 || p.i("window") < 1 || p.i("sample") < 1 || p.i("messages") < 0 || p.l("frames") < 0) {
            throw new IllegalArgumentException("qps, window and sample must be >= 1; messages and frames >= 0");
        }
        if (p.i("snaplen") < 0) throw new IllegalArgumentException("snaplen must be >= 0");
        // A fault on a path or host that does not exist was no fault at all, silently.
        for (String k : new String[] {"lossy-path", "path-down", "slow-path"}) {
            if (p.i(k) >= p.i("paths")) {
                throw new IllegalArgumentException(k + " must be -1 (none) or a path 0.." + (p.i("paths") - 1) + ", not " + p.i(k));
            }
        }
        if (p.i("host-down") >= Math.max(2, p.i("hosts"))) {
            throw new IllegalArgumentException("host-down must be -1 (none) or a host 0.." + (p.i("hosts") - 1) + ", not " + p.i("host-down"));
        }
        if (p.i("pfc-host") >= Math.max(2, p.i("hosts"))) {
            throw new IllegalArgumentException("pfc-host must be -1 (none) or a host 0.." + (p.i("hosts") - 1) + ", not " + p.i("pfc-host"));
        }
        // A refresh of 0 would send XOFFs at one instant for ever; a run as long as its period is a storm (say so).
        if (p.i("pfc-host") >= 0 && p.us("pfc-refresh-us") < 1000) throw new IllegalArgumentException("pfc-refresh-us must be at least 1");
        if (p.us("pfc-every-us") > 0 && (p.us("pfc-run-us") <= 0 || p.us("pfc-run-us") >= p.us("pfc-every-us"))) {
            throw new IllegalArgumentException("pfc-every-us needs a pfc-run-us above 0 and below it (pfc-run-us=0 alone: a storm)");
        }
        qpMemory(p, Runtime.getRuntime().maxMemory());
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

    /** key's value is one of the choices (the one check of each text parameter's spelling). */
    private static void oneOf(Params p, String key, String... choices) {
        String v = p.str(key);
        for (String c : choices) if (c.equals(v) || key.equals("format") && c.equalsIgnoreCase(v)) return;
        throw new IllegalArgumentException(key + " must be " + String.join(", ", java.util.Arrays.asList(choices).subList(0,
                choices.length - 1)) + " or " + choices[choices.length - 1] + ", not '" + v + "'");
    }

    /**
     * message-size as {@code Scenarios.size} reads it: fixed:N, uniform:MIN:MAX or lognormal:MEDIAN:SIGMA. A size
     * outside 1..4 MiB was clamped in silence (fixed:-1 sent 1-byte messages), a missing or extra part or a number
     * that is not one ended the run in Java's words after the files were created.
     */
    static void messageSize(String dist) {
        String[] f = dist.split(":", -1);
        String why = null;
        try {
            switch (f[0]) {
                case "fixed" -> {
                    if (f.length != 2) why = "fixed:N";
                    else if (!size(f[1])) why = "fixed:N with N 1.." + MAX_MESSAGE;
                }
                case "uniform" -> {
                    if (f.length != 3) why = "uniform:MIN:MAX";
                    else if (!size(f[1]) || !size(f[2]) || Integer.parseInt(f[1]) > Integer.parseInt(f[2])) {
                        why = "uniform:MIN:MAX with 1 <= MIN <= MAX <= " + MAX_MESSAGE;
                    }
                }
                case "lognormal" -> {
                    double median = f.length == 3 ? Double.parseDouble(f[1]) : Double.NaN;
                    double sigma = f.length == 3 ? Double.parseDouble(f[2]) : Double.NaN;
                    if (!(median >= 1 && median <= MAX_MESSAGE && sigma >= 0 && Double.isFinite(sigma))) {
                        why = "lognormal:MEDIAN:SIGMA with MEDIAN 1.." + MAX_MESSAGE + " and SIGMA at least 0";
                    }
                }
                default -> why = "fixed:N, uniform:MIN:MAX or lognormal:MEDIAN:SIGMA (bytes)";
            }
        } catch (NumberFormatException e) {
            why = "fixed:N, uniform:MIN:MAX or lognormal:MEDIAN:SIGMA with numbers of bytes";
        }
        if (why != null) throw new IllegalArgumentException("message-size must be " + why + ", not '" + dist + "'");
    }

    /** The largest message (Scenarios.size clamps a drawn size to it). */
    private static final int MAX_MESSAGE = 1 << 22;

    private static boolean size(String n) {
        int v = Integer.parseInt(n);
        return v >= 1 && v <= MAX_MESSAGE;
    }

    /** The heap one RC QP pair takes: each of its two QPs allocates rings of RcQp.RING (65,536) PSNs, about 1.1 MiB. */
    static final long QP_PAIR_BYTES = 5L << 19;   // 2.5 MiB, measured 2.3 (qps=1000: 2.3 GB)

    /**
     * Refuses, before anything is allocated, a run whose RC QP pairs alone would take more than half the heap
     * (the rest is the event queue, the frames in flight and the truth; qps=1000, 2.3 GB, ran in a heap of 5.8): qps=100000000 ran for half a minute and ended out of
     * memory. The count follows the workloads of {@code Scenarios.generic} (the only ones qps and hosts scale).
     */
    static void qpMemory(Params p, long maxHeap) {
        long hosts = Math.max(2, p.l("hosts")), qps = p.l("qps");
        long pairs = switch (p.str("workload")) {
            case "incast" -> (hosts - 1) * qps;
            case "alltoall" -> hosts * (hosts - 1);
            case "ring-allreduce" -> Math.max(3, hosts);
            default -> qps;
        };
        long fits = maxHeap / 2 / QP_PAIR_BYTES;
        if (pairs > fits) {
            throw new IllegalArgumentException("qps=" + qps + ", hosts=" + hosts + ", workload=" + p.str("workload") + ": "
                    + pairs + " RC QP pairs need about " + (pairs * QP_PAIR_BYTES >> 20) + " MiB; a heap of " + (maxHeap >> 20)
                    + " MiB takes " + fits + ": fewer qps or hosts, or more heap (METAROCE_JAVA_OPTS=-Xmx8g)");
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
            case "sender", "receiver", "port" -> tap = new Tap(sim, tapName.equals("port") ? Tap.Kind.PORT : Tap.Kind.HOST,
                    tapName.equals("sender") ? roles.sender() : roles.receiver(), null, capture, pcapng);
            case "mirror" -> {
                boolean[] mirrored = new boolean[sim.fabric.paths.length];
                String which = params.str("mirror-paths");
                if (which.equals("all")) java.util.Arrays.fill(mirrored, true);
                else for (String k : which.split(",")) mirrored[Integer.parseInt(k.trim())] = true;
                tap = new Tap(sim, Tap.Kind.MIRROR, null, mirrored, capture, pcapng);
            }
            default -> throw new IllegalArgumentException("tap must be sender, receiver, mirror or port, not '" + tapName + "'");
        }
        sim.tap = tap;
        sim.run();
        sim.recordHangs();
        sim.recordPauses();
        tap.close();
        if (truth != null) {
            sim.truth.write(truth, scenario, sc.description());
        }
        return new Result(scenario, tap.frames(), tap.seen() + tap.sampledOut(), tap.dropped(), tap.sampledOut(),
                sim.now, sim.eventsRun, sim.violations.size(), sim.flows.size());
    }
}
