package io.metaroce.gui;

import java.io.PrintStream;
import javafx.application.Application;

/**
 * Entry point of {@code metaroce gui [FILE]}. Not an {@link Application} itself: with JavaFX on the class path
 * (the shaded jar) the Java launcher refuses a main class that extends Application.
 *
 * <p>Without a display the GUI cannot start; that is a usage situation, not a crash: one line on stderr naming
 * the alternatives, exit code 2, as the CLI does for bad usage.
 */
public final class GuiMain {
    static final String NO_DISPLAY = "no display: set DISPLAY or use dissect/analyze/validate";

    /** Held so that the level set on it is not lost to garbage collection. */
    private static final java.util.logging.Logger QUIET_JAVAFX = java.util.logging.Logger.getLogger("javafx");

    private GuiMain() { }

    public static void main(String[] args) {
        int code = run(args, System.getenv(), System.err);
        if (code != 0) System.exit(code);
    }

    /** Starts the GUI and returns when its window is closed; returns the exit code. */
    static int run(String[] args, java.util.Map<String, String> env, PrintStream err) {
        RenderingSetup.beforeToolkitStart();        // first: nothing may start the toolkit before it
        if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
            System.out.println("usage: metaroce gui [FILE]   open a capture (pcap or pcapng) in the desktop analyzer");
            return 0;
        }
        if (args.length > 1) {
            err.println("metaroce gui: one capture file at most (got " + args.length + " arguments)");
            return 2;
        }
        if (!hasDisplay(env)) {
            err.println(NO_DISPLAY);
            return 2;
        }
        // JavaFX on the class path (one jar) logs "Unsupported JavaFX configuration" at start: true, and harmless.
        QUIET_JAVAFX.setLevel(java.util.logging.Level.SEVERE);
        try {
            Application.launch(MetaRoceApp.class, args);
            return 0;
        } catch (Throwable t) {
            // A display that is set but unusable (no GTK, X server gone) still gets one line, never a stack trace.
            Throwable root = t;
            while (root.getCause() != null) root = root.getCause();
            err.println("metaroce gui: cannot open a window: " + (root.getMessage() != null ? root.getMessage() : root));
            return 2;
        }
    }

    /** A display the GTK toolkit can use, or a headless glass platform chosen on purpose (tests). */
    static boolean hasDisplay(java.util.Map<String, String> env) {
        if (System.getProperty("glass.platform") != null) return true;
        return notBlank(env.get("DISPLAY")) || notBlank(env.get("WAYLAND_DISPLAY"));
    }

    private static boolean notBlank(String s) { return s != null && !s.isBlank(); }
}
