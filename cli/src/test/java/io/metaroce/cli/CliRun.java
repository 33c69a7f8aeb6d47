package io.metaroce.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.ToIntFunction;

/** Runs the CLI in-process and captures what it prints. */
record CliRun(int exit, String out, String err) {
    static CliRun of(String... args) {
        return through(Main::run, args);
    }

    /** An entry point ({@link Main#run}, {@link FrontDoor#run}) with System.out and System.err captured, one run at a time. */
    static synchronized CliRun through(ToIntFunction<String[]> entry, String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = entry.applyAsInt(args);
            System.out.flush();
            return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
