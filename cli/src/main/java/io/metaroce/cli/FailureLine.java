package io.metaroce.cli;

/**
 * The one line a run that failed inside (a bug, or the JVM out of memory or stack) ends with: the user learns
 * what happened and what to do about it, never a stack trace ({@code METAROCE_DEBUG=1} adds it). Exit 2.
 */
final class FailureLine {
    private FailureLine() {}

    /** @param command the qualified command name, e.g. "metaroce analyze" */
    static String of(String command, Throwable t) {
        Throwable root = rootError(t);
        if (root instanceof OutOfMemoryError) {
            long mib = Runtime.getRuntime().maxMemory() >> 20;
            return command + ": out of memory (" + (root.getMessage() != null ? root.getMessage() + "; " : "") + "the heap limit is "
                    + mib + " MiB); allow more with METAROCE_JAVA_OPTS=-Xmx" + Math.max(2, 2 * ((mib + 1023) / 1024)) + "g";
        }
        if (root instanceof InternalError && root.getMessage() != null && root.getMessage().contains("unsafe memory access")) {
            // The JVM's answer to a SIGBUS on a mapped file: the capture got shorter than its mapping while it was
            // read (a ring of captures overwritten in place, a file truncated by another program), not a bug.
            return command + ": a capture file got shorter while it was read (another program truncated or rewrote it); "
                    + "read it again once it no longer changes, or read a copy";
        }
        if (root instanceof StackOverflowError) {
            return command + ": internal error: stack overflow (METAROCE_DEBUG=1 shows where; please report it)";
        }
        return command + ": internal error: " + t;
    }

    /** Prints the line for a run that failed (with METAROCE_DEBUG, the stack trace after it) and returns its exit code, 2. */
    static int print(java.io.PrintWriter err, String command, Throwable t) {
        err.println(of(command, t));
        if (System.getenv("METAROCE_DEBUG") != null) t.printStackTrace(err);
        err.flush();
        return 2;
    }

    /** The OutOfMemoryError or StackOverflowError behind a wrapper (an executor's), else t itself. */
    private static Throwable rootError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof VirtualMachineError) return c;
            if (c.getCause() == c) break;
        }
        return t;
    }
}
