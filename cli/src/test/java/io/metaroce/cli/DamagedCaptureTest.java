package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A capture cut in the middle of a block: every command keeps what was readable and says where the damage is. */
class DamagedCaptureTest {

    private static Path cut(Path tmp) throws Exception {
        byte[] all = Files.readAllBytes(Path.of("../samples/captures/rocev2-clean.pcapng"));
        return Files.write(tmp.resolve("cut.pcapng"), Arrays.copyOf(all, all.length / 2 + 7));
    }

    @Test
    void analyzeReportsTheDamageAndTheFramesBeforeIt(@TempDir Path tmp) throws Exception {
        Path f = cut(tmp);
        CliRun text = CliRun.of("analyze", "-r", f.toString());
        assertEquals(2, text.exit(), "every readable frame analyzed, but exit 2 (as tshark): " + text.err());
        assertTrue(text.out().matches("(?s).*Damaged capture \\(frames before the damage were analyzed\\): truncated block at byte \\d+.*"),
                text.out());
        CliRun json = CliRun.of("analyze", "-r", f.toString(), "-T", "json");
        assertTrue(json.out().contains("\"capture_problems\""), json.out());
        assertFalse(text.err().contains("\tat "), "no stack trace");
    }

    @Test
    void validateReportsTheDamageNextToItsVerdict(@TempDir Path tmp) throws Exception {
        CliRun r = CliRun.of("validate", cut(tmp).toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.out().contains(": DAMAGED "), "never PASS: " + r.out());
        assertTrue(r.out().matches("(?s).*damaged capture \\(frames before the damage were validated\\): truncated block at byte \\d+.*"),
                r.out());
        assertFalse(r.err().contains("\tat "), "no stack trace");
    }
}
