package io.metaroce.gui.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.testsupport.Launcher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The flow search view model without a window, on a real index built by {@code metaroce index}: its hits and facets
 * are what {@code metaroce search} prints for the same query, its syntax check is the CLI parser's, and it remembers
 * the index directory.
 */
class FlowSearchModelTest {
    @TempDir
    Path config;

    private FlowSearchModel model() {
        FlowSearchModel m = new FlowSearchModel(new LastIndex(config.resolve("flow-index")), Runnable::run);
        m.indexDirProperty().set(SampleIndex.get().index);
        return m;
    }

    private static void await(FlowSearchModel m) throws Exception {
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> !m.runningProperty().get());
    }

    @Test
    void hitsAreWhatSearchPrintsForTheQuery() throws Exception {
        SampleIndex idx = SampleIndex.get();
        for (String q : List.of("naks:[1 TO *]", "retransmitted_packets:>0 AND NOT naks:0", "src:10.0.0.0/24", "transport:metaroce", "rule:MR-*")) {
            FlowSearchModel m = model();
            m.queryProperty().set(q);
            m.search();
            await(m);
            List<String> cli = idx.searchIds(q, "-n", "1000");
            assertEquals(cli, m.hits().stream().map(FlowHit::id).toList(), q + ": " + m.statusProperty().get());
            assertEquals(cli.size(), m.totalProperty().get(), q);
            assertFalse(cli.isEmpty(), q + " matches something in the samples");
        }
    }

    @Test
    void anEmptyQueryIsEveryFlowAndTheCountersAreTheIndexs() throws Exception {
        SampleIndex idx = SampleIndex.get();
        FlowSearchModel m = model();
        m.search();
        await(m);
        List<JsonNode> cli = SampleIndex.jsonl("search", "--index", idx.index.toString(), "*:*", "-T", "jsonl", "-n", "1000");
        assertEquals(cli.size(), m.hits().size());
        for (int i = 0; i < cli.size(); i++) {
            JsonNode j = cli.get(i);
            FlowHit h = m.hits().get(i);
            assertEquals(j.get("id").asText(), h.id());
            assertEquals(j.get("flow").asText(), h.flow());
            assertEquals(j.get("capture_path").asText(), h.capturePath());
            assertEquals(j.get("dest_qp").asLong(), h.destQp());
            assertEquals(j.get("packets").asLong(), h.packets());
            assertEquals(j.get("naks").asLong(), h.naks());
            assertEquals(j.get("retransmitted_packets").asLong(), h.retransmissions());
            assertEquals(j.get("ce_marks").asLong(), h.ceMarks());
            assertEquals(j.has("rules") ? j.get("rules").size() : 0, h.rulesBroken(), h.id());
        }
    }

    @Test
    void sortedSearchIsSearchWithSort() throws Exception {
        SampleIndex idx = SampleIndex.get();
        FlowSearchModel m = model();
        m.queryProperty().set("packets:>0");
        m.search(new FlowSort(FlowSchema.field("retransmitted_packets"), true));
        await(m);
        assertEquals(idx.searchIds("packets:>0", "--sort", "retransmitted_packets", "-n", "1000"), m.hits().stream().map(FlowHit::id).toList());
    }

    @Test
    void topIsSearchTopBy() throws Exception {
        SampleIndex idx = SampleIndex.get();
        for (String[] tb : new String[][] {{"dest_qp", "naks"}, {"src", "retransmitted_packets"}, {"capture_path", "ce_marks"}}) {
            FlowSearchModel m = model();
            m.top(tb[0], tb[1]);
            await(m);
            List<JsonNode> cli = SampleIndex.jsonl("search", "--index", idx.index.toString(), "*:*", "--top", tb[0], "--by", tb[1],
                    "-n", "" + FlowSearchModel.TOP, "-T", "jsonl");
            assertEquals(cli.size(), m.facet().size(), String.join(" ", tb));
            for (int i = 0; i < cli.size(); i++) {
                FacetRow r = m.facet().get(i);
                assertEquals(cli.get(i).get(tb[0]).asText(), String.valueOf(r.rawKey()));
                assertEquals(cli.get(i).get(tb[1]).asLong(), r.sum());
                assertEquals(cli.get(i).get("flows").asLong(), r.flows());
            }
            // A value's query term selects exactly its flows.
            FacetRow first = m.facet().getFirst();
            FlowSearchModel drill = model();
            drill.queryProperty().set(first.term());
            drill.search();
            await(drill);
            assertEquals(first.flows(), drill.totalProperty().get(), first.term());
        }
    }

    @Test
    void connectionsAreSearchConnectionsAndALinkSearchesItsPair() throws Exception {
        SampleIndex idx = SampleIndex.get();
        for (String[] qb : new String[][] {{"", "retransmitted_packets"}, {"packets:>10", "bytes"}}) {
            FlowSearchModel m = model();
            m.queryProperty().set(qb[0]);
            m.connections(qb[1]);
            await(m);
            List<JsonNode> cli = SampleIndex.jsonl("search", "--index", idx.index.toString(), qb[0].isEmpty() ? "*:*" : qb[0], "--connections",
                    "--by", qb[1], "-n", "" + FlowSearchModel.GRAPH_PAIRS, "-T", "jsonl");
            assertEquals(cli.size(), m.connections().size(), String.join(" ", qb));
            assertFalse(cli.isEmpty());
            for (int i = 0; i < cli.size(); i++) {
                ConnectionRow r = m.connections().get(i);
                assertEquals(cli.get(i).get("src").asText(), r.src());
                assertEquals(cli.get(i).get("dst").asText(), r.dst());
                assertEquals(cli.get(i).get("flows").asLong(), r.flows());
                assertEquals(cli.get(i).get(qb[1]).asLong(), r.sum());
            }
            assertEquals(qb[1], m.connectionsCounter());
            assertTrue(m.connectionsNoteProperty().get().contains(" by " + qb[1]), m.connectionsNoteProperty().get());
            // A link clicked: exactly the pair's flows, within the query the graph is of.
            ConnectionRow first = m.connections().getFirst();
            m.searchConnection(first);
            await(m);
            assertEquals(first.flows(), m.totalProperty().get(), m.queryProperty().get());
            assertTrue(m.hits().stream().allMatch(h -> h.src().equals(first.src()) && h.dst().equals(first.dst())));
            if (!qb[0].isEmpty()) assertTrue(m.queryProperty().get().startsWith("(" + qb[0] + ") AND "), m.queryProperty().get());
        }
        // The link colour's counter: pairs that retransmitted, and pairs that did not, in the samples.
        FlowSearchModel m = model();
        m.connections("packets");
        await(m);
        assertTrue(m.connections().stream().anyMatch(r -> r.retransmitted() > 0));
        assertTrue(m.connections().stream().anyMatch(r -> r.retransmitted() == 0));

        // The graph's cap: at exactly as many pairs as there are, all drawn and no "more" note; one fewer, the top
        // ones drawn, in the same order, and the note says more match.
        List<ConnectionRow> all = List.copyOf(m.connections());
        for (int cap : new int[] {all.size(), all.size() - 1}) {
            FlowSearchModel capped = new FlowSearchModel(new LastIndex(config.resolve("flow-index")), Runnable::run, cap);
            capped.indexDirProperty().set(SampleIndex.get().index);
            capped.connections("packets");
            await(capped);
            assertEquals(all.subList(0, cap), capped.connections(), "cap " + cap);
            String note = capped.connectionsNoteProperty().get();
            if (cap == all.size()) assertEquals(cap + " host pairs by packets", note);
            else assertEquals("the top " + cap + " host pairs by packets (more match: narrow the query)", note);
        }
    }

    @Test
    void theSyntaxCheckIsTheCliParsersWithItsColumn() {
        FlowSearchModel m = new FlowSearchModel(new LastIndex(config.resolve("flow-index")), Runnable::run);
        m.queryProperty().set("naks:[1 TO *]");
        assertNull(m.queryErrorProperty().get());
        m.queryProperty().set("naks:[1 TO *] AND nakz:3");
        assertNotNull(m.queryErrorProperty().get());
        assertEquals(19, m.queryErrorProperty().get().column());
        Launcher.Run r = SampleIndex.run("search", "--index", SampleIndex.get().index.toString(), "naks:[1 TO *] AND nakz:3");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains(m.queryErrorProperty().get().getMessage()), r.err());
        m.queryProperty().set("");
        assertNull(m.queryErrorProperty().get(), "an empty query is every flow");
    }

    @Test
    void theIndexDirectoryIsRememberedAndABadOneIsOneLine() throws Exception {
        FlowSearchModel m = model();
        m.search();
        await(m);
        assertEquals(SampleIndex.get().index.toAbsolutePath().normalize(), new LastIndex(config.resolve("flow-index")).load());
        FlowSearchModel again = new FlowSearchModel(new LastIndex(config.resolve("flow-index")), Runnable::run);
        assertEquals(SampleIndex.get().index.toAbsolutePath().normalize(), again.indexDirProperty().get());

        Path notAnIndex = Files.createDirectories(config.resolve("empty"));
        Files.writeString(notAnIndex.resolve("x.txt"), "not an index");
        again.indexDirProperty().set(notAnIndex);
        again.search();
        await(again);
        assertTrue(again.hits().isEmpty());
        assertFalse(again.statusProperty().get().contains("\n"));
        assertTrue(again.statusProperty().get().toLowerCase().contains("index"), again.statusProperty().get());
    }

    @Test
    void aMovedCaptureIsFoundByTheExtractCheck() throws Exception {
        Path copy = config.resolve("copy.pcapng");
        Files.copy(SampleIndex.get().capture("rocev2-rnr"), copy);
        FlowSearchModel m = model();
        m.queryProperty().set("capture:*rocev2-rnr*");
        m.search();
        await(m);
        FlowHit h = m.hits().getFirst();
        String[] problem = {"unset"};
        m.checkCapture(h, p -> problem[0] = p);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> !"unset".equals(problem[0]));
        assertNull(problem[0], "the indexed capture is unchanged");
        FlowHit moved = new FlowHit(h.id(), h.rootId(), config.resolve("gone.pcapng").toString(), h.captureSize(), h.captureHash(),
                h.flow(), h.src(), h.dst(), h.destQp(), h.firstNs(), h.lastNs(), h.packets(), 0, 0, 0, 0, List.of());
        problem[0] = "unset";
        m.checkCapture(moved, p -> problem[0] = p);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> !"unset".equals(problem[0]));
        assertEquals("moved or deleted since it was indexed", problem[0]);
        Files.write(copy, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
        FlowHit changed = new FlowHit(h.id(), h.rootId(), copy.toString(), h.captureSize(), h.captureHash(),
                h.flow(), h.src(), h.dst(), h.destQp(), h.firstNs(), h.lastNs(), h.packets(), 0, 0, 0, 0, List.of());
        problem[0] = "unset";
        m.checkCapture(changed, p -> problem[0] = p);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> !"unset".equals(problem[0]));
        assertTrue(problem[0].startsWith("changed since it was indexed"), problem[0]);
    }
}
