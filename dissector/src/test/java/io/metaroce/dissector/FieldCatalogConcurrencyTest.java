package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterField;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The field catalogue is shared by every thread (a GUI thread compiling the filter bar while a background task
 * compiles the analysis filters): resolving names from many threads at once, on a cold cache, gives every
 * thread the same answers as one thread would, and one cached instance per name.
 */
class FieldCatalogConcurrencyTest {

    @Test
    void resolvingFromManyThreadsOnAColdCacheAgreesWithOneThread() throws Exception {
        List<String> names = new ArrayList<>();
        for (FieldDef f : Spec.FIELDS) {
            names.add(f.name());
            names.addAll(f.aliases());
        }
        for (HeaderDef h : Spec.HEADERS) names.add(h.id());
        names.add("no.such.field");
        FieldCatalog reference = new FieldCatalog();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 20; round++) {
                FieldCatalog cold = new FieldCatalog();
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<List<FilterField>>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    List<String> order = new ArrayList<>(names);
                    Collections.shuffle(order, new java.util.Random(round * 31L + t));
                    results.add(pool.submit(() -> {
                        start.await();
                        List<FilterField> out = new ArrayList<>();
                        for (String n : names) out.add(cold.resolve(n));
                        for (String n : order) cold.resolve(n);
                        DisplayFilter.compile("bth.psn >= 1 && infiniband.bth.destqp == 0x12 && mrth", cold);
                        return out;
                    }));
                }
                List<List<FilterField>> all = new ArrayList<>();
                for (Future<List<FilterField>> f : results) all.add(f.get(60, TimeUnit.SECONDS));
                for (int i = 0; i < names.size(); i++) {
                    FilterField expected = reference.resolve(names.get(i));
                    for (List<FilterField> r : all) {
                        assertEquals(expected, r.get(i), names.get(i));
                        if (expected != null) {
                            assertNotNull(r.get(i));
                            assertSame(all.getFirst().get(i), r.get(i), "one cached instance for " + names.get(i));
                        }
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
