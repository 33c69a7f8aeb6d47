package io.metaroce.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.JavaMain;
import io.metaroce.spec.SpecModel.Spec;
import java.io.StringReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chain from the spec file to the code: a field added to metaroce-v1.yaml appears in the
 * generated .ksy, in the Kaitai parser compiled from it (which reads the right bytes), in the
 * flyweight and in the catalogue. Also: the committed .ksy files are exactly what the spec produces.
 */
class SpecChainTest {

    @Test
    void committedKsyFilesMatchTheSpec() throws Exception {
        List<String> drift = SpecTool.checkKsy(SpecLoader.load(Path.of("metaroce-v1.yaml")), Path.of("ksy"));
        assertEquals(List.of(), drift, "regenerate with ./mvnw -pl spec-ksy -Pregenerate process-classes");
    }

    @Test
    void aFieldAddedToTheSpecReachesKsyParserFlyweightAndCatalogue(@TempDir Path tmp) throws Exception {
        String yaml = Files.readString(Path.of("metaroce-v1.yaml"), StandardCharsets.UTF_8);
        String anchor = "      - {id: echo_timestamp, bits: 32, label: Echoed tx_timestamp of the probe (0 in MR-PROBE)}\n";
        assertTrue(yaml.contains(anchor), "probeeth anchor line moved; update the test");
        String edited = yaml.replace(anchor, anchor + "      - {id: test_marker, bits: 32, display: hex, label: Test marker}\n");
        Spec spec = SpecLoader.parse(new StringReader(edited));
        assertEquals(12, spec.header("probeeth").size());

        // 1. the .ksy
        Map<String, String> ksy = new KsyEmitter(spec).emit();
        assertTrue(ksy.get("probeeth.ksy").contains("  - id: test_marker\n    type: u4\n"), ksy.get("probeeth.ksy"));
        Path ksyDir = Files.createDirectories(tmp.resolve("ksy"));
        for (var e : ksy.entrySet()) Files.writeString(ksyDir.resolve(e.getKey()), e.getValue());

        // 2. the flyweight and the catalogue
        Map<String, String> java = new JavaEmitter(spec).emit();
        assertTrue(java.get("Probeeth.java").contains("public static long testMarker(MemorySegment s, long o) { return (long) Bits.read4(s, o + 8); }"),
                java.get("Probeeth.java"));
        assertTrue(java.get("Probeeth.java").contains("public static final int SIZE = 12;"));
        assertTrue(java.get("Spec.java").contains("\"probeeth.test_marker\""), "catalogue lacks the new field");

        // 3. the Kaitai parser compiled from the .ksy reads the new field from the right bytes
        Path gen = Files.createDirectories(tmp.resolve("gen"));
        new JavaMain(JavaMain.parseCommandLine(new String[] {"-t", "java", "--java-package", "chain.test", "--outdir",
                gen.toString(), ksyDir.resolve("probeeth.ksy").toString()}).get()).run();
        List<String> sources = new ArrayList<>();
        try (Stream<Path> s = Files.walk(gen)) {
            s.filter(p -> p.toString().endsWith(".java")).forEach(p -> sources.add(p.toString()));
        }
        assertTrue(sources.stream().anyMatch(p -> p.endsWith("Probeeth.java")), sources.toString());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path"), "-nowarn"));
        args.addAll(sources);
        assertEquals(0, javac.run(null, null, System.err, args.toArray(String[]::new)), "generated parser does not compile");
        try (URLClassLoader cl = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> probe = cl.loadClass("chain.test.Probeeth");
            byte[] bytes = {0, 0, 0, 7, 0, 0, 0, 9, (byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE};
            Object parsed = probe.getConstructor(io.kaitai.struct.KaitaiStream.class).newInstance(new ByteBufferKaitaiStream(bytes));
            assertEquals(7L, probe.getMethod("probeSeq").invoke(parsed));
            assertEquals(0xCAFEBABEL, probe.getMethod("testMarker").invoke(parsed));
        }
    }
}
