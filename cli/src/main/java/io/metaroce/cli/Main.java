package io.metaroce.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code metaroce} command: one front end over the capture reader, dissector and analysis.
 * Exit codes: 0 success, 1 findings at or above the failure level (validate), 2 unreadable or damaged input
 * or bad usage (also {@code metaroce} alone: a usage error, on stderr).
 */
@Command(name = "metaroce", mixinStandardHelpOptions = true, versionProvider = StandardOptions.Version.class,
        description = "Protocol analyzer for RoCEv2 and MetaRoCE v1 captures.",
        subcommands = {DissectCommand.class, AnalyzeCommand.class, ValidateCommand.class, SimulateCommand.class, CaptureCommand.class,
                IndexCommand.class, SearchCommand.class, ExtractCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** No subcommand: the usage on stderr and exit 2, like any other usage error (help is -h, and exits 0). */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is needed: dissect, analyze, validate or simulate");
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
            String name = e.getCommandLine().getCommandSpec().qualifiedName();
            e.getCommandLine().getErr().println(name + ": " + e.getMessage());
            // A bad value is one line; an unknown or missing option also points at the help.
            if (e instanceof CommandLine.UnmatchedArgumentException || e instanceof CommandLine.MissingParameterException) {
                e.getCommandLine().getErr().println("Try '" + name + " --help'.");
            }
            return 2;
        });
        return cl.execute(args);
    }
}
