package io.metaroce.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.metaroce.analysis.diagnosis.NcclWarning;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The NCCL/UCX log reader of {@code --nccl} ({@code analyze}, {@code search}, {@code extract}, the GUI's NCCL bar) on
 * arbitrary bytes, read as {@code NcclOption} reads a log (Latin-1, every byte a character). Contract: it never
 * throws and never hangs; it finds at most one warning per line; every warning it finds has a line inside the input
 * and gives its report line, meaning, JSON map and lookup keys without throwing; a QP number fits in 24 bits; the
 * peer addresses are ones a flow id can carry.
 */
class NcclLogFuzzTest {

    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "5m")
    void scanAnyLog(byte[] input) {
        String text = new String(input, StandardCharsets.ISO_8859_1);
        List<String> lines = List.of(text.split("\\R", -1));
        List<NcclWarning> found = NcclWarning.scan(lines);
        if (found.size() > lines.size()) throw new AssertionError(found.size() + " warnings in " + lines.size() + " lines");
        for (NcclWarning w : found) {
            for (String part : w.line().split("\n")) {
                if (!text.contains(part)) throw new AssertionError("warning line not in the input: " + part);
            }
            if (w.describe().isEmpty() || w.meaning().isEmpty() || w.kind().isEmpty()) throw new AssertionError("empty report for " + w);
            w.toJsonMap();
            w.statusName();
            for (Integer q : new Integer[] {w.qpNum(), w.remoteQp()}) {
                if (q != null && (q < 0 || q > 0xFFFFFF)) throw new AssertionError("QP " + q + " beyond 24 bits: " + w);
            }
            for (String a : w.peerAddresses()) {
                if (a.isEmpty() || a.chars().anyMatch(c -> !(Character.isLetterOrDigit(c) || c == '.' || c == ':'))) {
                    throw new AssertionError("peer address '" + a + "' of " + w);
                }
            }
        }
        // One line alone, as a pasted warning is first tried.
        NcclWarning one = NcclWarning.parse(text);
        if (one != null) one.describe();
    }
}
