package io.metaroce.gui.search;

import io.metaroce.index.CaptureIdentity;
import io.metaroce.index.Connection;
import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FlowExtract;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.QuerySyntaxException;
import io.metaroce.index.SearchResult;
import io.metaroce.index.lucene.LuceneFlowIndex;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The flow search, without a window (the view binds to it; tests drive it directly): the index directory (embedded
 * Lucene, remembered in the user's GUI config), the query checked as it is typed by the parser of
 * {@code metaroce search} ({@link #queryErrorProperty()}: null while it parses, else the error with its column),
 * the history of queries run, and the hits ({@link #hits()}), facet values ({@link #facet()}) or host pairs
 * ({@link #connections()}, the Connections graph) of the last run.
 * Searches run on a background thread ({@link #runningProperty()}; {@link #cancel()} drops their answer); every
 * property changes on the JavaFX thread only, through the {@code fx} executor.
 */
public final class FlowSearchModel {
    /** Flows shown per search; the status says when more matched (narrow the query, or sort by a counter). */
    public static final int LIMIT = 1000;
    /** Facet values shown. */
    public static final int TOP = 20;
    /** Host pairs the Connections graph draws at most (the top ones by its counter; the view says when there were more). */
    public static final int GRAPH_PAIRS = 50;
    /** The counter that colours a link: the pair retransmitted. */
    public static final String RETRANSMITTED = "retransmitted_packets";
    private static final int MAX_HISTORY = 30;
    /** The facet groups and counters an operator picks from (any groupable/summable schema field works). */
    public static final List<String> GROUPS = List.of(FlowSchema.DEST_QP, FlowSchema.SRC, FlowSchema.DST,
            FlowSchema.SRC_QPS, FlowSchema.CAPTURE_PATH, FlowSchema.RULES, FlowSchema.EVENTS, FlowSchema.LOSSY_PATHS,
            FlowSchema.CE_PATHS, FlowSchema.DOWN_PATHS, "transport");
    public static final List<String> COUNTERS = List.of("naks", "retransmitted_packets", "ce_marks", "cnps",
            "spurious_retransmissions", "rnr_naks", "psn_gaps", "network_losses", "capture_gaps", "credit_stalls",
            "packets", "bytes");

    private final LastIndex lastIndex;
    private final Executor fx;
    private final ObjectProperty<Path> indexDir = new SimpleObjectProperty<>(this, "indexDir");
    private final StringProperty query = new SimpleStringProperty(this, "query", "");
    private final ReadOnlyObjectWrapper<QuerySyntaxException> queryError = new ReadOnlyObjectWrapper<>(this, "queryError");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyLongWrapper total = new ReadOnlyLongWrapper(this, "total");
    private final ObservableList<FlowHit> hits = FXCollections.observableArrayList();
    private final ObservableList<FacetRow> facet = FXCollections.observableArrayList();
    private final ObservableList<String> history = FXCollections.observableArrayList();
    private final ObservableList<ConnectionRow> connections = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper connectionsNote = new ReadOnlyStringWrapper(this, "connectionsNote", "");
    /** The query the shown connections are of (what a click on a link narrows), null before the first. */
    private String connectionsQuery;
    /** The counter of the shown connections (what sizes their links). */
    private String connectionsCounter = "";
    /** Counts runs: the answer of a cancelled or superseded run is dropped. */
    private int generation;
    /** The query whose flows {@link #hits()} shows (what "extract all" extracts), null before the first search. */
    private String shownQuery;
    private final int graphPairs;

    /**
     * @param lastIndex where the last index directory is remembered
     * @param fx runs a task on the JavaFX thread ({@code Platform::runLater})
     */
    public FlowSearchModel(LastIndex lastIndex, Executor fx) {
        this(lastIndex, fx, GRAPH_PAIRS);
    }

    /** With another cap on the Connections graph's pairs (a test reaches the cap on a small index). */
    FlowSearchModel(LastIndex lastIndex, Executor fx, int graphPairs) {
        this.lastIndex = lastIndex;
        this.fx = fx;
        this.graphPairs = graphPairs;
        indexDir.set(lastIndex.load());
        query.addListener((o, a, text) -> queryError.set(check(text)));
    }

    public ObjectProperty<Path> indexDirProperty() { return indexDir; }
    public StringProperty queryProperty() { return query; }
    /** The syntax error of the query as typed, or null when it parses (an empty query means every flow). */
    public ReadOnlyObjectProperty<QuerySyntaxException> queryErrorProperty() { return queryError.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty runningProperty() { return running.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    /** How many flows matched the last search, also beyond those shown. */
    public ReadOnlyLongProperty totalProperty() { return total.getReadOnlyProperty(); }
    public ObservableList<FlowHit> hits() { return hits; }
    public ObservableList<FacetRow> facet() { return facet; }
    /** The host pairs of the last {@link #connections(String)}, in the backend's order (largest sum first). */
    public ObservableList<ConnectionRow> connections() { return connections; }
    /** The counter the shown connections are summed by. */
    public String connectionsCounter() { return connectionsCounter; }
    /** What the Connections graph shows, in words: the counter, and whether the pairs were capped. */
    public ReadOnlyStringProperty connectionsNoteProperty() { return connectionsNote.getReadOnlyProperty(); }
    /** The queries run, newest first. */
    public ObservableList<String> history() { return history; }

    /** The query text's syntax error, or null: the parser of {@code metaroce search}, nothing of its own. */
    public static QuerySyntaxException check(String text) {
        if (text == null || text.isBlank()) return null;
        try {
            FlowQueryParser.parse(text);
            return null;
        } catch (QuerySyntaxException e) {
            return e;
        }
    }

    /** The query to run: the text, or every flow for an empty one. */
    private String queryText() {
        String q = query.get() == null ? "" : query.get().strip();
        return q.isEmpty() ? "*:*" : q;
    }

    /** Runs the query: the matching flows, in capture order (as {@code search} prints them). */
    public void search() { search(FlowSort.DEFAULT); }

    /** Runs the query, the flows ordered by a numeric field (a counter: most first), as {@code search --sort}. */
    public void search(FlowSort sort) {
        String text = queryText();
        run(text, index -> {
            SearchResult r = index.search(FlowQueryParser.parse(text), sort, LIMIT);
            List<FlowHit> rows = new ArrayList<>(r.flows().size());
            for (var d : r.flows()) rows.add(FlowHit.of(d));
            return () -> {
                facet.clear();
                shownQuery = text;
                hits.setAll(rows);
                total.set(r.total());
                status.set(r.total() + " flow" + (r.total() == 1 ? "" : "s") + " match"
                        + (r.total() > rows.size() ? " (" + rows.size() + " shown: narrow the query or sort by a counter)" : ""));
            };
        });
    }

    /** The exact top values of a field by the sum of a counter over the matching flows, as {@code search --top --by}. */
    public void top(String groupField, String counterField) {
        String text = queryText();
        FieldDef group = FlowSchema.field(groupField), counter = FlowSchema.field(counterField);
        if (group == null || !group.groupable() || counter == null || !counter.summable()) {
            status.set("Cannot group " + groupField + " by " + counterField);
            return;
        }
        run(text, index -> {
            List<FacetBucket> buckets = index.top(group, counter, TOP, FlowQueryParser.parse(text));
            List<FacetRow> rows = buckets.stream().map(b -> FacetRow.of(group.name(), b)).toList();
            return () -> {
                facet.setAll(rows);
                status.set("Top " + rows.size() + " " + group.name() + " by " + counter.name());
            };
        });
    }

    /**
     * The top {@link #GRAPH_PAIRS} source/destination pairs of the matching flows by the sum of a counter, each with
     * its retransmitted packets, as {@code search --connections --by COUNTER} (one more asked, to know whether there
     * were more than the graph draws).
     */
    public void connections(String counterField) {
        String text = queryText();
        FieldDef counter = FlowSchema.field(counterField), retx = FlowSchema.field(RETRANSMITTED);
        if (counter == null || !counter.summable()) {
            status.set("Cannot sum " + counterField);
            return;
        }
        FieldDef src = FlowSchema.field(FlowSchema.SRC), dst = FlowSchema.field(FlowSchema.DST);
        run(text, index -> {
            List<Connection> pairs = index.connections(src, dst, List.of(counter, retx), graphPairs + 1, FlowQueryParser.parse(text));
            boolean capped = pairs.size() > graphPairs;
            List<ConnectionRow> rows = new ArrayList<>();
            for (Connection c : pairs.subList(0, Math.min(graphPairs, pairs.size()))) rows.add(ConnectionRow.of(c));
            return () -> {
                connectionsQuery = text;
                connectionsCounter = counter.name();
                connections.setAll(rows);
                String note = capped ? "the top " + graphPairs + " host pairs by " + counter.name() + " (more match: narrow the query)"
                        : rows.size() + " host pair" + (rows.size() == 1 ? "" : "s") + " by " + counter.name();
                connectionsNote.set(note);
                status.set("Connections: " + note);
            };
        });
    }

    /** A link clicked: the flows of its pair within the query the graph is of, as a new search (Arkime's link click). */
    public void searchConnection(ConnectionRow r) {
        String q = connectionsQuery;
        query.set(q == null || q.equals("*:*") ? r.term() : "(" + q + ") AND " + r.term());
        search();
    }

    /** Stops waiting for the running search: its answer is dropped, what is shown stays. */
    public void cancel() {
        if (!running.get()) return;
        generation++;
        running.set(false);
        status.set("Search cancelled");
    }

    /** One read of the index: returns what to show, applied on the JavaFX thread. */
    private interface Read {
        Runnable apply(FlowIndex index) throws IOException;
    }

    /**
     * Writes the packets of flows to one pcapng, as {@code metaroce extract} writes them (its own code,
     * {@link FlowExtract}): the chosen hits, or with null every flow the shown search matched, also beyond those
     * shown ({@code metaroce extract --index DIR QUERY -w out}, the same bytes). The status says what was written
     * and which flows were left out (a capture moved or changed since indexing).
     */
    public void extract(List<FlowHit> chosen, Path out) {
        if (shownQuery == null) {
            status.set("Search first: extract writes the flows a search found");
            return;
        }
        if (chosen != null && chosen.isEmpty()) {
            status.set("Select the flows to extract");
            return;
        }
        String text = shownQuery;
        // The chosen flows in the order the index gave them (so the captures are written in the order extract writes them).
        List<FlowExtract.Flow> refs = chosen == null ? null
                : hits.stream().filter(chosen::contains).map(FlowHit::extractRef).toList();
        run(text, "Extracting to " + out + " ...", false, index -> {
            List<FlowExtract.Flow> flows = refs;
            if (flows == null) {
                FlowQuery q = FlowQueryParser.parse(text);
                long n = index.search(q, FlowSort.DEFAULT, 0).total();
                flows = index.search(q, FlowSort.DEFAULT, (int) Math.min(n, Integer.MAX_VALUE)).flows().stream()
                        .map(FlowExtract.Flow::of).toList();
            }
            FlowExtract.Result r;
            try {
                r = FlowExtract.write(index, flows, out);
            } catch (IndexFormatException e) {
                throw e;
            } catch (IOException e) {
                return () -> status.set("Cannot extract to " + out + ": " + e.getMessage());
            }
            String written = "Wrote " + r.packets() + " packets of " + r.flows() + " flow" + (r.flows() == 1 ? "" : "s") + " to " + out;
            return () -> status.set(r.problems().isEmpty() ? written : written + "; left out: " + String.join("; ", r.problems()));
        });
    }

    private void run(String text, Read read) { run(text, null, true, read); }

    /**
     * Runs one read of the index on a background thread.
     *
     * @param busy the status while it runs, null for "Searching DIR ..."
     * @param isSearch whether the query goes into the history (a search) or not (an extraction)
     */
    private void run(String text, String busy, boolean isSearch, Read read) {
        QuerySyntaxException bad = check(text);
        if (bad != null) {
            status.set("Query: " + bad.getMessage());
            return;
        }
        Path dir = indexDir.get();
        if (dir == null) {
            status.set("Choose the index directory first (made by 'metaroce index CAPTURES --index DIR')");
            return;
        }
        int gen = ++generation;
        running.set(true);
        status.set(busy != null ? busy : "Searching " + dir + " ...");
        if (isSearch) remember(text);
        Thread.ofPlatform().daemon().name("metaroce-gui-search").start(() -> {
            Runnable show;
            // Opened per search: a reader sees the captures committed up to now ('metaroce index' may be running).
            try (FlowIndex index = LuceneFlowIndex.openForReading(dir)) {
                show = read.apply(index);
                lastIndex.save(dir);
            } catch (IndexFormatException e) {
                show = () -> status.set(e.getMessage());
            } catch (IOException | RuntimeException e) {
                show = () -> status.set("Cannot search " + dir + ": " + e.getMessage());
            }
            Runnable done = show;
            fx.execute(() -> {
                if (gen != generation) return;
                // The answer first, then not running: whoever waits for the end of a run sees its answer (a test
                // reading the hits as running turned false found them empty, under load).
                done.run();
                running.set(false);
            });
        });
    }

    private void remember(String text) {
        history.remove(text);
        history.addFirst(text);
        while (history.size() > MAX_HISTORY) history.removeLast();
    }

    /**
     * Checks, off the JavaFX thread, that a hit's capture is still the file that was indexed (the check
     * {@code metaroce extract} makes: size, then content hash), then hands the result to done on the JavaFX thread:
     * null when it is, else why not.
     */
    public void checkCapture(FlowHit hit, Consumer<String> done) {
        IndexedCapture cap = new IndexedCapture(hit.capturePath(), hit.captureSize(), hit.captureHash(), "", null, null, null, 0);
        Thread.ofPlatform().daemon().name("metaroce-gui-check").start(() -> {
            String problem;
            try {
                problem = CaptureIdentity.changedSince(cap);
            } catch (IOException e) {
                problem = "cannot be read: " + e.getMessage();
            }
            String p = problem;
            fx.execute(() -> done.accept(p));
        });
    }
}
