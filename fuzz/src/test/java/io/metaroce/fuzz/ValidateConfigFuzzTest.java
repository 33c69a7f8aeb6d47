package io.metaroce.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.metaroce.validate.ValidateSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;

/**
 * {@code validate --config FILE}: the YAML loader ({@link ValidateSettings.Builder#config}) on arbitrary bytes.
 * Contract: it either builds settings or refuses with an {@link IOException} (unreadable or malformed YAML) or an
 * {@link IllegalArgumentException} (unknown key, bad value), both of which the CLI turns into a message.
 */
class ValidateConfigFuzzTest {
    private static final Path FILE = tempFile();

    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "5m")
    void loadAnyConfig(byte[] input) throws IOException {
        Files.write(FILE, input);
        try {
            new ValidateSettings.Builder().config(FILE).build();
        } catch (IOException | IllegalArgumentException e) {
            if (e.getMessage() == null || e.getMessage().isBlank()) throw new AssertionError("refusal without a message", e);
        }
    }

    @AfterAll
    static void cleanUp() throws IOException {
        Files.deleteIfExists(FILE);
    }

    private static Path tempFile() {
        try {
            return Files.createTempFile("metaroce-fuzz-config", ".yaml");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
