package io.metaroce.gui.search;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The flow index directory searched last, kept in the user's GUI config beside the recent files (one line). */
public final class LastIndex {
    private final Path store;

    public LastIndex(Path store) { this.store = store; }

    /** The remembered directory, or null (none yet, or the file is unreadable). */
    public Path load() {
        try {
            if (!Files.isRegularFile(store)) return null;
            String line = Files.readString(store, StandardCharsets.UTF_8).strip();
            return line.isEmpty() ? null : Path.of(line);
        } catch (IOException | RuntimeException e) {
            return null;     // an unreadable file only loses the remembered directory
        }
    }

    public void save(Path dir) {
        try {
            Files.createDirectories(store.toAbsolutePath().getParent());
            Files.writeString(store, dir.toAbsolutePath().normalize() + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            // a read-only config directory: the directory is simply not remembered
        }
    }
}
