package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Accuracy against the simulator's ground truth (issue 4, item 8): every committed sample under
 * samples/captures, and when the simulator is on the test class path every scenario again at the sender tap,
 * the receiver tap and a mirror. Prints precision and recall of the per-frame labels (retransmission,
 * spurious, out of order), per-flow count mismatches and the per-path blame, and asserts precision and recall
 * of at least 0.99 over all captures. Extra directories: {@code -Dmetaroce.samples=dir1,dir2}.
 */
class SimulatorAccuracyTest {
    static final double TARGET = 0.99;

    @Test
    void labelsMatchTheGroundTruth() throws Exception {
        List<Path[]> captures = new ArrayList<>();
        for (Path dir : dirs()) captures.addAll(Accuracy.pairs(dir));
        Assumptions.assumeFalse(captures.isEmpty(), "no simulator captures with truth found");
        Map<String, Accuracy.Counts> total = new LinkedHashMap<>();
        for (String l : Accuracy.LABELS) total.put(l, new Accuracy.Counts());
        long spuriousUnknown = 0, countMismatches = 0, pathsWrong = 0, pathsOk = 0, causeAgree = 0, causeTotal = 0, causeAgreeS = 0, causeTotalS = 0;
        StringBuilder report = new StringBuilder("\nAnalysis accuracy against the simulator's ground truth\n");
        for (Path[] p : captures) {
            String name = p[0].getParent().getFileName() + "/" + p[0].getFileName();
            Accuracy.Score s = Accuracy.score(name, p[0], p[1], AnalysisSettings.DEFAULT);
            report.append(String.format("%-62s tap %-22s", name, s.tap));
            for (String l : Accuracy.LABELS) {
                Accuracy.Counts c = s.labels.get(l);
                total.get(l).add(c);
                report.append(String.format(" %s P%.3f R%.3f", l.substring(0, 4), c.precision(), c.recall()));
            }
            report.append('\n');
            for (String m : s.mismatches.subList(0, Math.min(8, s.mismatches.size()))) report.append("    ").append(m).append('\n');
            if (s.mismatches.size() > 8) report.append("    ... ").append(s.mismatches.size() - 8).append(" more\n");
            for (String m : s.countMismatches) report.append("    count: ").append(m).append('\n');
            for (String m : s.pathFindings) report.append("    path:  ").append(m).append('\n');
            countMismatches += s.countMismatches.size();
            spuriousUnknown += s.spuriousUnknown;
            causeAgree += s.causeAgree;
            causeTotal += s.causeTotal;
            long wrongAtS = s.causeMismatches.stream().filter(m -> m.endsWith(" S")).count();
            long totalAtS = s.causeTotalSender;
            causeAgreeS += totalAtS - wrongAtS;
            causeTotalS += totalAtS;
            for (String f : s.pathFindings) if (f.startsWith("WRONG")) pathsWrong++; else pathsOk++;
        }
        report.append(String.format("TOTAL over %d captures:%n", captures.size()));
        for (Map.Entry<String, Accuracy.Counts> e : total.entrySet()) report.append(String.format("  %-15s %s%n", e.getKey(), e.getValue()));
        report.append(String.format("  retransmission cause agrees on %d of %d frames (%d of %d where the requester's own tap shows its decisions)%n",
                causeAgree, causeTotal, causeAgreeS, causeTotalS));
        report.append(String.format("  spurious unknown (no evidence either way, not scored): %d retransmissions%n", spuriousUnknown));
        report.append(String.format("  per-flow count mismatches: %d; per-path blame: %d right, %d wrong%n", countMismatches, pathsOk, pathsWrong));
        System.out.println(report);
        for (Map.Entry<String, Accuracy.Counts> e : total.entrySet()) {
            assertTrue(e.getValue().precision() >= TARGET, e.getKey() + " precision " + e.getValue());
            assertTrue(e.getValue().recall() >= TARGET, e.getKey() + " recall " + e.getValue());
        }
        assertTrue(pathsWrong == 0, "per-path losses blame the wrong path");
    }

