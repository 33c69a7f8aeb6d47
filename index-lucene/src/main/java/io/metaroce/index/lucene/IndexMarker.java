package io.metaroce.index.lucene;

import io.metaroce.index.FlowSchema;
import io.metaroce.index.IndexFormatException;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The file that says a directory is a flow index and of which schema version: checked before Lucene touches
 * the directory, so another program's directory is never written into, and an index of another version gets
 * one line instead of wrong answers.
 */
final class IndexMarker {
    static final String FILE = "metaroce-index.properties";
    /**
     * How this backend lays the schema out in Lucene (2: the whole document stored as one value, counters as doc
     * values; 3: as 2, but a flow document's usual counters get no doc value when 0, see
     * {@link LuceneDocuments#SPARSE_COUNTERS}; 4: as 3, but the stored value names fields by code, see
     * {@link StoredFlows}, the marker records the field order those codes stand for, and a long flow's packed frame
     * numbers and offsets are binary doc values, not in the stored value, see {@link StoredFlows#apart}); an index
     * of another layout (none: layout 1) was written by another metaroce and is refused like another schema: a
     * layout-2 metaroce would not see a layout-3 index's zero counters, a layout-3 one could not read layout 4's
     * codes nor find its packets.
     */
    static final String LAYOUT = "4";

    private IndexMarker() {}

    /** Checks an existing index directory (any problem is one line naming the directory). */
    static void check(Path dir) throws IndexFormatException {
        if (!Files.exists(dir)) throw new IndexFormatException(dir + ": no flow index there (create one with: metaroce index CAPTURES --index " + dir + ")");
        if (!Files.isDirectory(dir)) throw new IndexFormatException(dir + ": is a file, not a flow index directory");
        Path marker = dir.resolve(FILE);
        if (!Files.exists(marker)) throw new IndexFormatException(dir + ": not a metaroce flow index (no " + FILE + ")");
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(marker, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new IndexFormatException(dir + ": " + FILE + " is unreadable (" + e.getMessage() + ")");
        }
        String v = p.getProperty("schema");
        if (Integer.toString(FlowSchema.VERSION).equals(v) && !LAYOUT.equals(p.getProperty("layout"))) {
            throw new IndexFormatException(dir + ": flow index written by an earlier metaroce (Lucene layout "
                    + p.getProperty("layout", "1") + ", this one writes " + LAYOUT + "); index the captures again into a new directory");
        }
        if (LAYOUT.equals(p.getProperty("layout")) && !StoredFlows.SCHEMA_FINGERPRINT.equals(p.getProperty("fields"))) {
            // The stored values' field codes are positions in the schema: another order would read wrong names.
            throw new IndexFormatException(dir + ": flow index written by a metaroce with another field order (fields "
                    + p.getProperty("fields") + ", this one " + StoredFlows.SCHEMA_FINGERPRINT + "); index the captures again into a new directory");
        }
        if (!Integer.toString(FlowSchema.VERSION).equals(v)) {
            throw new IndexFormatException(dir + ": flow index of schema version " + v + "; this metaroce reads version "
                    + FlowSchema.VERSION + " (index the captures again into a new directory)");
        }
    }

    /** Makes a new index directory, or checks an existing one; an empty existing directory is adopted. */
    static void createOrCheck(Path dir) throws IOException {
        if (Files.isDirectory(dir) && !Files.exists(dir.resolve(FILE))) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) throw new IndexFormatException(dir + ": not empty and not a metaroce flow index (no " + FILE + "); give a new or empty directory");
            }
        } else if (Files.exists(dir)) {
            check(dir);
            return;
        }
        try {
            Files.createDirectories(dir);
        } catch (java.nio.file.FileSystemException e) {
            // A parent that is a file, a read-only file system, no permission: one line, not an internal error.
            Path existing = dir.toAbsolutePath().getParent();
            while (existing != null && !Files.exists(existing)) existing = existing.getParent();
            String why = existing != null && !Files.isDirectory(existing) ? existing + " is a file, not a directory"
                    : e.getReason() != null ? e.getReason().toLowerCase(java.util.Locale.ROOT) : "cannot create " + e.getFile();
            throw new IndexFormatException(dir + ": cannot create the flow index directory: " + why);
        }
        Path tmp = dir.resolve(FILE + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write("# metaroce flow index (embedded Lucene); do not edit\nschema=" + FlowSchema.VERSION + "\nlayout=" + LAYOUT + "\nfields="
                    + StoredFlows.SCHEMA_FINGERPRINT + "\n");
        }
        try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        try {
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
