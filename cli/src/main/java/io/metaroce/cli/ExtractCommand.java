package io.metaroce.cli;

import io.metaroce.index.FlowExtract;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.QuerySyntaxException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce extract --index DIR 'QUERY' -w out.pcapng}: the packets of the matching flows, read from their
 * source captures at the offsets the index stored, into one pcapng: one interface per source capture (and link
 * type), each packet commented with its flow and source frame. A source that moved or changed since it was
 * indexed (size or content hash differ) is reported and left out, never misread.
 */
@Command(name = "extract", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Write the packets of the flows matching a query to one pcapng, read from the source captures.",
        // Each example fits the help's 80 columns, continued with a backslash (picocli cut a longer one anywhere).
        footer = {"", "Examples:", "  metaroce extract --index flows.idx 'naks:>0 AND dest_qp:0x000201' \\",
                "      -w naks.pcapng",
                "  metaroce analyze -r naks.pcapng"})
public final class ExtractCommand implements Callable<Integer> {
    @Spec(Spec.Target.SELF)
    CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Mixin
    IndexBackend backend;

    @Parameters(paramLabel = "QUERY", index = "0", arity = "0..1", description = "the flows to extract (the search query language)")
    String query;

    @Option(names = "--nccl", paramLabel = "WARNING|LOGFILE",
            description = "the flows an NCCL warning names (as search --nccl); ANDed with QUERY")
    String nccl;

    @Option(names = {"-w", "--write"}, paramLabel = "FILE", required = true, description = "the pcapng to write")
    Path output;

    @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "at most N flows (default: every match)")
    Integer limit;

    @Override
    public Integer call() throws IOException {
        PrintStream err = System.err;
        NcclOption.Lookup lookup = NcclOption.combine(nccl, this.query, spec.commandLine());
        String query = lookup.query();
        if (nccl != null) err.println("metaroce extract: query from --nccl: " + FrontDoor.printable(query));
        FlowQuery q;
        try {
            q = FlowQueryParser.parse(query);
        } catch (QuerySyntaxException e) {
            err.println("metaroce extract: query: " + e.getMessage());
            return 2;
        }
        // -n 0 wrote an empty capture and exited 0 (search's -n 0 counts the matches; there is nothing to count here).
        if (limit != null && limit < 1) throw new ParameterException(spec.commandLine(), "--limit must be at least 1, not " + limit);
        String why = OutputFiles.unwritable(output);
        if (why != null) {
            err.println("metaroce extract: cannot write " + output + ": " + why);
            return 2;
        }
        FlowExtract.Result r;
        String timesHint = null;
        try (FlowIndex index = backend.open(false)) {
            long total = index.search(q, FlowSort.DEFAULT, 0).total();
            if (total == 0) timesHint = lookup.timesHint(new SearchCommand.Counter(index));
            int n = (int) Math.min(limit != null ? limit : Integer.MAX_VALUE, total);
            List<FlowExtract.Flow> flows = index.search(q, FlowSort.DEFAULT, n).flows().stream().map(FlowExtract.Flow::of).toList();
            r = FlowExtract.write(index, flows, output);
        } catch (IndexFormatException e) {
            err.println("metaroce extract: " + e.getMessage());
            return 2;
        } catch (QuerySyntaxException e) {
            // A query the parser took but the index refuses (too many terms for one search): the query's problem.
            err.println("metaroce extract: query: " + e.reason());
            return 2;
        } catch (IOException e) {
            // In plain words: the output, a capture it copies from, or the index's files (its format problems are above).
            err.println("metaroce extract: " + OutputFiles.failure(e));
            return 2;
        }
        for (String problem : r.problems()) err.println("metaroce extract: " + problem);
        err.println("metaroce extract: " + r.packets() + " packets of " + r.flows() + " flows written to " + output);
        // As search says it: a query typed with full-width forms matched nothing because it is one plain word.
        String hint = r.flows() == 0 ? SearchCommand.fullWidthHint(query) : null;
        if (hint != null) err.println("metaroce extract: " + hint);
        if (timesHint != null) err.println("metaroce extract: " + timesHint);
        return r.problems().isEmpty() ? 0 : 2;
    }
}
