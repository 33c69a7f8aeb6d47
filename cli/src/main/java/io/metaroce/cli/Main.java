package io.metaroce.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code metaroce} command: one front end over the capture reader, dissector and analysis.
 * Exit codes: 0 success, 1 findings at or above the failure level (validate), 2 unreadable input or
 * bad usage.
 */
@Command(name = "metaroce", mixinStandardHelpOptions = true, version = "metaroce 0.1.0 (MetaRoCE v1 draft r2)",
        description = "Protocol analyzer for RoCEv2 and MetaRoCE v1 captures.",
        subcommands = {DissectCommand.class, AnalyzeCommand.class, ValidateCommand.class, SimulateCommand.class, CaptureCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns the exit code (tests call this instead of main). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            // A bug must still end in one readable line, not a stack trace (set METAROCE_DEBUG to see it).
            cmd.getErr().println("metaroce: internal error: " + e);
            if (System.getenv("METAROCE_DEBUG") != null) e.printStackTrace(cmd.getErr());
            return 2;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println("metaroce: " + e.getMessage());
            e.getCommandLine().getErr().println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return 2;
        });
        return cl.execute(args);
    }
}
