package io.metaroce.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Why a file a command was asked to write cannot be, or why an I/O call failed, in plain words: never a Java exception's name. */
final class OutputFiles {
    private OutputFiles() {}

    /** Why f cannot be written, asked before any work starts, or null. */
    static String unwritable(Path f) {
        // An empty name is the working directory to Path: "cannot write : it is a directory" said nothing useful.
        if (f.toString().isEmpty()) return "the file name is empty";
        Path dir = f.toAbsolutePath().getParent();
        if (Files.isDirectory(f)) return "it is a directory";
        if (dir == null || !Files.isDirectory(dir)) return "no such directory: " + dir;
        if (Files.exists(f) ? !Files.isWritable(f) : !Files.isWritable(dir)) return "permission denied";
        return null;
    }

    /** A failed read or write (the directory went away, the disk is full), naming the file where the exception does. */
    static String failure(IOException e) {
        return e instanceof NoSuchFileException ? "no such file or directory: " + e.getMessage()
                : e instanceof AccessDeniedException ? "permission denied: " + e.getMessage()
                : e instanceof FileSystemException f ? f.getFile() + ": " + f.getReason() : e.getMessage();
    }
}
