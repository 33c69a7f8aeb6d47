package io.metaroce.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether stderr is a terminal (Linux: /proc/self/fd/2 points to a tty), for the live status line. */
final class Terminal {
    private Terminal() {}

    static boolean stderrIsTerminal() {
        try {
            Path fd = Path.of("/proc/self/fd/2");
            if (Files.exists(fd)) {
                String t = Files.readSymbolicLink(fd).toString();
                return t.startsWith("/dev/pts/") || t.startsWith("/dev/tty");
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // fall through
        }
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }
}
