package io.metaroce.cli;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.validate.FileValidator;
import io.metaroce.validate.ValidateSettings;
import java.io.File;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteOrder;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * The jar's entry point. {@code metaroce --version} (and {@code -V} on the top command) is answered here, before
 * picocli is loaded: picocli's Java 5 class files cannot be stored in the JDK's AOT cache, so loading it costs
 * about 180 classes read and verified at every start, which is most of the time of a version query. Everything
 * else goes to {@link Main}, which prints the same version line through picocli for every subcommand; for
 * {@code analyze}, {@code validate}, {@code dissect} and {@code index}, a thread first uses the idle second core while
 * picocli sets up ({@link WarmUp}), and analyze and validate open their capture file ahead. The forms users type most,
 * {@code analyze -r FILE} and {@code validate FILE} alone, run without picocli ({@link #plainCommand}).
 */
public final class FrontDoor {
    private FrontDoor() {}

    public static void main(String[] args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            // A compile-time constant: reading it loads no class of the command line.
            System.out.println(StandardOptions.VERSION);
            System.out.flush();
            return;
        }
        System.exit(stdoutChecked(run(args), args));
    }

    /**
     * The exit code of a command line that ended with code, once standard output is checked: output that failed for a
     * reason other than its reader going away (a full disk, {@code > /dev/full}, a file that cannot grow) is said in
     * one line and the exit code becomes 2 (README, exit codes). {@link java.io.PrintStream} keeps only an error flag,
     * and the commands take that flag for a closed pipe ({@link ClosedStdout}: {@code | head} ends a run quietly, exit
     * 0), so such a run exited 0 with its output cut short. A method of this class, not of one of its own: a run that
     * ends out of memory must read no class from the jar at its end (PipelineFailureIT; FailureLine says why).
     */
    static int stdoutChecked(int code, String[] args) {
        if (!System.out.checkError()) return code;
        String target;
        try {
            // A pipe or a socket fails when its reader went away, which is not an error; so does a system without
            // /proc (nothing is said, as before).
            target = java.nio.file.Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
        } catch (java.io.IOException | RuntimeException e) {
            return code;
        }
        if (target.startsWith("pipe:") || target.startsWith("socket:")) return code;
        String command = args.length > 0 && !args[0].startsWith("-") ? " " + args[0] : "";
        System.err.println("metaroce" + command + ": cannot write to standard output (" + target
                + "): the disk is full or the output cannot grow; what was written is incomplete");
        return Math.max(code, 2);
    }

    /**
     * Runs a command line through {@link Main} after starting what runs beside picocli's set-up, and returns the exit
     * code (the AOT training calls this, so that the cache holds these classes too).
     */
    static int run(String[] args) {
        if (!(System.err instanceof ErrorLines)) System.setErr(new ErrorLines(System.err));
        Class<?> command = args.length > 0 ? captureCommand(args[0]) : null;
        Callable<Integer> plain = command != null ? plainCommand(args) : null;
        if (command != null) new WarmUp(command, plain == null).start();
        // By name, not by class: a class literal of a command would load that command's class for every other one.
        if (command != null && (args[0].equals("analyze") || args[0].equals("validate"))) {
            String file = args[0].equals("analyze") ? prefetchTarget(args) : validatePrefetchTarget(args);
            // Only a file the prefetch would open (CaptureFiles.PREFETCH_MIN_BYTES, a constant javac folds in, so reading
            // it initialises nothing): for a smaller one it opens nothing, and the call would only initialise the capture
            // classes (the foreign-memory API's first use, a method-handle class spun) on the main thread, which the
            // warm-up does beside picocli.
            if (file != null && new File(file).length() >= CaptureFiles.PREFETCH_MIN_BYTES) {
                try {
                    Path p = Path.of(file);
                    // validate also resolves --tap auto there, beside the set-up (FileValidator.tapAhead).
                    if (args[0].equals("validate") && defaultDecoderAndTap(args)) {
                        CaptureFiles.prefetch(p, FileValidator.tapAhead(p, ValidateSettings.defaults()));
                    } else {
                        CaptureFiles.prefetch(p);
                    }
                } catch (RuntimeException e) {
                    // Not a path (InvalidPathException): the command reports it.
                }
            }
        }
        return plain != null ? runPlain(args[0], plain) : Main.run(args);
    }

    /**
     * The command of the forms users type most, {@code analyze -r FILE} ({@code --read FILE}, or {@code FILE}) and
     * {@code validate FILE} ({@code -r FILE}, {@code --read FILE}) with no other argument, and {@code index PATH...
     * --index DIR} ({@link #plainIndex}), ready to run without picocli, or null for every other command line. picocli's
     * model of a command (its options read by reflection, its converter registry, the parse) is some 60-80 ms of the
     * main thread's CPU at every start, before the first frame is read: here the command is a new instance (the
     * options' defaults are its fields' initial values) with the file set as picocli would set it. Only a file picocli would take as it is: not empty, not an option ("-..."), not an argument file ("@..."),
     * a valid path; and not with picocli's own system properties that change how it reads arguments (trace, quotes).
     */
    static Callable<Integer> plainCommand(String[] args) {
        if (args.length > 0 && args[0].equals("index")) return plainIndex(args);
        if (args.length != 2 && args.length != 3) return null;
        boolean read = args.length == 3;
        if (read && !args[1].equals("-r") && !args[1].equals("--read")) return null;
        Path path = plainPath(args[args.length - 1]);
        if (path == null || picocliReadsArgumentsOtherwise()) return null;
        switch (args[0]) {
            case "analyze" -> {
                AnalyzeCommand c = new AnalyzeCommand();
                c.live = new LiveOptions();
                (read ? c.reads : c.inputs).add(path);
                return c;
            }
            case "validate" -> {
                ValidateCommand c = new ValidateCommand();
                c.live = new LiveOptions();
                (read ? c.reads : c.inputs).add(path);
                return c;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * {@code index PATH... --index DIR} (the option before, between or after the paths), with at most one of
     * {@code --no-progress} and {@code --progress} and at most one {@code --rules} anywhere among them, as a {@link
     * #plainCommand}; null for every other command line. The same rules for each path and for DIR as for a plain
     * form's file: picocli would take each as it is. The flags are set as picocli sets them (FrontDoorTest compares
     * the fields): {@code --no-progress} is what scripts, cron jobs and bench/index-cpu.sh give, and without it in the
     * plain form such a run built picocli's model and had the warm-up read its annotations, 0.16 s of CPU more for
     * index of 1 M frames at load ~10 (1.47 against 1.63 s, medians of 6 interleaved runs; docs/benchmarks.md, "helper
     * ixcpu, sixteenth session").
     */
    private static Callable<Integer> plainIndex(String[] args) {
        if (picocliReadsArgumentsOtherwise()) return null;
        Path dir = null;
        Boolean progress = null;
        boolean rules = false;
        List<Path> paths = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--no-progress") || a.equals("--progress")) {
                if (progress != null) return null;   // given twice: picocli's message
                progress = a.equals("--progress");
                continue;
            }
            if (a.equals("--rules")) {
                if (rules) return null;
                rules = true;
                continue;
            }
            boolean option = a.equals("--index");
            if (option && (dir != null || ++i == args.length)) return null;
            Path p = plainPath(args[i]);
            if (p == null) return null;
            if (option) dir = p;
            else paths.add(p);
        }
        if (dir == null || paths.isEmpty()) return null;
        IndexCommand c = new IndexCommand();
        c.backend = new IndexBackend();
        c.backend.dir = dir;
        c.paths.addAll(paths);
        c.progress = progress;
        c.rules = rules;
        return c;
    }

    /** A path argument picocli would take as it is (not empty, not an option, not an argument file, valid), or null. */
    private static Path plainPath(String arg) {
        if (arg.isEmpty() || arg.startsWith("-") || arg.startsWith("@")) return null;
        try {
            return Path.of(arg);
        } catch (InvalidPathException e) {
            return null;   // picocli's message for it
        }
    }

    /** picocli's own system properties that change how it reads arguments (trace, quotes): then picocli reads them. */
    private static boolean picocliReadsArgumentsOtherwise() {
        return System.getProperty("picocli.trace") != null || System.getProperty("picocli.trimQuotes") != null;
    }

    /** Runs a {@link #plainCommand} as {@link Main#run} runs it under picocli: its exit code, a failure in one line. */
    private static int runPlain(String name, Callable<Integer> command) {
        // Made before the run: a run that filled the heap ends here with no room to build them (WarmUp has loaded
        // FailureLine and linked its string building for the same reason).
        PrintWriter err = new PrintWriter(System.err, true);
        String qualified = "metaroce " + name;
        try {
            return command.call();
        } catch (Exception | VirtualMachineError e) {
            return FailureLine.print(err, qualified, e);
        }
    }

    /** The command class of a capture command (the ones {@link WarmUp} prepares), or null. */
    private static Class<?> captureCommand(String name) {
        return switch (name) {
            case "analyze" -> AnalyzeCommand.class;
            case "validate" -> ValidateCommand.class;
            case "dissect" -> DissectCommand.class;
            case "index" -> IndexCommand.class;
            default -> null;
        };
    }

    /**
     * Does, on a thread of its own while the main thread builds picocli's model (the second core is idle then), the
     * JDK's one-time work that the AOT cache cannot hold and that the command is about to need; each is made once,
     * by whichever thread comes first, and the other waits or takes it from the JDK's caches:
     * <ul>
     * <li>the annotations picocli reads: the JDK makes a proxy class per annotation type at the first read (some
     * 40 ms of the main thread's start), and caches each field's annotations. This thread reads them from the
     * command's fields up, picocli reads them from Object's methods down, so the two meet in the middle;
     * <li>the accessors through which picocli reads and sets each option's field: core reflection makes a field's
     * accessor from method handles, and the JDK spins a class per method-handle shape (about 15 for a command's
     * boolean, int, long, double and object fields), kept for the field and the shapes in the JDK's caches;
     * <li>the capture reader's entry class ({@link CaptureFiles}: its byte layouts) and the foreign-memory API's reads
     * of an int, short and long in either byte order and its copy into an array, as the capture readers make them:
     * the first ones initialise the API and spin some 7 method-handle classes;
     * <li>{@code String.format} of a number (the text reports' figures): the formatter's locale data, read at the first
     * number formatted.
     * </ul>
     * Only a warm-up: nothing it does changes what the command does or prints, and any failure is left to the command.
     */
    private static final class WarmUp extends Thread {
        private final Class<?> command;
        private final boolean picocli;

        /** @param picocli whether picocli will build the command's model (not for a {@link #plainCommand}) */
        WarmUp(Class<?> command, boolean picocli) {
            super("metaroce-warm-up");
            setDaemon(true);
            this.command = command;
            this.picocli = picocli;
        }

        @Override
        public void run() {
            try {
                if (picocli) read(command, 0);
                Class.forName(CaptureFiles.class.getName(), true, CaptureFiles.class.getClassLoader());
                MemorySegment m = MemorySegment.ofArray(new byte[8]);
                for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                    m.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(order), 0);
                    m.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(order), 0);
                    m.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order), 0);
                }
                MemorySegment.copy(m, ValueLayout.JAVA_BYTE, 0, new byte[1], 0, 1);
                String.format(Locale.ROOT, "%.2f %d", 1.5, 1L);
                // The line a run that runs out of memory ends with, built once now while the heap has room: loading
                // FailureLine at that point opens the jar (every other class comes from the AOT cache, so the jar is
                // still closed), whose central directory (~1 MB) a full heap cannot hold, and the JVM's own error
                // would end the run with a stack trace (issue 14.3). The AOT training runs this too, so the class
                // and its string building come from the cache.
                FailureLine.of("metaroce", new OutOfMemoryError());
            } catch (RuntimeException | LinkageError | ClassNotFoundException e) {
                // Only a warm-up: the command does it again and reports what is wrong.
            }
        }

        private static void read(Class<?> c, int depth) {
            List<Class<?>> up = new ArrayList<>();
            for (Class<?> k = c; k != null; k = k.getSuperclass()) up.add(k);
            for (Class<?> k : up) {
                for (Field f : k.getDeclaredFields()) {
                    if (f.getDeclaredAnnotations().length == 0 || Modifier.isStatic(f.getModifiers())) continue;
                    if (depth < 4 && f.isAnnotationPresent(Mixin.class)) read(f.getType(), depth + 1);
                    accessor(f);
                }
                k.getDeclaredAnnotations();
                for (Method m : k.getDeclaredMethods()) m.getDeclaredAnnotations();
            }
        }

        /** Makes the field's accessor as picocli's reads and writes use it (accessible, so the override one). */
        private static void accessor(Field f) {
            try {
                f.setAccessible(true);
                f.get(null);   // an instance field: the accessor is made, then the missing instance refused
            } catch (RuntimeException | IllegalAccessException e) {
                // expected (no instance)
            }
        }
    }

    /**
     * The capture file of an analyze command line to open ahead ({@code CaptureFiles.prefetch}), or null: mapping
     * it and mapping in its first pages then overlap the command line's set-up (picocli builds its model for some
     * 60 ms while the second core is idle). Only a file named once, by {@code -r FILE}, {@code --read FILE} or
     * {@code --read=FILE}; with several (or none) the command opens its files as before.
     */
    static String prefetchTarget(String[] args) {
        String file = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i], f = null;
            if ((a.equals("-r") || a.equals("--read")) && i + 1 < args.length) f = args[++i];
            else if (a.startsWith("--read=")) f = a.substring("--read=".length());
            else if (a.equals("--")) return null;
            if (f == null) continue;
            if (file != null) return null;
            file = f;
        }
        return file;
    }

    /**
     * Whether a validate command line keeps the default RoCE ports and {@code --tap auto}, so that its pass will take
     * the tap its capture's prefetch resolved ahead with the default settings: no argument that is or may be an
     * option setting them ({@code --tap}, {@code --config}, {@code -d}/{@code --decode-as}, also with "=" or a
     * value attached). A line it lets through wrongly only wastes that work: the pass compares the ports and
     * reads ahead itself when they differ (or sees no pre-read at all under a tap given).
     */
    static boolean defaultDecoderAndTap(String[] args) {
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--")) break;
            // A short option's cluster may hold -d (-pd PORT...): any "-x..." with a 'd' counts.
            if (a.startsWith("--tap") || a.startsWith("--config") || a.startsWith("--decode-as")
                    || !a.startsWith("--") && a.startsWith("-") && a.indexOf('d') > 0) return false;
        }
        return true;
    }

    /**
     * The capture file of a validate command line to open ahead, as {@link #prefetchTarget} for analyze: validate
     * of one big capture opens it only after picocli's set-up and the settings (first for the pre-read of {@code
     * --tap auto}, which takes the prefetched file), so without this its mapping and first page faults lengthen its
     * start where analyze's overlap picocli's. Without picocli's model this cannot know which options take a value,
     * so it takes only what is a capture file whatever the options: the one argument that is named by {@code -r
     * FILE}, {@code --read FILE} or {@code --read=FILE}, or that follows the command name or another argument that
     * is not an option ({@code validate FILE}, {@code validate -T json FILE}); never one that follows an option (it
     * may be that option's value, {@code -o FILE}, or follow a flag, {@code --not-offloaded FILE}: then nothing is
     * opened ahead). Several candidates, or "--": null.
     */
    static String validatePrefetchTarget(String[] args) {
        String file = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i], prev = args[i - 1], f = null;
            if (a.equals("--")) return null;
            if (a.startsWith("--read=")) f = a.substring("--read=".length());
            else if (a.startsWith("-")) continue;
            else if (i == 1 || !prev.startsWith("-") || prev.equals("-r") || prev.equals("--read")) f = a;
            if (f == null) continue;
            if (file != null) return null;
            file = f;
        }
        return file;
    }

    /**
     * Standard error as every command writes it: a line of the product's error form ({@code metaroce CMD: ...}) is one
     * line whatever it quotes, so its control characters are written out ({@link #printable}); any other line (the
     * caret under a bad display filter, the live statistics) keeps its line breaks and tabs but no other control
     * character. An error line quotes what the user typed or named (a file name, a display filter, a query, a config
     * value), and raw, an escape sequence in it recoloured, retitled or cleared the terminal, and a newline forged a
     * second line. Every command's lines pass here, including those written by other modules (validate's): one place
     * instead of every message. print (the progress bar's carriage returns) and picocli's writer pass untouched.
     * Installed by {@link #run}, so the AOT training loads it too.
     */
    static final class ErrorLines extends PrintStream {
        ErrorLines(PrintStream err) {
            super(err, true, err.charset());
        }

        @Override
        public void println(String x) {
            super.println(x == null ? null : printable(x, x.startsWith("metaroce")));
        }

        @Override
        public void println(Object x) {
            println(String.valueOf(x));
        }
    }

    /**
     * s with its control characters written out as Wireshark's format_text does (\a \b \f \n \r \t \v, any other
     * as \ooo in octal): a packet comment, or text a field takes from the packet, comes from whoever wrote the capture,
     * and raw it could move the cursor, retitle the window or clear the terminal of whoever reads the tree (an escape
     * sequence), or forge a line of the tree (a newline); so can a file name or a filter quoted in an error line. tshark
     * -V prints it raw; the JSON outputs escape it anyway. Here, in the class every run loads first, so that an error
     * line of any command reads no other class from the jar (the AOT cache holds this one).
     */
    static String printable(String s) {
        return printable(s, true);
    }

    /** {@link #printable}, keeping line breaks and tabs unless oneLine. */
    private static String printable(String s, boolean oneLine) {
        if (s == null) return null;
        int i = 0;
        while (i < s.length() && !control(s.charAt(i), oneLine)) i++;
        if (i == s.length()) return s;
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!control(c, oneLine)) {
                b.append(c);
                continue;
            }
            switch (c) {
                case 7 -> b.append("\\a");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case 11 -> b.append("\\v");
                default -> b.append('\\').append((char) ('0' + (c >> 6 & 7))).append((char) ('0' + (c >> 3 & 7)))
                        .append((char) ('0' + (c & 7)));
            }
        }
        return b.toString();
    }

    /** C0 and C1 control characters and DEL (a C1 character is an escape sequence's introducer on some terminals). */
    private static boolean control(char c, boolean oneLine) {
        return c < 0x20 && (oneLine || c != '\n' && c != '\t') || c >= 0x7F && c <= 0x9F;
    }
}
