package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * index's AOT cache is trained on a generated pcap capture too ({@link AotTraining}), not only on the bundled pcapng
 * samples: indexing a pcap finds its reader and the content hash in the cache, instead of reading and verifying them
 * from the jar at every start; and the index it writes does not set up Lucene's memory-mapping directory. The JVM's
 * class-loading log says where each class came from.
 */
class IndexTrainingIT {
    @TempDir
    Path tmp;

    @Test
    void aPcapCaptureFindsItsReaderInTheCache() {
        Path cap = tmp.resolve("small.pcap");
        Launcher.Run sim = Launcher.run("simulate", "--scenario", "rocev2-clean", "--frames", "2000", "--out", cap.toString(), "--no-progress");
        assertEquals(0, sim.exit(), sim.show());
        Launcher.Run run = Launcher.run(Launcher.Call.of("index", cap.toString(), "--index", tmp.resolve("idx").toString(), "--no-progress")
                .env(Map.of("METAROCE_JAVA_OPTS", "-Xlog:class+load=info:stdout")));
        assertEquals(0, run.exit(), run.show());
        String out = run.out();
        for (String c : new String[] {"io.metaroce.capture.PcapReader", "io.metaroce.index.CaptureIdentity$ContentHasher"}) {
            assertTrue(out.contains(c + " source: shared objects file"), c + " from the cache:\n"
                    + out.lines().filter(l -> l.contains(c + " ")).findFirst().orElse("(not loaded)"));
        }
        // The writer reads through positional reads: Lucene's memory-mapping directory, whose initialisation links
        // native functions (downcall stubs spun at every start), is not initialised (its maps' provider and the
        // native functions are not loaded; the class itself may be, from the cache, as other classes name it).
        for (String c : new String[] {"org.apache.lucene.store.MemorySegmentIndexInputProvider", "org.apache.lucene.store.PosixNativeAccess"}) {
            assertFalse(out.contains(c + " "), c + " loaded");
        }
    }
}
