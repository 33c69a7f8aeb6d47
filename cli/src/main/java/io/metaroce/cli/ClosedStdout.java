package io.metaroce.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.PrintStream;

/**
 * Stdout was closed by its reader ({@code metaroce analyze ... | head}). {@link PrintStream} hides the broken
 * pipe (it only sets an error flag), so a command would go on to the end of a multi-GB capture for nobody;
 * {@link Guard} turns the flag into this exception, which the command catches to exit quietly.
 */
final class ClosedStdout extends IOException {
    private static final long serialVersionUID = 1L;

    ClosedStdout() { super("stdout closed", null); }

    /** Writes to a PrintStream and throws {@link ClosedStdout} once it has failed. */
    static final class Guard extends FilterOutputStream {
        private final PrintStream ps;

        Guard(PrintStream ps) {
            super(ps);
            this.ps = ps;
        }

        @Override
        public void write(int b) throws IOException {
            ps.write(b);
            check();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ps.write(b, off, len);
            check();
        }

        @Override
        public void flush() throws IOException {
            check(); // checkError() flushes
        }

        private void check() throws ClosedStdout {
            if (ps.checkError()) throw new ClosedStdout();
        }
    }
}
