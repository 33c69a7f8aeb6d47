package io.metaroce.cli;

import io.metaroce.index.FlowIndex;
import io.metaroce.index.lucene.LuceneFlowIndex;
import io.metaroce.index.solr.SolrFlowIndex;
import io.metaroce.index.solr.SolrTarget;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where the flow index lives, for {@code index}, {@code search} and {@code extract}: the one place a backend is
 * chosen. {@code --index DIR} is the embedded Lucene index; {@code --solr URL[,URL...] --collection NAME} a
 * SolrCloud collection (created with the shipped configset by {@code --create-collection}).
 */
final class IndexBackend {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--index", paramLabel = "DIR", description = "the flow index directory (embedded Lucene; created by 'index')")
    Path dir;

    @Option(names = "--solr", paramLabel = "URL[,URL...]", description = "a SolrCloud instead of --index: base URLs of one or more of its nodes (http://host:8983/solr)")
    String solr;

    @Option(names = "--collection", paramLabel = "NAME", description = "the SolrCloud collection holding the flows (with --solr)")
    String collection;

    @Option(names = "--create-collection", description = "create the collection when it does not exist (uploads the configset; with --solr)")
    boolean createCollection;

    @Option(names = "--shards", paramLabel = "N", description = "shards of a collection created by --create-collection (default: ${DEFAULT-VALUE})")
    int shards = 1;

    @Option(names = "--replicas", paramLabel = "M", description = "copies of each shard of a created collection (default: ${DEFAULT-VALUE})")
    int replicas = 1;

    /**
     * Opens the chosen index.
     *
     * @param write for adding captures (creates an embedded index that does not exist yet)
     * @throws io.metaroce.index.IndexFormatException one line for the user (not an index, other schema, locked)
     */
    FlowIndex open(boolean write) throws IOException {
        // Checked whatever the index: --shards 0 beside --index (or --solr without --create-collection) was ignored.
        if (shards < 1 || replicas < 1) throw usage("--shards and --replicas must be at least 1");
        if (solr != null) return openSolr();
        if (collection != null || createCollection) throw usage("--collection and --create-collection go with --solr URL");
        if (dir == null) throw usage("no index given (--index DIR, or --solr URL --collection NAME)");
        // An empty name is the current directory to Path: ": not empty and not a metaroce flow index" named nothing.
        if (dir.toString().isEmpty()) throw usage("--index needs a directory name");
        return write ? LuceneFlowIndex.openForWriting(dir) : LuceneFlowIndex.openForReading(dir);
    }

    private FlowIndex openSolr() throws IOException {
        if (dir != null) throw usage("--index and --solr name two indexes: give one");
        if (collection == null) throw usage("--solr needs --collection NAME");
        SolrTarget target;
        try {
            target = SolrTarget.parse(solr, collection);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        return SolrFlowIndex.open(target, createCollection ? shards : 0, replicas);
    }

    private ParameterException usage(String message) { return new ParameterException(mixee.commandLine(), message); }

    /** What the index is called in messages. */
    String name() { return solr != null ? "SolrCloud collection " + collection : String.valueOf(dir); }
}
