package io.metaroce.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The training run of the launcher's ahead-of-time caches (JDK 25: classes loaded and linked, lambdas and method
 * handles resolved, method profiles; JEP 483/514/515). A cache holds what its training run used, so the run does
 * what users do with one command, on a bundled sample: {@code dissect} (summary, -q, -T jsonl, -T json), {@code
 * analyze} (text, -T json) or {@code validate}. A command the training did not cover still works: it spins its
 * lambdas at start. The output goes wherever stdout goes (the launcher discards it); exit codes do not matter here.
 *
 * <p>Usage: {@code AotTraining SAMPLE COMMAND...}
 */
final class AotTraining {
    private AotTraining() {}

    public static void main(String[] args) {
        String sample = args[0];
        List<String[]> runs = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "dissect" -> {
                    runs.add(new String[] {"dissect", "-r", sample, "-q"});
                    runs.add(new String[] {"dissect", "-r", sample, "-T", "jsonl"});
                    runs.add(new String[] {"dissect", "-r", sample, "-T", "json"});
                    runs.add(new String[] {"dissect", "-r", sample});
                }
                case "analyze" -> {
                    runs.add(new String[] {"analyze", "-r", sample});
                    runs.add(new String[] {"analyze", "-r", sample, "-T", "json"});
                }
                case "validate" -> runs.add(new String[] {"validate", sample});
                default -> throw new IllegalArgumentException("no training for " + args[i]);
            }
        }
        for (String[] run : runs) Main.run(run);
        System.out.flush();
    }
}
