package io.metaroce.gui;

import io.metaroce.dissector.DecodeAs;
import io.metaroce.filter.FilterException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@code metaroce gui}, in Wireshark's words: {@code -r FILE} or a bare FILE (the capture to
 * open), {@code -Y FILTER} (the display filter to apply once it is open), {@code -d udp.port==N,roce} (Decode As, as
 * the other commands' {@code -d}: the same forms and the same error lines, from the same parser), {@code -C PROFILE}
 * (Wireshark's: start in that configuration profile, which must exist), {@code -h}. Parsed and checked before
 * any window opens, so that a typing mistake is one line on stderr and exit 2, as in the other commands, instead
 * of a window with an error dialog (or, before, a window that tried to open {@code --nosuch} as a file).
 * {@code --version} never gets here: the launcher answers it with the command line's version query.
 *
 * @param file the capture to open, or null
 * @param filter the display filter to apply to it, compiled once already (its text), or empty
 * @param rocePorts the UDP destination ports to decode as RoCE: 4791 and those -d names
 * @param help whether the user asked for the usage
 * @param profile the configuration profile to start in (-C, an existing one), or null: the one used last
 * @param resolveFlags -N's letters ("" for -n), or null: View > Name Resolution as saved
 * @param hosts -H's hosts files
 */
record GuiArgs(Path file, String filter, Set<Integer> rocePorts, boolean help, String profile, String resolveFlags, List<Path> hosts) {
    GuiArgs(Path file, String filter, Set<Integer> rocePorts, boolean help) { this(file, filter, rocePorts, help, null, null, List.of()); }

    static final String USAGE = """
            Usage: metaroce gui [-r FILE | FILE] [-Y FILTER] [-d udp.port==N,roce]... [-C PROFILE]
                                [-N FLAGS | -n] [-H FILE]...
            Open a capture (pcap or pcapng) in the desktop analyzer.
              -r, --read-file FILE          the capture to open (a bare FILE too)
              -Y, --display-filter FILTER   show only the packets that match, once the capture is open
                                            (the display filter syntax of dissect -Y and Wireshark)
              -d, --decode-as udp.port==N,roce
                                            also decode UDP destination port N as RoCE (like tshark
                                            -d; 'infiniband' accepted; a bare N is short for it).
                                            Repeatable; 4791 is always decoded. Analyze > Decode As...
                                            changes it while the GUI runs
              -C PROFILE                    start in this configuration profile (Edit > Configuration
                                            Profiles...; Default is the configuration folder itself)
              -N FLAGS                      name resolution for this run, as Wireshark's -N: m (MAC
                                            vendors), n (host names), t; View > Name Resolution
              -n                            no name resolution for this run
              -H FILE                       a hosts file (ADDRESS NAME per line), as Wireshark's -H;
                                            its names show with n. Repeatable
              -h, --help                    show this help and exit
                  --version                 print the version and exit""";

    /** A command line that cannot be used: its message is the line to print after {@code metaroce gui: }. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    static GuiArgs parse(String[] args) throws UsageException {
        return parse(args, Profiles.defaultRoot());
    }

    /** @param configRoot the configuration folder -C's profile is looked up in */
    static GuiArgs parse(String[] args, Path configRoot) throws UsageException {
        String file = null, filter = null, profile = null;
        List<String> decodeAs = new ArrayList<>();
        String resolve = null;
        List<Path> hosts = new ArrayList<>();
        boolean options = true;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (options && (a.equals("-h") || a.equals("--help"))) return new GuiArgs(null, "", DecodeAs.ports(null), true);
            if (options && a.equals("-n")) {
                resolve = "";
                continue;
            }
            if (options && (a.equals("-N") || a.equals("-H"))) {
                if (i + 1 >= args.length) throw new UsageException(a + " needs a value (" + (a.equals("-N") ? "FLAGS, e.g. -N mn" : "a hosts file") + ")");
                String v = args[++i];
                if (a.equals("-H")) {
                    hosts.add(Path.of(v));
                    continue;
                }
                Character bad = io.metaroce.dissector.NameResolver.unknownFlag(v);
                if (bad != null) throw new UsageException("-N specifies unknown resolving option '" + bad + "'; valid options are: m (MAC), n (network), t (transport), d, N, v, g, s");
                resolve = v;
                continue;
            }
            String value = null, name = null;
            if (options && a.equals("--")) {
                options = false;
                continue;
            } else if (options && (a.equals("-r") || a.equals("--read-file") || a.equals("-Y") || a.equals("--display-filter")
                    || a.equals("-d") || a.equals("--decode-as") || a.equals("-C"))) {
                name = a;
                if (i + 1 >= args.length) throw missing(a);
                value = args[++i];
            } else if (options && (a.startsWith("--read-file=") || a.startsWith("--display-filter=") || a.startsWith("--decode-as="))) {
                name = a.substring(0, a.indexOf('='));
                value = a.substring(a.indexOf('=') + 1);
            } else if (options && a.length() > 2 && (a.startsWith("-r") || a.startsWith("-Y") || a.startsWith("-d") || a.startsWith("-C"))
                    && !a.startsWith("--")) {
                // getopt's joined form, which Wireshark takes: -rFILE, -Y'bth.opcode == 17', -d4792.
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
            if (name != null && name.equals("-C")) {
                if (profile != null) throw new UsageException("one configuration profile at most (-C given twice)");
                profile = value;
                continue;
            }
            if (name != null && (name.equals("-d") || name.equals("--decode-as"))) {
                decodeAs.add(value);
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
        Set<Integer> ports;
        try {
            ports = DecodeAs.ports(decodeAs);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
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
        if (profile != null && !new Profiles(configRoot).exists(profile)) {
            // Wireshark's words, and where the profiles are looked for.
            throw new UsageException("configuration profile \"" + profile + "\" does not exist (the profiles are the folders in "
                    + configRoot.resolve(Profiles.FOLDER) + "; Default is " + configRoot + ")");
        }
        for (Path h : hosts) {
            if (!java.nio.file.Files.isReadable(h) || java.nio.file.Files.isDirectory(h)) throw new UsageException("Can't read host entries from \"" + h + "\"");
        }
        return new GuiArgs(path, compiled, ports, false, profile, resolve, List.copyOf(hosts));
    }

    /** The other commands' words for an option without its value (dissect -Y, analyze -r). */
    private static UsageException missing(String option) {
        if (option.equals("-d") || option.equals("--decode-as")) {
            return new UsageException(option + " needs a value (" + DecodeAs.LABEL + "; see 'metaroce gui --help')");
        }
        if (option.equals("-C")) return new UsageException("-C needs a configuration profile's name (see 'metaroce gui --help')");
        return new UsageException(option.equals("-r") || option.equals("--read-file") ? option + " needs a file name (FILE)"
                : option + " needs a display filter, e.g. " + option + " 'bth.opcode == 4'");
    }
}
