package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.metaroce.protocol.Severity;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** JSON, JUnit XML (against a JUnit XSD), SARIF (against the SARIF 2.1.0 schema) and the HTML report. */
class OutputsTest {
    @TempDir
    Path dir;

    private static String run(Validation.Format format, List<Path> inputs, Path out, Path report, int[] code) {
        Validation.Request req = new Validation.Request();
        req.inputs = inputs;
        req.format = format;
        req.output = out;
        req.report = report;
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        code[0] = Validation.run(req, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        return o.toString(StandardCharsets.UTF_8);
    }

    private List<Path> inputs() throws Exception {
        Path bad = Files.writeString(dir.resolve("not-a-capture.pcap"), "hello");
        return List.of(Captures.of("conformance-violations", null), Captures.of("rocev2-clean", null), bad);
    }

    @Test
    void jsonHasTheDocumentedShape() throws Exception {
        int[] code = new int[1];
        String out = run(Validation.Format.json, inputs(), null, null, code);
        assertEquals(2, code[0], "an unreadable file makes the run exit 2");
        JsonNode root = new ObjectMapper().readTree(out);
        JsonNode files = root.get("files");
        assertEquals(3, files.size());
        JsonNode v = files.get(0);
        assertTrue(v.get("path").asText().endsWith("conformance-violations.pcapng"));
        assertTrue(v.get("frames").asLong() > 0);
        JsonNode f = v.get("findings").get(0);
        for (String k : List.of("rule", "severity", "frame", "frames", "flow", "message")) assertTrue(f.has(k), k);
        assertEquals(f.get("frame").asLong(), f.get("frames").get(0).asLong());
        assertTrue(v.get("summary").get("errors").asLong() > 0);
        assertTrue(v.get("summary").get("rules").has("MR-SEQ-001"));
        assertEquals(0, files.get(1).get("summary").get("errors").asLong());
        assertTrue(files.get(2).has("error"));
    }

    @Test
    void junitValidatesAgainstTheSchemaAndShowsRuleAndFrame() throws Exception {
        Path xml = dir.resolve("results.xml");
        int[] code = new int[1];
        run(Validation.Format.junit, inputs(), xml, null, code);
        assertEquals(2, code[0]);
        SchemaFactory sf = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        try (InputStream xsd = getClass().getResourceAsStream("/schemas/junit.xsd")) {
            Validator val = sf.newSchema(new StreamSource(xsd)).newValidator();
            val.validate(new StreamSource(xml.toFile()));
        }
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        NodeList suites = doc.getElementsByTagName("testsuite");
        assertEquals(3, suites.getLength());
        Element v = (Element) suites.item(0);
        assertEquals(String.valueOf(RuleCatalog.all().size()), v.getAttribute("tests"));
        int failures = Integer.parseInt(v.getAttribute("failures"));
        assertTrue(failures >= 25, "failing rules " + failures);
        boolean seq1 = false;
        NodeList fails = v.getElementsByTagName("failure");
        for (int i = 0; i < fails.getLength(); i++) {
            String m = ((Element) fails.item(i)).getAttribute("message");
            if (m.startsWith("MR-SEQ-001 at frame ")) seq1 = true;
        }
        assertTrue(seq1, "the failure message names the rule and the frame");
        assertEquals("0", ((Element) suites.item(1)).getAttribute("failures"));
        assertEquals("1", ((Element) suites.item(2)).getAttribute("errors"));
    }

    @Test
    void sarifValidatesAgainstTheSarifSchema() throws Exception {
        Path sarif = dir.resolve("results.sarif");
        int[] code = new int[1];
        run(Validation.Format.sarif, inputs(), sarif, null, code);
        JsonSchema schema;
        try (InputStream s = getClass().getResourceAsStream("/schemas/sarif-2.1.0-rtm.5.json")) {
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(s);
        }
        JsonNode doc = new ObjectMapper().readTree(sarif.toFile());
        Set<ValidationMessage> errors = schema.validate(doc);
        assertTrue(errors.isEmpty(), errors.toString());
        assertEquals("2.1.0", doc.get("version").asText());
        JsonNode run = doc.get("runs").get(0);
        assertEquals(RuleCatalog.all().size(), run.get("tool").get("driver").get("rules").size());
        JsonNode first = run.get("results").get(0);
        String id = first.get("ruleId").asText();
        assertEquals(id, run.get("tool").get("driver").get("rules").get(first.get("ruleIndex").asInt()).get("id").asText());
        assertFalse(run.get("invocations").get(0).get("executionSuccessful").asBoolean(), "the unreadable file is reported");
        // Each result is placed on its frame's bytes in the capture (GitHub code scanning needs a region: startLine).
        byte[] file = Files.readAllBytes(Captures.of("conformance-violations", null));
        for (JsonNode res : run.get("results")) {
            JsonNode loc = res.get("locations").get(0).get("physicalLocation");
            if (!loc.get("artifactLocation").get("uri").asText().endsWith("conformance-violations.pcapng")) continue;
            // A finding about a field points at its bytes (region) inside its frame (contextRegion).
            JsonNode region = loc.has("contextRegion") ? loc.get("contextRegion") : loc.get("region");
            assertTrue(region != null, res.toString());
            assertEquals(res.get("properties").get("frame").asLong(), region.get("startLine").asLong());
            int off = region.get("byteOffset").asInt(), len = region.get("byteLength").asInt();
            assertTrue(len >= 54 && off + len <= file.length, region.toString());
            int etherType = (file[off + 12] & 0xFF) << 8 | (file[off + 13] & 0xFF);
            assertTrue(Set.of(0x0800, 0x86DD, 0x8100, 0x88A8).contains(etherType), "an Ethernet frame starts at byteOffset " + off);
        }
        // The schema does reject a broken log (the check above is not vacuous).
        ((com.fasterxml.jackson.databind.node.ObjectNode) doc).put("version", "2.0.0");
        ((com.fasterxml.jackson.databind.node.ObjectNode) first).put("level", "fatal");
        assertFalse(schema.validate(doc).isEmpty());
    }

    /**
     * A report is the same bytes for the same capture: every JSON object of the SARIF log with more than one key is
     * an insertion-ordered map. {@code Map.of} (an immutable map whose iteration order is salted per JVM) made the
     * order of {@code name} and {@code kind} in logicalLocations change from one run to the next.
     */
    @Test
    void sarifObjectsKeepTheOrderTheirKeysWereWrittenIn() throws Exception {
        FileResult r = FileValidator.validate(Captures.of("conformance-violations", null), ValidateSettings.defaults(), false, null);
        List<String> unordered = new java.util.ArrayList<>();
        int[] objects = new int[1];
        collectUnordered(Reports.sarifTree(List.of(r), ValidateSettings.defaults()), "$", unordered, objects);
        assertTrue(objects[0] > 100, "the walk saw the results' objects: " + objects[0]);
        assertTrue(unordered.isEmpty(), "objects whose key order is not fixed: " + unordered.subList(0, Math.min(5, unordered.size())));
    }

    private static void collectUnordered(Object node, String path, List<String> unordered, int[] objects) {
        if (node instanceof java.util.Map<?, ?> m) {
            objects[0]++;
            if (m.size() > 1 && !(m instanceof java.util.LinkedHashMap || m instanceof java.util.SortedMap)) unordered.add(path + " " + m.keySet());
            for (var e : m.entrySet()) collectUnordered(e.getValue(), path + "." + e.getKey(), unordered, objects);
        } else if (node instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) collectUnordered(l.get(i), path + "[" + i + "]", unordered, objects);
        }
    }

