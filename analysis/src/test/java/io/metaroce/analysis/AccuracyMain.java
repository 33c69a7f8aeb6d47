package io.metaroce.analysis;

import java.nio.file.Path;

/** Developer tool: {@code AccuracyMain DIR [verbose]} scores every capture + truth pair in DIR. */
public final class AccuracyMain {
    public static void main(String[] args) throws Exception {
        boolean verbose = args.length > 1;
        Accuracy.Counts[] tot = {new Accuracy.Counts(), new Accuracy.Counts(), new Accuracy.Counts()};
        for (Path[] p : Accuracy.pairs(Path.of(args[0]))) {
            if (args.length > 2 && !p[0].getFileName().toString().contains(args[2])) continue;
            Accuracy.Score s = Accuracy.score(p[0].getFileName().toString(), p[0], p[1], AnalysisSettings.DEFAULT);
            System.out.printf("%-46s %-20s", p[0].getFileName(), s.tap);
            for (int i = 0; i < 3; i++) {
                Accuracy.Counts c = s.labels.get(Accuracy.LABELS[i]);
                tot[i].add(c);
                System.out.printf(" %s %d/%d/%d", Accuracy.LABELS[i].substring(0, 4), c.tp, c.fp, c.fn);
            }
            System.out.printf(" cause %d/%d%n", s.causeAgree, s.causeTotal);
            if (verbose) {
                s.causeMismatches.forEach(m -> System.out.println("   " + m));
                s.mismatches.forEach(m -> System.out.println("   " + m));
                s.countMismatches.forEach(m -> System.out.println("   count " + m));
                s.pathFindings.forEach(m -> System.out.println("   path " + m));
            }
        }
        for (int i = 0; i < 3; i++) System.out.println(Accuracy.LABELS[i] + " " + tot[i]);
    }
}
