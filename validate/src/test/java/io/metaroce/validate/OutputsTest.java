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
        // The schema does reject a broken log (the check above is not vacuous).
        ((com.fasterxml.jackson.databind.node.ObjectNode) doc).put("version", "2.0.0");
        ((com.fasterxml.jackson.databind.node.ObjectNode) first).put("level", "fatal");
        assertFalse(schema.validate(doc).isEmpty());
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
        assertTrue(Severity.ERROR.compareTo(Severity.WARN) > 0);
    }
}
