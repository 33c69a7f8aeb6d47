package io.metaroce.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run of the launcher's ahead-of-time caches (JDK 25: classes loaded and linked, lambdas and method
 * handles resolved, method profiles; JEP 483/514/515). A cache holds what its training run used, so the run does
 * what users do with one command, on a bundled sample: {@code dissect} (summary, -q, -T jsonl, -T json), {@code
 * analyze} (text, -T json), {@code validate} (text, -T json, sarif, junit; {@code validate-plain}, the launcher's cache
 * for {@code validate FILE} alone, text only), {@code index} (the sample's directory into
 * a temporary index, then the generated capture below; {@code index-new}, the launcher's cache for indexing into a new
 * index in the plain form, both into a new index in one run), {@code search} (text, jsonl, json, a sort and an exact top)
 * or {@code extract} (one query into a temporary pcapng); {@code version} ({@code --version}) and {@code help} ({@code
 * --help}, then no argument) for the launcher's caches of what a user types first. A command the training did not cover still works: it
 * spins its lambdas at start. The output goes wherever stdout goes (the launcher discards it); exit codes do not
 * matter here.
 *
 * <p>{@code analyze} and {@code validate} also run over a generated capture of {@value #TRAINING_FRAMES} frames: the
 * 79-frame sample leaves the per-frame methods without profiles, so every big run collected them again in slow
 * profiled code (C1 tier 3) before C2 compiled them. With the training's profiles in the cache they go from the quick C1 tier straight to C2
 * (JEP 515; docs/benchmarks.md, "helper jit": analyze of 1 M frames -12 % CPU). {@code validate} is trained on the same
 * capture (pipelined, as a big file is: its frame stages on both threads get profiles too), and the launcher runs a
 * big validation without on-stack replacement: the training's loop counts made C2 compile the rules' long methods
 * twice, once for a loop (OSR) and once whole, and that cancelled the gain (docs/benchmarks.md, "helper val, sixth
 * session"). The same training made C2 work more for {@code dissect -q} of 1 M frames (+5-8 % CPU), so it stays
 * trained on the sample; below 256 MiB (analyze and index: 1 GiB) the launcher runs C1 alone, which uses no
 * profiles.
 * {@code index} indexes the generated capture too, for its classes rather than profiles: a big capture is a pcap file
 * (the samples are pcapng), read on two threads (the pipeline), hashed in the pass; trained on the samples alone,
 * indexing the 1 M-frame capture loaded 89 classes from the jar or spun them at start, 66 since (index of 1 M frames
 * 1.060 -> 1.030 s CPU, of the 79-frame sample 0.340 -> 0.330, medians of 12 and 20 interleaved runs).
 *
 * <p>{@code search} and {@code extract} need an index, and the training capture is written by {@code simulate}: both
 * are made in a child JVM (which writes no cache), so that the caches do not carry the indexer, the analysis engine or
 * the simulator, which the JVM would load at every start. Every temporary file is deleted before the training ends.
 *
 * <p>Usage: {@code AotTraining SAMPLE COMMAND...}
 */
final class AotTraining {
    private AotTraining() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        // The launcher's caches for what a user types first: the version query and the top usage. Nothing else runs
        // in these trainings (no temporary directory: its random name alone loads the JDK's SecureRandom), because
        // every class the training loads is loaded again at each start from the cache.
        if (args.length == 2 && args[1].equals("version")) {
            FrontDoor.main(new String[] {"--version"});   // answered before picocli; returns without System.exit
            return;
        }
        if (args.length == 2 && args[1].equals("help")) {
            FrontDoor.run(new String[] {"--help"});
            FrontDoor.run(new String[] {});   // no command: the same usage on stderr, and picocli's error path
            System.out.flush();
            return;
        }
        Path sample = Path.of(args[0]);
        String s = sample.toString();
        Path tmp = Files.createTempDirectory("metaroce-aot-training");
        try {
            List<String[]> runs = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "dissect" -> {
                        runs.add(new String[] {"dissect", "-r", s, "-q"});
                        runs.add(new String[] {"dissect", "-r", s, "-T", "jsonl"});
                        runs.add(new String[] {"dissect", "-r", s, "-T", "json"});
                        runs.add(new String[] {"dissect", "-r", s});
                    }
                    case "analyze" -> {
                        runs.add(new String[] {"analyze", "-r", trainingCapture(tmp).toString()});
                        // --check-icrc's pass (the ICRC on the decoding thread, no FillSplit): its classes and
                        // profiles, otherwise read from the jar and profiled anew at every such start.
                        runs.add(new String[] {"analyze", "--check-icrc", "-r", trainingCapture(tmp).toString()});
                        runs.add(new String[] {"analyze", "-r", s});
                        runs.add(new String[] {"analyze", "-r", s, "-T", "json"});
                        for (Path other : otherSamples(sample)) runs.add(new String[] {"analyze", "-r", other.toString()});
                    }
                    case "validate-plain", "validate" -> {
                        runs.add(new String[] {"validate", trainingCapture(tmp).toString()});
                        runs.add(new String[] {"validate", s});
                        // The samples with problems, as analyze's training has them: their findings' classes (Finding,
                        // Anchor, the rules' messages), which a capture with findings otherwise read from the jar,
                        // opening it (~1 MB of central directory) at the first finding.
                        for (Path other : otherSamples(sample)) runs.add(new String[] {"validate", other.toString()});
                        // The machine formats (CI's): -T json and sarif write with Jackson, some 400 classes that were
                        // otherwise read from the jar and verified at every such start; junit's writer and lambdas too.
                        // Not for validate FILE alone (FrontDoor's plain form, the launcher's cache for it): the JVM
                        // would load their classes at every start of that form too.
                        if (args[i].equals("validate")) {
                            for (String format : new String[] {"json", "sarif", "junit"}) runs.add(new String[] {"validate", s, "-T", format});
                        }
                    }
                    case "index" -> {
                        // The samples through picocli (--tap auto is the default, given so that the line is not index's
                        // plain form, FrontDoor.plainIndex), so that the forms with other options (--expire-before,
                        // --split, --threads, --solr) still find picocli in the cache; the big capture in the plain form.
                        runs.add(new String[] {"index", String.valueOf(sample.toAbsolutePath().getParent()),
                                "--index", tmp.resolve("index").toString(), "--no-progress", "--tap", "auto"});
                        runs.add(new String[] {"index", trainingCapture(tmp).toString(), "--index", tmp.resolve("index").toString(),
                                "--no-progress"});
                    }
                    case "index-new" -> {
                        // index into a new index in the plain form (the launcher's cache for it): the samples (captures
                        // with problems: their events' and findings' classes) and the generated pcap, in one run, as a
                        // user indexes a directory; no picocli, no reader of an existing index.
                        runs.add(new String[] {"index", String.valueOf(sample.toAbsolutePath().getParent()), trainingCapture(tmp).toString(),
                                "--index", tmp.resolve("new-index").toString(), "--no-progress"});
                    }
                    case "search" -> {
                        String index = sampleIndex(sample, tmp).toString();
                        runs.add(new String[] {"search", "--index", index, "*:*"});
                        runs.add(new String[] {"search", "--index", index, "retransmitted_packets:[1 TO *]", "--sort", "retransmitted_packets"});
                        runs.add(new String[] {"search", "--index", index, "src:10.0.0.0/8 AND naks:>=0", "-T", "jsonl"});
                        runs.add(new String[] {"search", "--index", index, "*:*", "-T", "json"});
                        runs.add(new String[] {"search", "--index", index, "*:*", "--top", "dest_qp", "--by", "naks"});
                    }
                    case "extract" -> runs.add(new String[] {"extract", "--index", sampleIndex(sample, tmp).toString(), "*:*",
                            "-w", tmp.resolve("extract.pcapng").toString()});
                    default -> throw new IllegalArgumentException("no training for " + args[i]);
                }
            }
            for (String[] run : runs) FrontDoor.run(run);
            System.out.flush();
        } finally {
            deleteTree(tmp);
        }
    }

    /**
     * The other bundled samples beside the sample, sorted: analyze's findings (events, diagnosis, their text) are
     * classes and string concatenations the clean sample never reaches, which a capture with problems otherwise loads
     * from the jar or generates at every start.
     */
    private static List<Path> otherSamples(Path sample) throws IOException {
        Path dir = sample.toAbsolutePath().getParent();
        try (Stream<Path> all = Files.list(dir)) {
            return all.filter(p -> p.getFileName().toString().endsWith(".pcapng") && !p.getFileName().equals(sample.getFileName()))
                    .sorted().toList();
        }
    }

    /** An index of the sample, made by {@code metaroce index} in a child JVM (see the class comment), or the one made before. */
    private static Path sampleIndex(Path sample, Path tmp) throws IOException, InterruptedException {
        Path index = tmp.resolve("sample-index");
        if (!Files.isDirectory(index)) inChildJvm("index", sample.toString(), "--index", index.toString(), "--no-progress");
        return index;
    }

    /** Frames of the generated training capture: enough for the per-frame methods to reach C2 in the training run
     * (-XX:+CITime: tier-3 compilations of analyze on 1 M frames 106-191 methods with the sample's profiles, 22 with these). */
    static final int TRAINING_FRAMES = 50_000;

    /** A clean RoCEv2 capture of {@link #TRAINING_FRAMES} frames, written by {@code simulate} in a child JVM. */
    private static Path trainingCapture(Path tmp) throws IOException, InterruptedException {
        Path capture = tmp.resolve("training.pcap");
        if (!Files.isRegularFile(capture)) {
            inChildJvm("simulate", "--scenario", "rocev2-clean", "--frames", String.valueOf(TRAINING_FRAMES),
                    "--out", capture.toString(), "--no-progress");
        }
        return capture;
    }

    /** Runs a metaroce command in a child JVM of this jar, without the training's cache output. */
    private static void inChildJvm(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xlog:disable", "-Xlog:all=off", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) throw new IOException("the training's child run failed: " + cmd);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
