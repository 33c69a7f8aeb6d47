package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tshark's {@code -r -} (standard input) and gzip-compressed captures, through the shipped launcher: the same output as
 * the uncompressed file on disk (but for its name), damage said in one line with exit 2, and {@code index}, which
 * points into the file itself, refusing a compressed capture in plain words.
 */
class StdinAndGzipIT {
    @TempDir
    static Path tmp;

    private static final String SAMPLE = "rocev2-gbn-loss";
    private static Path plain, gz, cut, dir;
    private static List<Run> runs;

    private static Path gzip(Path from, Path to) throws Exception {
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(to))) {
            Files.copy(from, o);
        }
        return to;
    }

    @BeforeAll
    static void runAll() throws Exception {
        plain = Launcher.CAPTURES.resolve(SAMPLE + ".pcapng");
        gz = gzip(plain, tmp.resolve(SAMPLE + ".pcapng.gz"));
        byte[] z = Files.readAllBytes(gz);
        cut = Files.write(tmp.resolve("cut.pcapng.gz"), Arrays.copyOf(z, z.length / 2));
        dir = Files.createDirectory(tmp.resolve("dir"));
        gzip(plain, dir.resolve("a.pcapng.gz"));
        Files.copy(Launcher.CAPTURES.resolve("rocev2-clean.pcapng"), dir.resolve("b.pcapng"));
        Path empty = Files.createFile(tmp.resolve("empty"));
        runs = Launcher.runAll(List.of(
                Call.of("dissect", "-r", plain.toString()),                                 // 0
                Call.of("dissect", "-r", "-").stdin(plain),                                 // 1
                Call.of("analyze", "-r", plain.toString(), "-T", "json"),                   // 2
                Call.of("analyze", "-r", "-", "-T", "json").stdin(gz),                      // 3: gzip on standard input
                Call.of("validate", plain.toString(), "-T", "json"),                        // 4
                Call.of("validate", gz.toString(), "-T", "json"),                           // 5
                Call.of("analyze", dir.toString()),                                         // 6
                Call.of("analyze", "-r", cut.toString()),                                   // 7
                Call.of("index", gz.toString(), "--index", tmp.resolve("idx").toString()),  // 8
                Call.of("dissect", "-r", "-").stdin(empty),                                 // 9
                Call.of("validate", "-").stdin(plain)));                                    // 10
    }

    @Test
    void standardInputReadsAsTheFile() {
        Run file = runs.get(0), stdin = runs.get(1);
        assertEquals(0, stdin.exit(), stdin.show());
        assertTrue(file.out().lines().count() > 100, file.show());
        assertEquals(file.out(), stdin.out());
        Run v = runs.get(10);
        assertEquals(0, v.exit(), v.show());
        assertTrue(v.out().startsWith("-: WARN  192 frames, 0 errors, 2 warnings"), v.show());
    }

    @Test
    void aGzipCaptureAnalyzesAndValidatesAsItsUncompressedSelf() {
        Run a = runs.get(2), az = runs.get(3);
        assertEquals(0, az.exit(), az.show());
        assertEquals(a.out().replace(plain.toString(), "-"), az.out());
        Run v = runs.get(4), vz = runs.get(5);
        assertEquals(v.exit(), vz.exit(), vz.show());
        assertEquals(v.out().replace(plain.toString(), gz.toString()), vz.out());
        assertTrue(vz.out().contains("\"findings\""), vz.show());
    }

    @Test
    void aDirectoryTakesItsGzipCaptures() {
        Run r = runs.get(6);
        assertEquals(0, r.exit(), r.show());
        assertTrue(r.out().contains("Capture: " + dir.resolve("a.pcapng.gz")), r.show());
        assertTrue(r.out().contains("Capture: " + dir.resolve("b.pcapng")), r.show());
    }

    @Test
    void damageAndWhatCannotBeReadAreOneLineEachAndExit2() {
        Run c = runs.get(7);
        assertEquals(2, c.exit(), c.show());
        assertTrue(c.err().startsWith("metaroce analyze: " + cut + ": the gzip data ends early or is damaged (Unexpected end of ZLIB input stream)"), c.show());
        assertTrue(c.out().contains("QP Conversations"), "what was readable is analyzed: " + c.show());
        Run ix = runs.get(8);
        assertEquals(2, ix.exit(), ix.show());
        assertEquals("metaroce index: " + gz + ": gzip-compressed: the index points at packets by their offsets in the capture"
                + " file, so it takes uncompressed captures; decompress it first (gunzip)", ix.err().strip(), ix.show());
        Run e = runs.get(9);
        assertEquals(2, e.exit(), e.show());
        assertEquals("metaroce dissect: -: empty input", e.err().strip(), e.show());
    }
}