    /** Committed samples, captures generated for the other taps, and any -Dmetaroce.samples directories. */
    static List<Path> dirs() throws Exception {
        List<Path> dirs = new ArrayList<>();
        String extra = System.getProperty("metaroce.samples");
        if (extra != null && !extra.isBlank()) for (String d : extra.split(",")) dirs.add(Path.of(d.trim()));
        Path committed = Path.of("../samples/captures");
        if (extra == null) dirs.add(committed);
        Path gen = generateOtherTaps();
        if (gen != null && extra == null) dirs.add(gen);
        return dirs;
    }

    /**
     * Variants beyond the committed samples: other seeds, heavier loss, several QPs, mixed and READ/atomic
     * workloads, IPv6, no CM (pairing from PSNs). Each runs at the three taps.
     */
    static final String[][] VARIANTS = {
        {"gbn-heavy", "rocev2-gbn-loss", "seed=2", "loss=0.05", "messages=20"},
        {"gbn-3qp-mixed", "rocev2-gbn-loss", "seed=3", "loss=0.03", "qps=3", "messages=12", "workload=mixed"},
        {"read-atomic-lossy", "rocev2-read-atomic", "seed=5", "loss=0.03", "messages=30"},
        {"gbn-ipv6-nocm", "rocev2-gbn-loss", "seed=15", "cm=false", "loss=0.03", "qps=2", "ipv6=true"},
        {"spray-heavy", "metaroce-spray-lossy-path", "seed=7", "loss=0.05", "messages=30"},
        {"spray-all-lossy", "metaroce-spray-lossy-path", "seed=8", "loss=0.02", "lossy-path=-1", "messages=30"},
        {"spray-read-atomic", "metaroce-spray-lossy-path", "seed=9", "loss=0.03", "workload=read-atomic", "messages=30"},
        {"spray-nocm", "metaroce-spray-lossy-path", "seed=14", "cm=false", "loss=0.03"},
        {"path-down-long", "metaroce-path-down", "seed=11", "messages=40"},
    };

    /** Runs every scenario (and the variants) at the sender, receiver and mirror taps, when the simulator is on the class path. */
    static Path generateOtherTaps() throws Exception {
        Class<?> sim;
        try {
            sim = Class.forName("io.metaroce.samples.Simulator");
        } catch (ClassNotFoundException e) {
            return null;
        }
        Path out = Path.of("target/sim-captures");
        if (Files.isDirectory(out)) {
            try (var files = Files.list(out)) {
                for (Path f : files.toList()) Files.delete(f);
            }
        }
        Files.createDirectories(out);
        @SuppressWarnings("unchecked")
        List<String> names = (List<String>) sim.getMethod("scenarios").invoke(null);
        Method params = sim.getMethod("params", String.class);
        Method run = null;
        for (Method m : sim.getMethods()) {
            if (m.getName().equals("run") && m.getParameterCount() == 4 && m.getParameterTypes()[2] == Path.class) run = m;
        }
        if (run == null) return null;
        List<String[]> jobs = new ArrayList<>();
        for (String name : names) if (!name.startsWith("conformance")) jobs.add(new String[] {name, name});
        for (String[] v : VARIANTS) if (names.contains(v[1])) jobs.add(v);
        for (String[] job : jobs) {
            for (String tap : new String[] {"sender", "receiver", "mirror"}) {
                Object p = params.invoke(null, job[1]);
                Method set = p.getClass().getMethod("set", String.class, String.class);
                set.invoke(p, "tap", tap);
                for (int k = 2; k < job.length; k++) {
                    String[] kv = job[k].split("=", 2);
                    set.invoke(p, kv[0], kv[1]);
                }
                run.invoke(null, job[1], p, out.resolve(job[0] + "@" + tap + ".pcapng"), out.resolve(job[0] + "@" + tap + ".truth.json"));
            }
        }
        return out;
    }
}
