package io.metaroce.index;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Scratch files that a killed run cannot leave behind (the spills of evicted flows, the Solr backend's batches). */
public final class ScratchFiles {
    private ScratchFiles() {}

    /**
     * A new, empty file in dir (created if need be), named prefix..., open to read and write and already gone from
     * the directory: POSIX keeps an open file that was deleted, so a run killed with -9 leaves nothing behind; where
     * an open file cannot be deleted, {@code DELETE_ON_CLOSE} removes it when the channel closes.
     */
    public static FileChannel openUnlinked(Path dir, String prefix) throws IOException {
        Files.createDirectories(dir);
        Path name = Files.createTempFile(dir, prefix, ".spill");
        FileChannel file = FileChannel.open(name, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
        try {
            Files.delete(name);
        } catch (IOException e) {
            // Not where an open file cannot be deleted: DELETE_ON_CLOSE removes it when the channel closes.
        }
        return file;
    }
}
