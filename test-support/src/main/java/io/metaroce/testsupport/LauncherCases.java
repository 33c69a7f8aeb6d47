package io.metaroce.testsupport;

import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A table of launcher runs, each with the check of what it printed: the form of cli's launcher tests (LauncherIT, the
 * option sweeps, WordingSweepIT, ...). Cases are added first, {@link #runAll} runs them all in parallel once, then a
 * test factory turns {@link #checks} into one test per case. The usual checks of bad input are here too
 * ({@link #oneLineExit2}, {@link #says}, {@link #oneLine}, {@link #topLine}). The same 20 lines were written out in
 * eight classes; without JUnit (this module needs only the JDK), a failed check is an {@link AssertionError}.
 */
public final class LauncherCases {
    /** One case: its name, the call, the check of its run, and whether other tests may read the same run. */
    private record Case(String name, Call call, Consumer<Run> check, boolean shared) {}

    private final List<Case> cases = new ArrayList<>();
    private final Map<String, Run> runs = new LinkedHashMap<>();

    public void add(String name, Call call, Consumer<Run> check) { cases.add(new Case(name, call, check, false)); }

    /** A case whose run, of the bundled samples only, other tests may check too ({@link Launcher#runAllReusing}). */
    public void addShared(String name, Call call, Consumer<Run> check) { cases.add(new Case(name, call, check, true)); }

    /** Runs every case once, in parallel (the shared ones through {@link Launcher#runAllReusing}). */
    public void runAll() {
        List<Case> shared = cases.stream().filter(Case::shared).toList(), own = cases.stream().filter(c -> !c.shared()).toList();
        List<Run> r = Launcher.runAll(own.stream().map(Case::call).toList());
        for (int i = 0; i < own.size(); i++) runs.put(own.get(i).name(), r.get(i));
        if (shared.isEmpty()) return;
        r = Launcher.runAllReusing(shared.stream().map(Case::call).toList());
        for (int i = 0; i < shared.size(); i++) runs.put(shared.get(i).name(), r.get(i));
    }

    /** The run of the case of that name (after {@link #runAll}). */
    public Run run(String name) { return runs.get(name); }

    /** Each case's name and its check of its run, in the order added: {@code dynamicTest(c.getKey(), c.getValue()::run)}. */
    public Stream<Map.Entry<String, Runnable>> checks() {
        return cases.stream().map(c -> Map.entry(c.name(), () -> c.check().accept(runs.get(c.name()))));
    }

    /** Bad input: exit 2, exactly one line on stderr naming the tool, no stack trace. */
    public static void oneLineExit2(Run r) {
        check(r.exit() == 2, "exit 2", r);
        check(r.errLines().size() == 1, "exactly one line on stderr", r);
        check(r.err().startsWith("metaroce "), "the line names the tool", r);
        check(!(r.err().contains("Exception") || r.err().contains("\tat ")), "no stack trace", r);
    }

    /** Exit 2, one line on stderr that names the tool and says {@code what}, no stack trace, no internal error. */
    public static Consumer<Run> says(String what) {
        return r -> {
            oneLineExit2(r);
            check(!r.err().contains("internal error"), "no internal error", r);
            check(r.err().contains(what), "expected '" + what + "'", r);
        };
    }

    /** Exit 2 and exactly this one line on stderr (naming a command: "metaroce CMD: ..."). */
    public static void oneLine(Run r, String line) {
        oneLineExit2(r);
        check(line.equals(r.err().strip()), "expected the line '" + line + "'", r);
    }

    /** Exit 2 and exactly this one line on stderr, also of the top command ("metaroce: ..."). */
    public static void topLine(Run r, String line) {
        check(r.exit() == 2, "exit 2", r);
        check(List.of(line).equals(r.errLines()), "expected the line '" + line + "'", r);
    }

    private static void check(boolean ok, String what, Run r) {
        if (!ok) throw new AssertionError(what + ": " + r.show());
    }
}
