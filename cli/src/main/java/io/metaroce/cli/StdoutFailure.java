package io.metaroce.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Standard output that failed for a reason other than its reader going away: a full disk ({@code > out.txt} on a full
 * file system, {@code > /dev/full}), a file that cannot grow. {@link java.io.PrintStream} keeps only an error flag, and
 * the commands take that flag for a closed pipe ({@link ClosedStdout}: {@code | head} ends a run quietly, exit 0), so
 * such a run exited 0 with its output cut short. At the end of every command, a failed stdout that is not a pipe or a
 * socket is said in one line and the exit code becomes 2 (README, exit codes).
 */
final class StdoutFailure {
    private StdoutFailure() {}

    /** The exit code of a command line that ended with code, after the check (stdout flushed first). */
    static int exitCode(int code, String[] args) {
        if (!System.out.checkError()) return code;
        String target = target();
        if (target == null) return code;
        String command = args.length > 0 && !args[0].startsWith("-") ? " " + args[0] : "";
        System.err.println("metaroce" + command + ": cannot write to standard output (" + target
                + "): the disk is full or the output cannot grow; what was written is incomplete");
        return Math.max(code, 2);
    }

    /**
     * What standard output is when it is neither a pipe nor a socket (a file, a device), or null: a pipe or a socket
     * fails when its reader went away, which is not an error; so does a system without /proc (nothing is said, as before).
     */
    static String target() {
        try {
            String t = Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
            return t.startsWith("pipe:") || t.startsWith("socket:") ? null : t;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }
}
