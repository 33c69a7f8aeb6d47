package io.metaroce.analysis;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Real captures published by others (../shared/reference/external-pcaps, described by its SOURCES.md), read in
 * place: never copied into the repository (some carry no licence). Tests skip with a message when absent.
 * Override the folder with {@code -Dmetaroce.external=DIR}.
 */
final class ExternalCaptures {
    static final String SKIP = "external captures not found (../shared/reference/external-pcaps or -Dmetaroce.external)";

    private ExternalCaptures() {}

    /** The folder, or null when this checkout has none. */
    static Path dir() {
        String p = System.getProperty("metaroce.external");
        if (p != null && !p.isBlank()) return Files.isDirectory(Path.of(p)) ? Path.of(p) : null;
        for (String c : new String[] {"../../shared/reference/external-pcaps", "../shared/reference/external-pcaps"}) {
            Path d = Path.of(c);
            if (Files.isRegularFile(d.resolve("SOURCES.md"))) return d;
        }
        return null;
    }

    /** One capture of the folder, or null when the folder or the file is absent. */
    static Path file(String name) {
        Path d = dir();
        return d == null || !Files.isRegularFile(d.resolve(name)) ? null : d.resolve(name);
    }
}
