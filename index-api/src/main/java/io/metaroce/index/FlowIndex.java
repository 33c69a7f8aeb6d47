package io.metaroce.index;

import java.io.IOException;
import java.util.List;

/**
 * A flow index backend (embedded Lucene, SolrCloud). Semantics every backend keeps, so that the same
 * captures give the same answers everywhere:
 * <ul>
 * <li>{@link #addCapture} is atomic and durable: when it returns, the capture document and all its flow
 *     documents are committed together (a crash leaves all or none of them); any earlier documents of the
 *     same path or the same content hash are replaced in the same commit.</li>
 * <li>{@link #search}, {@link #top} and {@link #connections} see {@code flow} documents only ({@link FlowIndexQueries#flows}); part
 *     documents are reached through {@link #parts}.</li>
 * <li>Sort ties and facet order follow {@link FlowSort} and {@link FacetBucket#ORDER}; facets are exact.</li>
 * <li>Searching while another process or thread adds captures is allowed and sees whole captures only.</li>
 * </ul>
 */
public interface FlowIndex extends AutoCloseable {

    /** Adds one capture: its capture document ({@link FlowDocuments#capture}) and its flow and part documents. */
    void addCapture(IndexedCapture capture, List<FlowDocument> documents) throws IOException;

    /**
     * As {@link #addCapture(IndexedCapture, List)}, the documents made as the backend takes them, so that a
     * capture of many flows never holds all its documents at once (the embedded index converts and adds each
     * as it comes). An exception from the iteration leaves the index as it was. This default collects them.
     */
    default void addCapture(IndexedCapture capture, Iterable<FlowDocument> documents) throws IOException {
        List<FlowDocument> all = new java.util.ArrayList<>();
        for (FlowDocument d : documents) all.add(d);
        addCapture(capture, all);
    }

    /**
     * As {@link #addCapture(IndexedCapture, Iterable)}, all or nothing, but durable (and seen by searches) only from the
     * next {@link #commit}: a process that adds many captures commits them in groups ({@link CommitGroups}), so that
     * the index flushes fewer, larger segments and merges less, and it reports each capture once its commit is done.
     * This default commits at once (a backend whose commit is cheap or remote).
     */
    default void addUncommitted(IndexedCapture capture, Iterable<FlowDocument> documents) throws IOException {
        addCapture(capture, documents);
    }

    /**
     * As {@link #addUncommitted(IndexedCapture, Iterable)}, told that the iteration gives at least {@code atLeast}
     * documents (the caller knows its flows before their documents are made): a backend may add a large capture
     * otherwise than a small one (the embedded index adds one of many blocks apart, so that commits do not wait for
     * it). This default ignores the number.
     */
    default void addUncommitted(IndexedCapture capture, Iterable<FlowDocument> documents, long atLeast) throws IOException {
        addUncommitted(capture, documents);
    }

    /** Makes every capture whose {@link #addUncommitted} returned before this call durable; this default has none waiting. */
    default void commit() throws IOException {}

    /** The indexed capture with this content hash, or null. */
    IndexedCapture capture(String hash) throws IOException;

    /** Whether a capture with this content hash is indexed. */
    default boolean hasCapture(String hash) throws IOException { return capture(hash) != null; }

    /** Every indexed capture, by path. */
    List<IndexedCapture> captures() throws IOException;

    /** Removes a capture's documents; whether it was indexed. */
    boolean deleteCapture(String hash) throws IOException;

    /**
     * Removes every capture whose last packet is before {@code epochNs} (a capture without packets: indexed
     * before it), see {@link FlowIndexQueries#expiredBefore}.
     *
     * @return the captures removed
     */
    List<IndexedCapture> expireBefore(long epochNs) throws IOException;

    /** The flows matching a query, in the given order, at most {@code limit} of them. */
    SearchResult search(FlowQuery query, FlowSort sort, int limit) throws IOException;

    /** Every document of one flow (the flow document first, then its parts in order). */
    List<FlowDocument> parts(String rootId) throws IOException;

    /**
     * The exact top {@code n} values of {@code groupField} over the flows matching {@code filter}, by the sum of
     * {@code counter}. A multi-valued group field credits each of a flow's values with the flow's counter.
     *
     * @throws IllegalArgumentException when the group field cannot group or the counter cannot be summed
     */
    List<FacetBucket> top(FieldDef groupField, FieldDef counter, int n, FlowQuery filter) throws IOException;

    /**
     * The exact top {@code n} pairs of values of two fields (by default {@code src} and {@code dst}: who talked to
     * whom, Arkime's Connections) over the flows matching {@code filter}, with each pair's flows and the sum of each
     * counter, ordered by {@link Connection#ORDER} (the first counter's sum). A multi-valued field credits every pair
     * of a flow's values with the flow's counters.
     *
     * @throws IllegalArgumentException when a field cannot group or a counter cannot be summed ({@link Connection#check})
     */
    List<Connection> connections(FieldDef from, FieldDef to, List<FieldDef> counters, int n, FlowQuery filter) throws IOException;

    @Override
    void close() throws IOException;
}
