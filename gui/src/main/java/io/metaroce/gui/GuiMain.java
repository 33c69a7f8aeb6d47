package io.metaroce.gui;

import java.io.PrintStream;
import javafx.application.Application;

/**
 * Entry point of {@code metaroce gui [-r FILE | FILE] [-Y FILTER] [-d udp.port==N,roce] [-C PROFILE]} ({@link GuiArgs}). Not an {@link Application} itself: with JavaFX on the class path
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
        // The command line first: its mistakes are said the same way with a display or without one.
        GuiArgs parsed;
        try {
            parsed = GuiArgs.parse(args);
        } catch (GuiArgs.UsageException e) {
            err.println("metaroce gui: " + e.getMessage());
            return 2;
        }
        if (parsed.help()) {
            System.out.println(GuiArgs.USAGE);
            return 0;
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
