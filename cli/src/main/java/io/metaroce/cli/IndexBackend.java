package io.metaroce.cli;

import io.metaroce.index.FlowIndex;
import io.metaroce.index.lucene.LuceneFlowIndex;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where the flow index lives, for {@code index}, {@code search} and {@code extract}: the one place a backend is
 * chosen. {@code --index DIR} is the embedded Lucene index; another backend adds its options here and a branch
 * in {@link #open}.
 */
final class IndexBackend {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--index", paramLabel = "DIR", description = "the flow index directory (embedded Lucene; created by 'index')")
    Path dir;

    /**
     * Opens the chosen index.
     *
     * @param write for adding captures (creates an embedded index that does not exist yet)
     * @throws io.metaroce.index.IndexFormatException one line for the user (not an index, other schema, locked)
     */
    FlowIndex open(boolean write) throws IOException {
        if (dir == null) throw new ParameterException(mixee.commandLine(), "no index given (--index DIR)");
        return write ? LuceneFlowIndex.openForWriting(dir) : LuceneFlowIndex.openForReading(dir);
    }

    /** What the index is called in messages. */
    String name() { return String.valueOf(dir); }
}
