package io.metaroce.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the command knows about the terminal: whether stdout / stderr are one, and how wide it is. */
final class Terminal {
    private Terminal() {}

    /** Whether stderr is a terminal: progress bars go there and only there. */
    static boolean stderrIsTerminal() {
        if (System.getenv("METAROCE_PROGRESS") != null) return true;
        if (System.getenv("CI") != null) return false;
        return isTty(2);
    }

    static boolean stdoutIsTerminal() { return isTty(1); }

    /**
     * The width text tables are fitted to, or 0 (not at all): $COLUMNS when it is set (the launcher sets it from
     * the terminal when stdout is one; a user may set it for a pipe), else nothing, so a file or a pipe gets
     * whole lines.
     */
    static int columns() {
        String c = System.getenv("COLUMNS");
        if (c == null || !c.trim().matches("\\d{1,4}")) return 0;
        int n = Integer.parseInt(c.trim());
        return n >= 20 ? n : 0;
    }

    /** Linux: /proc/self/fd/N points to a tty; elsewhere System.console() (which asks about stdin and stdout). */
    private static boolean isTty(int fd) {
        try {
            Path p = Path.of("/proc/self/fd/" + fd);
            if (Files.exists(p)) {
                String t = Files.readSymbolicLink(p).toString();
                return t.startsWith("/dev/pts/") || t.startsWith("/dev/tty");
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // fall through
        }
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }
}