    @Test
    void htmlReportIsSelfContained() throws Exception {
        Path html = dir.resolve("report.html");
        int[] code = new int[1];
        run(Validation.Format.text, List.of(Captures.of("conformance-violations", null),
                Captures.of("metaroce-spray-lossy-path", null)), dir.resolve("out.txt"), html, code);
        assertEquals(1, code[0]);
        String h = Files.readString(html);
        assertTrue(h.startsWith("<!DOCTYPE html>"));
        assertTrue(h.contains("<svg"), "pictures");
        assertTrue(h.contains("MR-SEQ-001"));
        assertTrue(h.contains("MetaRoCE paths: loss and CE"));
        for (String ext : List.of("src=\"http", "href=\"http", "<link", "@import", "url(")) assertFalse(h.contains(ext), ext);
        // well formed enough for an XML parser? (HTML5 is not XML; check the tags balance instead)
        assertEquals(count(h, "<svg"), count(h, "</svg>"));
        assertEquals(count(h, "<table"), count(h, "</table>"));
        new StringReader(h).close();
    }

    /** The JSON number contract: integers beyond 2^53 are strings (jq 1.6 and JavaScript would round them). */
    @Test
    void jsonAndSarifWriteIntegersBeyond2to53AsStrings() throws Exception {
        String json = Reports.mapper().writeValueAsString(java.util.Map.of("small", 9007199254740992L, "big", 9007199254740993L,
                "list", List.of(1767225600000009373L, -9007199254740993L)));
        JsonNode n = new ObjectMapper().readTree(json);
        assertTrue(n.get("small").isNumber());
        assertEquals("9007199254740993", n.get("big").asText());
        assertTrue(n.get("big").isTextual());
        assertEquals("1767225600000009373", n.get("list").get(0).asText());
        assertEquals("-9007199254740993", n.get("list").get(1).asText());
    }

