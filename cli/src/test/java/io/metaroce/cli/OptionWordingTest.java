package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every option of every command, given twice or left without its value: one line in the product's words, naming the
 * option as typed, exit 2. picocli said "option '--read' (FILE) should be specified only once" and "Missing required
 * parameter for option '--display-filter' (FILTER)" with a second line pointing at the help (the long name when the
 * short one was typed). In-process, every option at once; {@link WordingSweepIT} checks a few through the launcher.
 */
class OptionWordingTest {
    /** (args, message) of every option of every subcommand, for both mistakes. */
    @Test
    void everyOptionGivenTwiceOrWithoutItsValueIsOneLine() {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (var sub : new CommandLine(new Main()).getSubcommands().entrySet()) {
            String cmd = sub.getKey();
            if (cmd.equals("help")) continue;
            for (OptionSpec o : sub.getValue().getCommandSpec().options()) {
                // -V where it has no meaning says so whenever it is given (NoVerbose), once or twice.
                if (o.usageHelp() || o.versionHelp() || (o.shortestName().equals("-V") && !cmd.equals("dissect"))) continue;
                for (String name : List.of(o.shortestName(), o.longestName())) {
                    if (o.arity().min() >= 1) {
                        checked++;
                        check(failures, "metaroce " + cmd + ": " + name + " needs ", cmd, name);
                    }
                    if (!o.isMultiValue()) {
                        checked++;
                        String v = value(o);
                        if (o.longestName().equals("--read")) {
                            check(failures, "metaroce " + cmd + ": " + name + " given twice; " + cmd + " reads one capture (", cmd,
                                    name, v, name, v);
                        } else if (v == null) check(failures, "metaroce " + cmd + ": " + name + " given twice (give it once)", cmd, name, name);
                        else check(failures, "metaroce " + cmd + ": " + name + " given twice (it takes one value: give it once)",
                                cmd, name, v, name, v);
                    }
                }
            }
        }
        assertTrue(checked > 150, "options checked: " + checked);
        assertEquals(List.of(), failures, String.join("\n", failures));
    }

    @Test
    void theWordsOfSomeValues() {
        assertEquals(List.of("metaroce dissect: -Y needs a display filter, e.g. -Y 'bth.opcode == 4'"), lines("dissect", "-r", "x", "-Y"));
        // The value taken for another option ("-Y -q"): picocli said "Expected parameter for option ... but found '-q'".
        assertEquals(List.of("metaroce dissect: -Y needs a display filter, e.g. -Y 'bth.opcode == 4'"),
                lines("dissect", "-r", "x", "-Y", "-q"));
        assertEquals(List.of("metaroce dissect: -r given twice; dissect reads one capture (use 'metaroce analyze DIR' or mergecap "
                + "for several)"), lines("dissect", "-r", "x", "-r", "y"));
        assertEquals(List.of("metaroce dissect: --read given twice; dissect reads one capture (use 'metaroce analyze DIR' or mergecap "
                + "for several)"), lines("dissect", "-r", "x", "--read=y"));
        assertEquals(List.of("metaroce dissect: -T given twice (it takes one value: give it once)"), lines("dissect", "-r", "x", "-Tjson",
                "-T", "text"));
        assertEquals(List.of("metaroce compare: --window needs a number of seconds"), lines("compare", "a", "b", "--window"));
        assertEquals(List.of("metaroce analyze: --tap needs one of auto, host:IP or mirror"), lines("analyze", "-r", "x", "--tap"));
        assertEquals(List.of("metaroce capture: -i needs an interface name (metaroce capture -D lists them)"), lines("capture", "-i"));
    }

    private static List<String> lines(String... args) {
        CliRun r = CliRun.of(args);
        assertEquals(2, r.exit(), r.err());
        return r.err().lines().toList();
    }

    private static void check(List<String> failures, String start, String... args) {
        CliRun r = CliRun.of(args);
        List<String> err = r.err().lines().toList();
        if (r.exit() != 2 || err.size() != 1 || !err.get(0).startsWith(start) || !r.out().isEmpty()) {
            failures.add(String.join(" ", args) + " -> exit " + r.exit() + ": " + r.err().strip());
        }
    }

    /** A value the option takes (so that the second one is what is refused), or null for a switch. */
    private static String value(OptionSpec o) {
        if (o.arity().max() == 0) return null;
        Class<?> t = o.type();
        if (t.isEnum()) return t.getEnumConstants()[0].toString();
        if (o.completionCandidates() != null && o.completionCandidates().iterator().hasNext()) {
            return o.completionCandidates().iterator().next();
        }
        if (o.defaultValue() != null && !o.defaultValue().isEmpty()) return o.defaultValue();
        return "1";
    }
}
