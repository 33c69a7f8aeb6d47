package io.metaroce.cli;

import io.metaroce.capture.CaptureFiles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;

/**
 * The jar's entry point. {@code metaroce --version} (and {@code -V} on the top command) is answered here, before
 * picocli is loaded: picocli's Java 5 class files cannot be stored in the JDK's AOT cache, so loading it costs
 * about 180 classes read and verified at every start, which is most of the time of a version query. Everything
 * else goes to {@link Main}, which prints the same version line through picocli for every subcommand; for
 * {@code analyze}, two threads first use the idle second core while picocli sets up (the command's annotations, and
 * the capture file opened ahead).
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
        if (args.length > 0 && args[0].equals("analyze")) {
            new Annotations(AnalyzeCommand.class).start();
            String file = prefetchTarget(args);
            if (file != null) {
                try {
                    CaptureFiles.prefetch(Path.of(file));
                } catch (RuntimeException e) {
                    // Not a path (InvalidPathException): the command reports it.
                }
            }
        }
        Main.main(args);
    }

    /**
     * Reads, on a thread of its own, the annotations picocli is about to read for a command: the JDK makes a proxy
     * class per annotation type at the first read (the AOT cache cannot hold them; some 40 ms of the main thread's
     * start), and caches each field's annotations. This thread reads them from the command's fields up, picocli
     * reads them from Object's methods down, so the two share the work and meet in the middle (a read already under
     * way on the other thread is waited for, not done twice).
     */
    private static final class Annotations extends Thread {
        private final Class<?> command;

        Annotations(Class<?> command) {
            super("metaroce-annotations");
            setDaemon(true);
            this.command = command;
        }

        @Override
        public void run() {
            try {
                read(command, 0);
            } catch (RuntimeException | LinkageError e) {
                // Only a warm-up: picocli reads them again and reports what is wrong.
            }
        }

        private static void read(Class<?> c, int depth) {
            List<Class<?>> up = new ArrayList<>();
            for (Class<?> k = c; k != null; k = k.getSuperclass()) up.add(k);
            for (Class<?> k : up) {
                for (Field f : k.getDeclaredFields()) {
                    f.getDeclaredAnnotations();
                    if (depth < 4 && f.isAnnotationPresent(Mixin.class)) read(f.getType(), depth + 1);
                }
                k.getDeclaredAnnotations();
                for (Method m : k.getDeclaredMethods()) m.getDeclaredAnnotations();
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
}
