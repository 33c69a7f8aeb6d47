package io.metaroce.cli;

/**
 * The jar's entry point. {@code metaroce --version} (and {@code -V} on the top command) is answered here, before
 * picocli is loaded: picocli's Java 5 class files cannot be stored in the JDK's AOT cache, so loading it costs
 * about 180 classes read and verified at every start, which is most of the time of a version query. Everything
 * else goes to {@link Main}, which prints the same version line through picocli for every subcommand.
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
            String file = prefetchTarget(args);
            if (file != null) {
                try {
                    io.metaroce.capture.CaptureFiles.prefetch(java.nio.file.Path.of(file));
                } catch (RuntimeException e) {
                    // Not a path (InvalidPathException): the command reports it.
                }
            }
        }
        Main.main(args);
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
