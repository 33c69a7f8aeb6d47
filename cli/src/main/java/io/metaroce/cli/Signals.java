package io.metaroce.cli;

/**
 * Ctrl-C and SIGTERM end a live capture cleanly (file completed, statistics written, exit 0) instead of
 * killing the JVM; a second signal gets the default behaviour back. Uses sun.misc.Signal (jdk.unsupported),
 * the only way to handle a signal without starting JVM shutdown; without it, a shutdown hook stops the
 * capture instead.
 */
@SuppressWarnings("removal")
final class Signals {
    private static Thread hook;

    private Signals() {}

    static synchronized void onStop(Runnable stop) {
        try {
            for (String name : new String[] {"INT", "TERM"}) {
                sun.misc.Signal sig = new sun.misc.Signal(name);
                sun.misc.Signal.handle(sig, s -> {
                    stop.run();
                    sun.misc.Signal.handle(sig, sun.misc.SignalHandler.SIG_DFL);
                });
            }
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            hook = new Thread(stop, "metaroce-stop");
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    static synchronized void reset() {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sun.misc.SignalHandler.SIG_DFL);
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), sun.misc.SignalHandler.SIG_DFL);
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // not installed
        }
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down already
            }
            hook = null;
        }
    }
}