    @Test
    void htmlReportSaysNoErrorsWhenThereAreOnlyNotes() throws Exception {
        Path html = dir.resolve("notes.html");
        int[] code = new int[1];
        run(Validation.Format.text, List.of(Captures.of("capture-gaps-truncated", null)), dir.resolve("out.txt"), html, code);
        String h = Files.readString(html);
        assertTrue(h.contains("No errors or warnings."), "a notes-only capture says so instead of an empty table");
    }

    /** Every QP is drawn (small ones in a grid), and the PSN axis of the QP that wraps reads monotonically. */
    @Test
    void htmlReportDrawsEveryQpAndUnwrapsThePsnAxis() throws Exception {
        Path html = dir.resolve("all.html");
        int[] code = new int[1];
        run(Validation.Format.text, List.of(Captures.of("conformance-violations", null), Captures.of("rocev2-clean", null)),
                dir.resolve("out.txt"), html, code);
        String h = Files.readString(html);
        assertFalse(h.contains("not drawn"), "no QP left out");
        assertTrue(h.contains("more QPs, drawn small"));
        assertTrue(count(h, "class=\"chart small\"") >= 19, "the 19 QPs beyond the first 12 of conformance-violations");
        boolean sawWrap = false;
        for (String svg : h.split("<svg")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("text-anchor=\"end\">(\\d+)( \\+2\u00b2\u2074)?</text>").matcher(svg);
            long prev = -1;
            while (m.find()) {
                long v = Long.parseLong(m.group(1)) + (m.group(2) != null ? 1L << 24 : 0);
                sawWrap |= m.group(2) != null;
                assertTrue(v > prev, "PSN ticks increase: " + v + " after " + prev);
                prev = v;
            }
        }
        assertTrue(sawWrap, "rocev2-clean has a QP wrapping from PSN 0xFFFFF7 to 0");
        assertEquals(List.of(0L, 5L, 10L), java.util.Arrays.stream(HtmlReport.ticks(0, 12)).boxed().toList());
    }

    private static int count(String s, String x) {
        int n = 0;
        for (int i = s.indexOf(x); i >= 0; i = s.indexOf(x, i + 1)) n++;
        return n;
    }

    @Test
    void textSummaryComesFirst() throws Exception {
        int[] code = new int[1];
        String out = run(Validation.Format.text, List.of(Captures.of("conformance-violations", null)), null, null, code);
        assertEquals(1, code[0]);
        String[] lines = out.split("\n");
        assertTrue(lines[0].contains("FAIL"), lines[0]);
        assertTrue(lines[1].trim().startsWith("MR-FRAME-001"), lines[1]);
        assertTrue(out.contains("Details:"));
        // A summary line reads what was found, not the rule's requirement text.
        String notes = run(Validation.Format.text, List.of(Captures.of("capture-gaps-truncated", null)), null, null, code);
        String frame1 = notes.lines().filter(l -> l.trim().startsWith("MR-FRAME-001")).findFirst().orElseThrow();
        assertFalse(frame1.endsWith(RuleCatalog.get("MR-FRAME-001").text()), frame1);
        assertTrue(Severity.ERROR.compareTo(Severity.WARN) > 0);
    }
}
