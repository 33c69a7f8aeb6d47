package io.metaroce.cli;

import java.util.ArrayList;
import java.util.List;
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
                IndexCommand.class, SearchCommand.class, ExtractCommand.class, ViewerCommand.class, CompareCommand.class,
                MergeCommand.class, EditCommand.class, InfoCommand.class, ReorderCommand.class, CommandLine.HelpCommand.class})
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
            case "viewer" -> new ViewerCommand();
            case "compare" -> new CompareCommand();
            case "merge" -> new MergeCommand();
            case "edit" -> new EditCommand();
            case "info" -> new InfoCommand();
            case "reorder" -> new ReorderCommand();
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
            String command = unknownCommand(e);
            if (command == null) command = optionMistake(e, a);
            if (command == null) command = argumentMistake(e);
            if (command != null) {
                // picocli's writer is not System.err's ErrorLines: the line quotes what was typed, so escape it here.
                e.getCommandLine().getErr().println(FrontDoor.printable(name + ": " + command));
                return 2;
            }
            e.getCommandLine().getErr().println(FrontDoor.printable(name + ": " + badValue(e)));
            // A bad value is one line; any other unknown or missing argument (none is known: argumentMistake words
            // them all) also points at the help.
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

    /**
     * The line for a first argument that names no command ({@code metaroce nosuch}, {@code metaroce analyse}), or null
     * for any other mistake. picocli said "Unmatched argument at index 0: 'nosuch'", which names neither what the word
     * was taken for nor the commands; a near miss (one or two letters off, or the start of a name) gets a "did you mean".
     */
    static String unknownCommand(CommandLine.ParameterException e) {
        if (e.getCommandLine().getParent() != null) return null;
        String word;
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            word = u.getUnmatched().get(0);
        } else if (String.valueOf(e.getMessage()).startsWith("Unknown subcommand '") && e.getValue() != null) {
            // metaroce help nosuch: picocli's help command said "Unknown subcommand 'nosuch'." and nothing more.
            word = e.getValue();
        } else {
            return null;
        }
        var commands = e.getCommandLine().getSubcommands();
        if (commands.isEmpty()) return null;
        if (word.startsWith("-")) return null;   // an unknown option: picocli's line and the pointer to the help
        List<String> names = new ArrayList<>();
        for (String c : commands.keySet()) if (!c.equals("help")) names.add(c);
        names.add("gui");   // started by the launcher script, not by this class
        String near = null;
        for (String c : names) {
            boolean prefix = word.length() >= 2 && c.startsWith(word);
            if (prefix || editDistance(word.toLowerCase(java.util.Locale.ROOT), c) <= Math.min(2, c.length() / 3)) {
                near = c;
                break;
            }
        }
        return near != null ? "unknown command '" + word + "'; did you mean '" + near + "'? (see metaroce --help)"
                : "unknown command '" + word + "' (commands: " + String.join(", ", names) + "; see metaroce --help)";
    }

    /**
     * The line for an option given twice or given without its value, in the product's words, or null for any other
     * mistake. picocli said "option '--read' (FILE) should be specified only once" and "Missing required parameter for
     * option '--display-filter' (FILTER)" (or "Expected parameter for option ... but found '-q'") with a second line
     * pointing at the help: the long name when the short one was typed, and no word of what the value is.
     */
    static String optionMistake(CommandLine.ParameterException e, String[] args) {
        CommandLine.Model.ArgSpec spec = e.getArgSpec();
        if (e instanceof CommandLine.OverwrittenOptionException w) spec = w.getOverwritten();
        if (e instanceof CommandLine.MissingParameterException p && p.getMissing() != null && p.getMissing().size() == 1) {
            spec = p.getMissing().get(0);
        }
        if (!(spec instanceof CommandLine.Model.OptionSpec o)) return null;
        String m = String.valueOf(e.getMessage());
        String command = e.getCommandLine().getCommandName();
        if (e instanceof CommandLine.OverwrittenOptionException) {
            String typed = typed(o, args, true);
            if (o.longestName().equals("--read")) {
                return typed + " given twice; " + command + " reads one capture (use 'metaroce analyze DIR' or mergecap for several)";
            }
            // A switch (-q, --compact) repeated says nothing more; an option with a value would have two.
            return typed + " given twice (" + (o.arity().max() == 0 ? "" : "it takes one value: ") + "give it once)";
        }
        if (e instanceof CommandLine.MissingParameterException
                && (m.startsWith("Missing required parameter for option '") || m.startsWith("Expected parameter for option '"))) {
            String typed = typed(o, args, false);
            return typed + " needs " + valueWords(o, typed, e.getCommandLine().getCommandSpec().qualifiedName());
        }
        return null;
    }

    /**
     * The line for an unknown option, a word too many, a missing QUERY or a required option left out, or null for any
     * other mistake. picocli wrote "Unknown option: '--nosuch'", "Unmatched argument at index 3: 'extra'", "Missing
     * required parameter: 'QUERY'" and "Missing required option: '--write=FILE'", each with a second line pointing at
     * the help.
     */
    static String argumentMistake(CommandLine.ParameterException e) {
        CommandLine cl = e.getCommandLine();
        String name = cl.getCommandSpec().qualifiedName(), help = "see '" + name + " --help'";
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String word = u.getUnmatched().get(0);
            if (word.startsWith("-") && word.length() > 1) {
                // A near miss of a long name (--thread, --dispaly-filter) gets a "did you mean", as a command does.
                String typed = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
                String near = null;
                int best = Integer.MAX_VALUE;
                for (CommandLine.Model.OptionSpec o : cl.getCommandSpec().options()) {
                    for (String n : o.names()) {
                        // The closest long name (--thread: --threads, not --read), within a third of its letters.
                        int d = n.startsWith("--") && typed.startsWith("--") ? editDistance(typed, n) : Integer.MAX_VALUE;
                        if (d <= Math.min(2, (n.length() - 2) / 3) && d < best) {
                            best = d;
                            near = n;
                        }
                    }
                }
                return "unknown option '" + word + "'" + (near != null ? "; did you mean '" + near + "'?" : "") + " (" + help + ")";
            }
            for (CommandLine.Model.PositionalParamSpec p : cl.getCommandSpec().positionalParameters()) {
                if (p.paramLabel().equals("QUERY") && !p.originalStringValues().isEmpty()) {
                    // search a b: the words of one query given as two arguments.
                    String query = p.originalStringValues().get(0);
                    return "unexpected argument '" + word + "' after the query '" + query + "' (a query of several words is one "
                            + "argument: quote it, '" + query + " " + word + "')";
                }
            }
            return "unexpected argument '" + word + "' (" + help + ")";
        }
        if (e instanceof CommandLine.MissingParameterException p && p.getMissing() != null && !p.getMissing().isEmpty()) {
            CommandLine.Model.ArgSpec missing = p.getMissing().get(0);
            if (missing instanceof CommandLine.Model.PositionalParamSpec q) {
                // search and extract take their QUERY or --nccl: NcclOption#combine says it when both are missing.
                return "no " + q.paramLabel() + " given (" + help + ")";
            }
            if (missing instanceof CommandLine.Model.OptionSpec o) {
                // extract without -w: the option and what it is for, from its description.
                String what = o.description().length > 0 ? ": " + o.description()[0] : "";
                return o.shortestName() + " " + o.paramLabel() + " is required" + what + " (" + help + ")";
            }
        }
        return null;
    }

    /**
     * The name of the option as the user typed it, the last time it appears (the second of two, or the one left
     * without a value): "-r" for "-r", "--read" or "--read=F" as given, "-T" for "-Tjson"; else its shortest name.
     */
    private static String typed(CommandLine.Model.OptionSpec o, String[] args, boolean attached) {
        String found = null;
        for (String a : args) {
            if (a.equals("--")) break;
            for (String n : o.names()) {
                boolean hit = a.equals(n) || (attached && (n.startsWith("--") ? a.startsWith(n + "=")
                        : n.length() == 2 && a.startsWith(n) && !a.startsWith("--")));
                if (hit) found = n;
            }
        }
        return found != null ? found : o.shortestName();
    }

    /** What an option's value is, from its label ("a number", "a display filter, e.g. ..."). */
    private static String valueWords(CommandLine.Model.OptionSpec o, String typed, String command) {
        String label = o.paramLabel().replaceAll("^<|>$", "");
        return switch (label) {
            case "FILTER" -> "a display filter, e.g. " + typed + " 'bth.opcode == 4'";
            case "BPF" -> "a capture filter, e.g. " + typed + " 'udp port 4791'";
            case "N", "FRAMES", "COUNTER", "SNAPLEN", "BYTES", "MiB", "M" -> "a number (" + label + ")";
            case "US" -> "a number of microseconds";
            case "SECONDS", "S" -> "a number of seconds";
            case "P" -> "a probability from 0 to 1";
            case "FILE", "FILE.pcapng", "FILE.html", "PATH" -> "a file name (" + label + ")";
            case "FILE|DIR" -> "a file or directory name";
            case "DIR" -> "a directory name";
            case "IFACE" -> "an interface name (metaroce capture -D lists them)";
            case "QUERY" -> "a query, e.g. " + typed + " 'naks:>5'";
            default -> {
                List<String> choices = new ArrayList<>();
                if (o.completionCandidates() != null) for (String c : o.completionCandidates()) choices.add(c);
                if (choices.isEmpty() && label.contains("|") && !label.contains("[")) choices.addAll(List.of(label.split("\\|")));
                if (choices.size() > 1) {
                    String last = choices.remove(choices.size() - 1);
                    yield "one of " + String.join(", ", choices) + " or " + last;
                }
                yield "a value (" + label + "; see '" + command + " --help')";
            }
        };
    }

    /** Levenshtein distance, transpositions counting one (analyse, anaylze: one from analyze). */
    private static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /**
     * The message of a bad option value in the product's words ("-c must be a whole number, not 'abc'"), else
     * picocli's message as it is. picocli wrote "Invalid value for option '--count': 'abc' is not a long" (Java's type
     * names, and the long name when -c was typed), "expected one of [text, json] (case-sensitive) but was 'xml'", and
     * for a KEY=VALUE option "Value for option option '--severity' (RULE=LEVEL) should be in KEY=VALUE format but was
     * x", the word doubled.
     */
    static String badValue(CommandLine.ParameterException e) {
        String m = String.valueOf(e.getMessage());
        if (!(e.getArgSpec() instanceof CommandLine.Model.OptionSpec o)) return m;
        String option = o.shortestName(), value = e.getValue();
        if (m.startsWith("Value for option option '") && m.contains(" should be in KEY=VALUE format but was ")) {
            if (value == null) value = m.substring(m.indexOf(" but was ") + " but was ".length());
            return option + " must be " + o.paramLabel() + ", not '" + value + "'";
        }
        if (!m.startsWith("Invalid value for option '") || value == null) return m;
        Class<?> type = o.typeInfo().isMultiValue() && o.typeInfo().getAuxiliaryTypes().length > 0
                ? o.typeInfo().getAuxiliaryTypes()[o.typeInfo().getAuxiliaryTypes().length - 1] : o.type();
        boolean isLong = type == long.class || type == Long.class;
        if (type == int.class || type == Integer.class || isLong) {
            // A whole number past the type's range is one all the same: say it is too large instead.
            if (value.strip().matches("[-+]?\\d+")) {
                boolean negative = value.strip().startsWith("-");
                return option + ": '" + value + "' is too " + (negative ? "small (at least " : "large (at most ")
                        + (negative ? (isLong ? Long.MIN_VALUE : Integer.MIN_VALUE) : (isLong ? Long.MAX_VALUE : Integer.MAX_VALUE)) + ")";
            }
            return option + " must be a whole number, not '" + value + "'";
        }
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return option + " must be a number, not '" + value + "'";
        }
        if (type.isEnum()) {
            List<String> names = new ArrayList<>();
            for (Object c : type.getEnumConstants()) names.add(c.toString());
            String last = names.remove(names.size() - 1);
            return option + " must be " + (names.isEmpty() ? last : String.join(", ", names) + " or " + last)
                    + ", not '" + value + "'";
        }
        // A converter's own message, after picocli's "Invalid value for option '--x': ".
        int colon = m.indexOf("': ");
        return colon < 0 ? m : option + ": " + m.substring(colon + 3);
    }

    /** "metaroce CMD" for the first argument that names a subcommand, else "metaroce". */
    private static String commandName(CommandLine cl, String[] args) {
        for (String a : args) {
            if (cl.getSubcommands().containsKey(a)) return "metaroce " + a;
        }
        return "metaroce";
    }
}
