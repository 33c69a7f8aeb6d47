package io.metaroce.gui;

import io.metaroce.filter.FilterException;
import java.nio.file.Path;

/**
 * The command line of {@code metaroce gui}, in Wireshark's words: {@code -r FILE} or a bare FILE (the capture to
 * open), {@code -Y FILTER} (the display filter to apply once it is open), {@code -h}. Parsed and checked before
 * any window opens, so that a typing mistake is one line on stderr and exit 2, as in the other commands, instead
 * of a window with an error dialog (or, before, a window that tried to open {@code --nosuch} as a file).
 * {@code --version} never gets here: the launcher answers it with the command line's version query.
 *
 * @param file the capture to open, or null
 * @param filter the display filter to apply to it, compiled once already (its text), or empty
 * @param help whether the user asked for the usage
 */
record GuiArgs(Path file, String filter, boolean help) {
    static final String USAGE = """
            Usage: metaroce gui [-r FILE | FILE] [-Y FILTER]
            Open a capture (pcap or pcapng) in the desktop analyzer.
              -r, --read-file FILE          the capture to open (a bare FILE too)
              -Y, --display-filter FILTER   show only the packets that match, once the capture is open
                                            (the display filter syntax of dissect -Y and Wireshark)
              -h, --help                    show this help and exit
                  --version                 print the version and exit""";

    /** A command line that cannot be used: its message is the line to print after {@code metaroce gui: }. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    static GuiArgs parse(String[] args) throws UsageException {
        String file = null, filter = null;
        boolean options = true;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (options && (a.equals("-h") || a.equals("--help"))) return new GuiArgs(null, "", true);
            String value = null, name = null;
            if (options && a.equals("--")) {
                options = false;
                continue;
            } else if (options && (a.equals("-r") || a.equals("--read-file") || a.equals("-Y") || a.equals("--display-filter"))) {
                name = a;
                if (i + 1 >= args.length) throw missing(a);
                value = args[++i];
            } else if (options && (a.startsWith("--read-file=") || a.startsWith("--display-filter="))) {
                name = a.substring(0, a.indexOf('='));
                value = a.substring(a.indexOf('=') + 1);
            } else if (options && a.length() > 2 && (a.startsWith("-r") || a.startsWith("-Y")) && !a.startsWith("--")) {
                // getopt's joined form, which Wireshark takes: -rFILE, -Y'bth.opcode == 17'.
                name = a.substring(0, 2);
                value = a.substring(2);
            } else if (options && a.startsWith("-") && !a.equals("-")) {
                // The other commands' words for it (Main's picocli handler): one line, the help named in it.
                throw new UsageException("unknown option '" + a + "' (see 'metaroce gui --help')");
            }
            if (name != null && (name.equals("-Y") || name.equals("--display-filter"))) {
                if (filter != null) throw new UsageException("one display filter at most (-Y given twice)");
                filter = value;
                continue;
            }
            // -r FILE, --read-file=FILE or a bare FILE.
            String f = value != null ? value : a;
            if (file != null) throw new UsageException("one capture file at most (got " + file + " and " + f + ")");
            if (f.equals("-")) {
                throw new UsageException("-: the desktop analyzer opens files, not standard input (save the capture"
                        + " first, or read it with 'metaroce dissect -r -')");
            }
            if (f.isEmpty()) throw new UsageException("an empty file name");
            file = f;
        }
        if (filter != null && file == null) {
            throw new UsageException("-Y needs a capture to filter: metaroce gui -r FILE -Y FILTER");
        }
        String compiled = "";
        if (filter != null) {
            try {
                compiled = GuiContext.compile(filter).text();
            } catch (FilterException e) {
                throw new UsageException("bad display filter: " + e.oneLine());
            }
        }
        Path path;
        try {
            path = file == null ? null : Path.of(file);
        } catch (java.nio.file.InvalidPathException e) {
            throw new UsageException(file + ": not a file name (" + e.getReason() + ")");
        }
        return new GuiArgs(path, compiled, false);
    }

    /** The other commands' words for an option without its value (dissect -Y, analyze -r). */
    private static UsageException missing(String option) {
        return new UsageException(option.equals("-r") || option.equals("--read-file") ? option + " needs a file name (FILE)"
                : option + " needs a display filter, e.g. " + option + " 'bth.opcode == 4'");
    }
}
