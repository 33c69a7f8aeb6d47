package io.metaroce.gui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The files opened last, newest first, kept in the user's config directory (one path per line). */
final class RecentFiles {
    static final int MAX = 10;
    private final Path store;

    RecentFiles(Path store) { this.store = store; }

    static Path defaultStore() { return ColoringRules.defaultFile().resolveSibling("recent"); }

    List<Path> list() {
        try {
            if (!Files.isRegularFile(store)) return List.of();
            List<Path> out = new ArrayList<>();
            for (String line : Files.readAllLines(store, StandardCharsets.UTF_8)) if (!line.isBlank()) out.add(Path.of(line.strip()));
            return out;
        } catch (IOException | RuntimeException e) {
            return List.of();   // an unreadable list only loses the menu entries
        }
    }

    void add(Path file) {
        List<Path> l = new ArrayList<>(list());
        Path abs = file.toAbsolutePath().normalize();
        l.remove(abs);
        l.addFirst(abs);
        while (l.size() > MAX) l.removeLast();
        try {
            Files.createDirectories(store.getParent());
            StringBuilder b = new StringBuilder();
            for (Path p : l) b.append(p).append('\n');
            Files.writeString(store, b.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            // A read-only config directory: the list is simply not remembered.
        }
    }
}
