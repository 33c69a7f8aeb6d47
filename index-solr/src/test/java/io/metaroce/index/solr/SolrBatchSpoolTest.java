package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaroce.index.FlowDocument;
import io.metaroce.index.SyntheticFlows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scratch file of a capture's Solr documents: every document of synthetic captures (every counter, IPv4 and IPv6
 * with their twins, multi-valued fields, packed offsets, parts) comes back in order with the same fields, values and
 * value types as SolrJ was given them; the batches keep their sizes; the file is gone from its directory while open.
 */
class SolrBatchSpoolTest {

    @Test
    void batchesComeBackAsTheyWentIn(@TempDir Path dir) throws Exception {
        List<List<SolrInputDocument>> written = new ArrayList<>();
        try (SolrBatchSpool spool = SolrBatchSpool.open(dir)) {
            assertEquals(List.of(), listing(dir), "unlinked at once");
            List<SolrInputDocument> batch = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                for (FlowDocument d : SyntheticFlows.capture(c, 700, c + 1).documents()) {
                    batch.add(SolrDocuments.toSolr(d));
                    if (batch.size() == 1000) {
                        spool.write(batch);
                        written.add(List.copyOf(batch));
                        batch.clear(); // the caller's list is reused: the spool kept its own copy
                    }
                }
            }
            spool.write(batch);
            written.add(List.copyOf(batch));
            assertEquals(written.size(), spool.batches());
            var in = spool.read();
            for (List<SolrInputDocument> want : written) {
                List<SolrInputDocument> got = in.next();
                assertEquals(want.size(), got.size());
                for (int i = 0; i < want.size(); i++) assertSame(want.get(i), got.get(i));
            }
            assertFalse(in.hasNext());
            assertThrows(IllegalStateException.class, spool::read);
        }
        assertEquals(List.of(), listing(dir));
    }

    private static void assertSame(SolrInputDocument want, SolrInputDocument got) {
        assertEquals(List.copyOf(want.getFieldNames()), List.copyOf(got.getFieldNames()));
        for (String name : want.getFieldNames()) {
            List<Object> w = List.copyOf(want.getFieldValues(name)), g = List.copyOf(got.getFieldValues(name));
            assertEquals(w.size(), g.size(), name);
            for (int i = 0; i < w.size(); i++) {
                assertEquals(w.get(i).getClass(), g.get(i).getClass(), name);
                if (w.get(i) instanceof byte[] b) assertArrayEquals(b, (byte[]) g.get(i), name);
                else assertEquals(w.get(i), g.get(i), name);
            }
        }
    }

    private static List<Path> listing(Path dir) throws Exception {
        try (var s = Files.list(dir)) {
            return s.toList();
        }
    }
}
