package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link FlowIndex} backend must answer, checked on the same seeded synthetic captures
 * ({@link SyntheticFlows}) against the in-memory meaning of each query ({@link FlowQueryMatcher}): every kind
 * of the query language, sort order and ties, exact facets, documents and parts back whole. Each backend's test
 * extends this class (shared through this module's test-jar) and only says how to make an empty index; what
 * holds for one backend then holds for all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class FlowIndexContract {
    /** Every kind of the language: ranges, hex QPs, CIDR, times, wildcards, negation, bare values, paths. */
    public static final List<String> QUERIES = List.of("naks:[5 TO *]", "dest_qp:0x000201", "src:10.0.0.0/24", "src:10.0.1.0/24 OR dst:fd00::/112",
            "first:[2026-11-30T00:55 TO 2026-11-30T00:57]", "last:<2026-11-30T00:55:30", "rule:MR-RTX-*", "rule:MR-RTX-00? AND NOT events:nak",
            "ce_without_cnp:*", "NOT ce_without_cnp:*", "transport:metaroce AND paths.2.loss_rate:>0", "ce_paths:1",
            "src_qps:[100 TO 150]", "10.1.0.3", "(naks:>3 || cnps:4) && -service:ud", "credit_mode:true cnps:{1 TO 4}",
            "*:*", "retransmissions_by_cause.nak:3", "dst:[10.1.0.2 TO 10.1.0.5]", "flow:*-1?", "capture:\"/captures/host3.pcapng\"",
            // counters most flows hold at 0, and one (acks) a few flows lack
            "naks:[0 TO 3]", "naks:0", "NOT naks:0", "timeouts:<1", "acks:*", "NOT acks:*", "acks:[0 TO 2]", "acks:[* TO 0]",
            "messages:* AND NOT acks:[1 TO *]", "(capture_gaps:0 AND duplicates:>0) OR unique_payload_bytes:0");

    /** The flow documents indexed, as generated. */
    protected final List<FlowDocument> flows = new ArrayList<>();
    private FlowIndex index;

    /** A new, empty index of the backend under test (called once, before the checks). */
    protected abstract FlowIndex newIndex() throws IOException;

    /** The index the checks query, once filled (a backend may reopen it for reading); by default the same one. */
    protected FlowIndex forQueries(FlowIndex filled) throws IOException { return filled; }

    @BeforeAll
    final void fill() throws IOException {
        FlowIndex w = newIndex();
        for (int c = 0; c < 6; c++) {
            SyntheticFlows.Capture cap = SyntheticFlows.capture(c, 400, 42);
            w.addCapture(cap.capture(), cap.documents());
            flows.addAll(cap.flows());
        }
        index = forQueries(w);
    }

    @AfterAll
    final void closeIndex() throws IOException {
        if (index != null) index.close();
    }

    @Test
    void everyQueryKindMatchesExactlyItsMeaning() throws IOException {
        for (String text : QUERIES) {
            FlowQuery q = FlowQueryParser.parse(text);
            List<String> want = flows.stream().filter(d -> FlowQueryMatcher.matches(q, d)).map(FlowDocument::id).sorted().toList();
            SearchResult r = index.search(q, FlowSort.DEFAULT, 100_000);
            assertEquals(want.size(), r.total(), text);
            assertEquals(want, r.flows().stream().map(FlowDocument::id).sorted().toList(), text);
            assertEquals(want.size(), index.search(q, FlowSort.DEFAULT, 0).total(), "count only: " + text);
            assertFalse(want.isEmpty() && !text.startsWith("NOT"), "the fixture exercises " + text);
        }
    }

    @Test
    void sortsByAnyNumericFieldWithTiesById() throws IOException {
        for (String spec : List.of("naks", "ce_without_cnp:desc", "ce_without_cnp:asc", "first:asc", "dest_qp:asc", "acks:asc", "acks:desc", "messages:asc")) {
            FlowSort s = FlowSort.parse(spec);
            Comparator<FlowDocument> byField = Comparator.comparing((FlowDocument d) -> d.getLong(s.field().name()),
                    s.descending() ? Comparator.nullsLast(Comparator.<Long>reverseOrder()) : Comparator.nullsLast(Comparator.<Long>naturalOrder()));
            List<String> want = flows.stream().sorted(byField.thenComparing(FlowDocument::id)).limit(1500).map(FlowDocument::id).toList();
            // 1500 > one page of a paging backend: the pages join without a gap or a repeat
            assertEquals(want, index.search(new FlowQuery.MatchAll(), s, 1500).flows().stream().map(FlowDocument::id).toList(), spec);
        }
    }

    @Test
    void topFacetsAreExact() throws IOException {
        String[][] cases = {{"dest_qp", "naks", "*:*"}, {"src", "ce_marks", "*:*"}, {"dst", "retransmitted_packets", "transport:rocev2"},
                {"rules", "naks", "*:*"}, {"ce_paths", "ce_marks", "*:*"}, {"capture_path", "cnps", "naks:>0"}, {"src_qps", "packets", "*:*"},
                {"acks", "naks", "*:*"}, {"messages", "acks", "*:*"}, {"psn_gaps", "packets", "NOT acks:*"}};
        for (String[] c : cases) {
            FieldDef g = FlowSchema.field(c[0]), by = FlowSchema.field(c[1]);
            FlowQuery f = FlowQueryParser.parse(c[2]);
            List<FacetBucket> want = SyntheticFlows.top(flows, g, by, 10, f);
            assertEquals(want, index.top(g, by, 10, f), String.join(" ", c));
            assertFalse(want.isEmpty());
        }
        assertThrows(IllegalArgumentException.class, () -> index.top(FlowSchema.field("first_ns"), FlowSchema.field("naks"), 10, new FlowQuery.MatchAll()));
        assertThrows(IllegalArgumentException.class, () -> index.top(FlowSchema.field("dest_qp"), FlowSchema.field("credit_mode"), 10, new FlowQuery.MatchAll()));
    }

    /**
     * Connections (pairs of two fields' values) are exact: the same as a brute-force sum over the flows generated and
     * over the flows {@link FlowIndex#search} returns for the filter, for single-valued, sparse and multi-valued fields.
     */
    @Test
    void connectionsAreExactPairSums() throws IOException {
        String[][] cases = {{"src", "dst", "retransmitted_packets", "*:*"}, {"src", "dst", "bytes,naks,cnps", "transport:rocev2"},
                {"src", "dest_qp", "naks", "naks:>0"}, {"dst", "capture_path", "ce_marks", "*:*"}, {"src", "rules", "packets", "*:*"},
                {"src_qps", "ce_paths", "ce_marks", "*:*"}, {"acks", "src", "naks", "*:*"}, {"src", "dst", "naks", "naks:>1000000"}};
        for (String[] c : cases) {
            FieldDef a = FlowSchema.field(c[0]), b = FlowSchema.field(c[1]);
            List<FieldDef> by = Arrays.stream(c[2].split(",")).map(FlowSchema::field).toList();
            FlowQuery f = FlowQueryParser.parse(c[3]);
            String what = String.join(" ", c);
            List<FlowDocument> matching = flows.stream().filter(d -> FlowQueryMatcher.matches(f, d)).toList();
            List<Connection> want = pairs(matching, a, b, by, 25);
            assertEquals(want, index.connections(a, b, by, 25, f), what);
            if (c[3].startsWith("naks:>") || c[3].startsWith("transport:")) {
                // Over what search returns too (a few filtered cases: loading every document is what a facet avoids).
                List<FlowDocument> searched = index.search(f, FlowSort.DEFAULT, 100_000).flows();
                assertEquals(want, pairs(searched, a, b, by, 25), "brute force over search: " + what);
            }
            assertEquals(!c[3].startsWith("naks:>1000000"), !want.isEmpty(), "the fixture exercises " + what);
        }
        // Every flow has a source and a destination: all the src -> dst pairs hold every flow once.
        List<Connection> all = index.connections(FlowSchema.field("src"), FlowSchema.field("dst"), List.of(FlowSchema.field("packets")),
                100_000, new FlowQuery.MatchAll());
        assertEquals(flows.size(), all.stream().mapToLong(Connection::flows).sum());
        assertThrows(IllegalArgumentException.class, () -> index.connections(FlowSchema.field("first_ns"), FlowSchema.field("dst"),
                List.of(FlowSchema.field("naks")), 10, new FlowQuery.MatchAll()));
        assertThrows(IllegalArgumentException.class, () -> index.connections(FlowSchema.field("src"), FlowSchema.field("dst"),
                List.of(FlowSchema.field("credit_mode")), 10, new FlowQuery.MatchAll()));
    }

    /** The connections of some flows by brute force: every pair of a flow's values, credited with its counters. */
    private static List<Connection> pairs(List<FlowDocument> flows, FieldDef a, FieldDef b, List<FieldDef> by, int n) {
        java.util.Map<List<Object>, long[]> sums = new java.util.HashMap<>();
        for (FlowDocument d : flows) {
            for (Object x : d.values(a.name())) {
                for (Object y : d.values(b.name())) {
                    long[] t = sums.computeIfAbsent(List.of(x, y), k -> new long[1 + by.size()]);
                    t[0]++;
                    for (int i = 0; i < by.size(); i++) {
                        Long v = d.getLong(by.get(i).name());
                        t[1 + i] += v == null ? 0 : v;
                    }
                }
            }
        }
        List<Connection> out = new ArrayList<>();
        sums.forEach((k, v) -> out.add(new Connection(k.get(0), k.get(1), v[0], Arrays.stream(v, 1, v.length).boxed().toList())));
        return Connection.top(out, n);
    }

    @Test
    void documentsComeBackWholeAndPartsInOrder() throws IOException {
        for (FlowDocument d : flows.subList(0, 50)) {
            var back = index.search(new FlowQuery.Term(FlowSchema.field(FlowSchema.ID), d.id()), FlowSort.DEFAULT, 1).flows();
            assertEquals(List.of(d), back);
            assertEquals(List.copyOf(d.fields().keySet()), List.copyOf(back.getFirst().fields().keySet()), "stored field order");
        }
        FlowDocument longest = flows.stream().max(Comparator.comparingLong(d -> d.getLong("packets"))).orElseThrow();
        List<FlowDocument> parts = index.parts(longest.getString(FlowSchema.ROOT_ID));
        assertEquals(longest.getLong(FlowSchema.PARTS).intValue(), parts.size());
        assertTrue(parts.size() > 1);
        assertEquals(longest, parts.getFirst());
        long[] offsets = parts.stream().flatMapToLong(p -> Arrays.stream(p.offsets())).toArray();
        assertEquals(longest.getLong("packets"), offsets.length);
        assertArrayEquals(longest.offsets(), Arrays.copyOf(offsets, longest.offsets().length));
        for (int i = 1; i < offsets.length; i++) assertTrue(offsets[i - 1] < offsets[i], "offsets in capture order");
    }
}
