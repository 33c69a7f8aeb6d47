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
                IndexCommand.class, SearchCommand.class, ExtractCommand.class, CompareCommand.class,
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
        System.exit(FrontDoor.stdoutChecked(run(args), args));
    }

    /** Runs a command line and returns the exit code (tests call this instead of main). */
    public static int run(String... args) {
        return run(commandLine(args), args);
    }

    /**
     * The command tree for these arguments. picocli builds a command's model by reflection over its class, its
     * options and mixins; the whole tree costs about a quarter of a second of CPU at every start. When the first
     * argument names a subcommand, only that one is built, under a bare "metaroce" parent (so that its qualified
     * name, usage and messages are those of the whole tree). Anything else (no argument, an option, {@code help},
     * a typo) gets the whole tree: its usage, the list of commands and picocli's suggestions need it.
     */
    static CommandLine commandLine(String[] args) {
        Object only = args.length > 0 ? subcommand(args[0]) : null;
        if (only == null) return new CommandLine(new Main());
        CommandLine top = new CommandLine(CommandLine.Model.CommandSpec.create().name("metaroce"));
        top.addSubcommand(args[0], new CommandLine(only));
        return top;
    }

    /** A new instance of the subcommand of that name (as the annotation above lists them), or null. */
    private static Object subcommand(String name) {
        return switch (name) {
            case "dissect" -> new DissectCommand();
            case "analyze" -> new AnalyzeCommand();
            case "validate" -> new ValidateCommand();
            case "simulate" -> new SimulateCommand();
            case "capture" -> new CaptureCommand();
            case "index" -> new IndexCommand();
            case "search" -> new SearchCommand();
            case "extract" -> new ExtractCommand();
            case "compare" -> new CompareCommand();
            default -> null;
        };
    }

    /** Runs the given tree (the whole one, or the one subcommand of {@link #commandLine}). */
    static int run(CommandLine cl, String... args) {
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            // A bug must still end in one readable line, not a stack trace (set METAROCE_DEBUG to see it).
            return FailureLine.print(cmd.getErr(), cmd.getCommandSpec().qualifiedName(), e);
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
        try {
            return cl.execute(args);
        } catch (VirtualMachineError e) {
            // picocli hands only exceptions to the handler above; an Error (out of memory, stack overflow, in any
            // thread of a pipeline: it is rethrown on this one) ends here, in one line too.
            return FailureLine.print(cl.getErr(), commandName(cl, args), e);
        }
    }

    /** "metaroce CMD" for the first argument that names a subcommand, else "metaroce". */
    private static String commandName(CommandLine cl, String[] args) {
        for (String a : args) {
            if (cl.getSubcommands().containsKey(a)) return "metaroce " + a;
        }
        return "metaroce";
    }
}
