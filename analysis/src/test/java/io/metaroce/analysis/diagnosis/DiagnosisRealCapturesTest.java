package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * No false diagnosis on real captures made by others (../shared/reference/external-pcaps, read in place): none
 * of their QPs died, none is on a minority marking, none has asymmetric MTUs. What SOURCES.md says they do
 * carry is expected, and only that: m3_rocev1_test mixes RoCEv1 requests with RoCEv2 answers between the same
 * two hosts; their capture loss (PSN gaps) and rewritten source ports are not failures.
 */
class DiagnosisRealCapturesTest {
    static Path dir() {
        String p = System.getProperty("metaroce.external");
        if (p != null && !p.isBlank()) return Files.isDirectory(Path.of(p)) ? Path.of(p) : null;
        for (String c : new String[] {"../../shared/reference/external-pcaps", "../shared/reference/external-pcaps",
                "/work/shared/reference/external-pcaps"}) {
            if (Files.isRegularFile(Path.of(c, "SOURCES.md"))) return Path.of(c);
        }
        return null;
    }

    @Test
    void realCapturesHaveNoFalseDiagnosis() throws Exception {
        Path d = dir();
        Assumptions.assumeTrue(d != null, "external captures not found (../shared/reference/external-pcaps or -Dmetaroce.external)");
        List<Path> files;
        try (Stream<Path> s = Files.list(d)) {
            files = s.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted().toList();
        }
        assertTrue(files.size() >= 10, "captures in " + d);
        List<String> wrong = new ArrayList<>();
        int mixes = 0;
        for (Path f : files) {
            Diagnoser dg = new Diagnoser();
            new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(dg).run(f);
            for (Finding x : dg.finish().findings()) {
                boolean expected = f.getFileName().toString().equals("m3_rocev1_test.pcap") && x.rule().equals("roce-version-mix");
                if (expected) mixes++;
                else wrong.add(f.getFileName() + ": " + x.rule() + " " + x.subject() + " " + x.summary());
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertEquals(1, mixes, "m3_rocev1_test: RoCEv1 requests answered in RoCEv2");
    }
}
