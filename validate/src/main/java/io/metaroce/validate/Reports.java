package io.metaroce.validate;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/** The machine and person readable outputs of a run: text, JSON, JUnit XML, SARIF 2.1.0. */
public final class Reports {
    public static final String TOOL = "metaroce validate";
    public static final String VERSION = "0.1.0";
    public static final String SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
    private static final int TEXT_DETAILS = 50;

    private Reports() {}

    // ------------------------------------------------------------------ text

    /** A short summary first (rules broken, counts, first frames), then the details. */
    public static void text(List<FileResult> results, Severity failOn, PrintStream out) {
        for (FileResult r : results) {
            if (r.error != null) {
                out.println(r.error.startsWith(r.path.toString()) ? r.error.replace(r.path + ": ", r.path + ": UNREADABLE: ")
                        : r.path + ": UNREADABLE: " + r.error);
                continue;
            }
            // A damaged capture never passes: only the frames before the damage were judged.
            String verdict = r.count(Severity.ERROR) > 0 ? "FAIL" : !r.problems.isEmpty() ? "DAMAGED"
                    : r.count(Severity.WARN) > 0 ? "WARN" : "PASS";
            out.printf(Locale.ROOT, "%s: %s  %d frames, %d errors, %d warnings, %d notes  (tap %s)%n", r.path, verdict,
                    r.frames, r.count(Severity.ERROR), r.count(Severity.WARN), r.count(Severity.NOTE), r.tapResolved);
            for (String p : r.problems) out.println("  damaged capture (frames before the damage were validated): " + p);
            if (r.evicted != null) out.println("  note: " + r.evicted.note());
            for (RuleDef rule : r.rulesBroken()) {
                long[] c = r.counts(rule.id());
                Finding first = firstOf(r, rule.id());
                // What was found (the first finding), not the rule's requirement: "the ICRC matches" read as a verdict.
                String what = first == null ? rule.text() : first.message();
                if (what.length() > 110) what = what.substring(0, 107) + "...";
                out.printf(Locale.ROOT, "  %-12s %-5s %5d  first at frame %-7s %s%n", rule.id(), r.worst(rule.id()).label(),
                        c[0] + c[1] + c[2], first == null ? "-" : Long.toString(first.frame()), what);
            }
        }
        boolean any = false;
        for (FileResult r : results) {
            if (r.error != null || r.findings.isEmpty()) continue;
            if (!any) {
                out.println();
                out.println("Details:");
                any = true;
            }
            out.println(r.path + ":");
            int shown = 0;
            for (Severity s : new Severity[] {Severity.ERROR, Severity.WARN, Severity.NOTE}) {
                for (Finding f : r.findings) {
                    if (f.severity() != s) continue;
                    if (shown++ >= TEXT_DETAILS) break;
                    out.printf(Locale.ROOT, "  frame %-7d %-12s %-5s %s%s%n", f.frame(), f.rule(), f.severity().label(),
                            f.flow() == null ? "" : f.flow() + ": ", f.message() + frameList(f));
                }
            }
            if (shown > TEXT_DETAILS) out.println("  ... " + (r.findings.size() - TEXT_DETAILS) + " more (use -T json)");
        }
        int files = results.size(), failed = 0, unreadable = 0;
        for (FileResult r : results) {
            if (r.error != null || !r.problems.isEmpty()) unreadable++;
            if (r.error == null && r.fails(failOn)) failed++;
        }
        out.println();
        out.printf(Locale.ROOT, "%d file%s validated, %d failing at --fail-on %s, %d unreadable or damaged%n", files, files == 1 ? "" : "s",
                failed, failOn == null ? "never" : failOn.label(), unreadable);
    }

    private static String frameList(Finding f) {
        long[] fr = f.frames();
        if (fr.length < 2) return "";
        StringBuilder b = new StringBuilder(" [frames");
        for (long x : fr) b.append(' ').append(x);
        return b.append(']').toString();
    }

    static Finding firstOf(FileResult r, String rule) {
        Finding best = null;
        for (Finding f : r.findings) {
            if (!f.rule().equals(rule)) continue;
            if (best == null || f.severity().compareTo(best.severity()) > 0) best = f;
        }
        return best;
    }

    // ------------------------------------------------------------------ JSON

    /** Integers beyond ±2^53 are written as strings (the JSON number contract, see README and analysis JsonOut). */
    static ObjectMapper mapper() {
        com.fasterxml.jackson.databind.module.SimpleModule big = new com.fasterxml.jackson.databind.module.SimpleModule();
        com.fasterxml.jackson.databind.JsonSerializer<Long> longs = new com.fasterxml.jackson.databind.JsonSerializer<>() {
            @Override
            public void serialize(Long v, JsonGenerator g, com.fasterxml.jackson.databind.SerializerProvider p) throws IOException {
                if (io.metaroce.dissector.ByteOut.exactInDouble(v)) g.writeNumber(v);
                else g.writeString(Long.toString(v));
            }
        };
        big.addSerializer(Long.class, longs);
        big.addSerializer(long.class, longs);
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).registerModule(big);
    }

    public static Map<String, Object> jsonTree(List<FileResult> results, ValidateSettings settings) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("tool", TOOL + " " + VERSION);
        root.put("spec", Spec.VERSION);
        root.put("settings", settings.describe());
        List<Object> files = new ArrayList<>();
        for (FileResult r : results) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", r.path.toString());
            if (r.error != null) {
                m.put("error", r.error);
                files.add(m);
                continue;
            }
            m.put("frames", r.frames);
            List<Object> fs = new ArrayList<>();
            for (Finding f : r.findings) fs.add(finding(f));
            m.put("findings", fs);
            m.put("summary", r.summary());
            if (!r.problems.isEmpty()) m.put("capture_problems", r.problems);
            files.add(m);
        }
        root.put("files", files);
        return root;
    }

    static Map<String, Object> finding(Finding f) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("rule", f.rule());
        e.put("severity", f.severity().label());
        e.put("frame", f.frame());
        List<Long> fr = new ArrayList<>();
        for (long x : f.frames()) fr.add(x);
        e.put("frames", fr);
        e.put("flow", f.flow());
        e.put("message", f.message());
        if (f.anchor() != null) e.put("anchor", anchor(f.anchor()));
        return e;
    }

    /** Where in its frame a finding points: header, field (absent for a whole header), offset and length in the frame. */
    static Map<String, Object> anchor(Anchor a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("header", a.header());
        if (a.field() != null) m.put("field", a.field());
        m.put("offset", a.offset());
        m.put("length", a.length());
        return m;
    }

    public static void json(List<FileResult> results, ValidateSettings settings, OutputStream out) throws IOException {
        ObjectMapper m = mapper();
        m.getFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        m.writer(new DefaultPrettyPrinter()).writeValue(out, jsonTree(results, settings));
        out.write('\n');
    }

    // ------------------------------------------------------------------ JUnit XML

    /**
     * One testsuite per capture, one testcase per selected rule; a rule with findings at or above the failure
     * level fails with them as the message (so CI systems show rule and frame natively); an unreadable capture
     * is a testsuite with one errored testcase.
     */
    public static void junit(List<FileResult> results, ValidateSettings settings, Severity failOn, Writer w) throws IOException {
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(w);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            int tests = 0, failures = 0, errors = 0;
            double time = 0;
            for (FileResult r : results) {
                if (r.error != null) {
                    tests++;
                    errors++;
                    continue;
                }
                for (String rule : settings.enabledRules()) {
                    tests++;
                    if (failing(r, rule, failOn)) failures++;
                }
                if (!r.problems.isEmpty()) {
                    tests++;
                    errors++;
                }
                time += r.wallNanos / 1e9;
            }
            x.writeStartElement("testsuites");
            x.writeAttribute("name", TOOL);
            x.writeAttribute("tests", Integer.toString(tests));
            x.writeAttribute("failures", Integer.toString(failures));
            x.writeAttribute("errors", Integer.toString(errors));
            x.writeAttribute("time", String.format(Locale.ROOT, "%.3f", time));
            x.writeCharacters("\n");
            for (FileResult r : results) {
                x.writeStartElement("testsuite");
                x.writeAttribute("name", r.path.toString());
                if (r.error != null) {
                    x.writeAttribute("tests", "1");
                    x.writeAttribute("failures", "0");
                    x.writeAttribute("errors", "1");
                    x.writeAttribute("time", "0.000");
                    x.writeStartElement("testcase");
                    x.writeAttribute("name", "read capture");
                    x.writeAttribute("classname", r.path.toString());
                    x.writeStartElement("error");
                    x.writeAttribute("type", "unreadable");
                    x.writeAttribute("message", r.error);
                    x.writeCharacters(r.error);
                    x.writeEndElement();
                    x.writeEndElement();
                    x.writeEndElement();
                    x.writeCharacters("\n");
                    continue;
                }
                int f = 0;
                for (String rule : settings.enabledRules()) if (failing(r, rule, failOn)) f++;
                boolean damaged = !r.problems.isEmpty();
                x.writeAttribute("tests", Integer.toString(settings.enabledRules().size() + (damaged ? 1 : 0)));
                x.writeAttribute("failures", Integer.toString(f));
                x.writeAttribute("errors", damaged ? "1" : "0");
                x.writeAttribute("skipped", "0");
                x.writeAttribute("time", String.format(Locale.ROOT, "%.3f", r.wallNanos / 1e9));
                x.writeCharacters("\n");
                x.writeStartElement("properties");
                prop(x, "frames", Long.toString(r.frames));
                prop(x, "tap", r.tapResolved);
                prop(x, "spec", Spec.VERSION);
                x.writeEndElement();
                x.writeCharacters("\n");
                if (damaged) {
                    // Capture damage: an errored testcase, so that CI shows the capture as not (fully) checked.
                    String msg = "damaged capture (frames before the damage were validated): " + String.join("; ", r.problems);
                    x.writeStartElement("testcase");
                    x.writeAttribute("name", "read capture");
                    x.writeAttribute("classname", r.path.toString());
                    x.writeAttribute("time", "0.000");
                    x.writeStartElement("error");
                    x.writeAttribute("type", "damaged");
                    x.writeAttribute("message", msg);
                    x.writeCharacters(msg);
                    x.writeEndElement();
                    x.writeEndElement();
                    x.writeCharacters("\n");
                }
                for (String rule : settings.enabledRules()) {
                    RuleDef def = RuleCatalog.get(rule);
                    x.writeStartElement("testcase");
                    x.writeAttribute("name", rule + " " + def.text());
                    x.writeAttribute("classname", r.path.toString());
                    x.writeAttribute("time", "0.000");
                    List<Finding> mine = new ArrayList<>();
                    for (Finding fi : r.findings) if (fi.rule().equals(rule)) mine.add(fi);
                    if (failing(r, rule, failOn)) {
                        long[] c = r.counts(rule);
                        Finding first = firstOf(r, rule);
                        x.writeStartElement("failure");
                        x.writeAttribute("type", r.worst(rule).label());
                        x.writeAttribute("message", rule + " at frame " + first.frame() + (first.flow() != null ? " ("
                                + first.flow() + ")" : "") + ": " + first.message() + ((c[0] + c[1] + c[2]) > 1
                                ? " (+" + (c[0] + c[1] + c[2] - 1) + " more)" : ""));
                        StringBuilder b = new StringBuilder();
                        b.append(rule).append(" (").append(def.section()).append(", taps: ").append(def.taps()).append("): ")
                                .append(def.text()).append('\n');
                        for (Finding fi : mine) {
                            b.append("frame ").append(fi.frame()).append(' ').append(fi.severity().label()).append(' ');
                            if (fi.flow() != null) b.append(fi.flow()).append(": ");
                            b.append(fi.message()).append(frameList(fi)).append('\n');
                        }
                        x.writeCharacters(b.toString());
                        x.writeEndElement();
                    } else if (!mine.isEmpty()) {
                        StringBuilder b = new StringBuilder();
                        for (Finding fi : mine) b.append("frame ").append(fi.frame()).append(' ').append(fi.severity().label())
                                .append(' ').append(fi.message()).append('\n');
                        x.writeStartElement("system-out");
                        x.writeCharacters(b.toString());
                        x.writeEndElement();
                    }
                    x.writeEndElement();
                    x.writeCharacters("\n");
                }
                x.writeEndElement();
                x.writeCharacters("\n");
            }
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.flush();
        } catch (XMLStreamException e) {
            throw new IOException(e);
        }
    }

    private static void prop(XMLStreamWriter x, String k, String v) throws XMLStreamException {
        x.writeEmptyElement("property");
        x.writeAttribute("name", k);
        x.writeAttribute("value", v == null ? "" : v);
    }

    static boolean failing(FileResult r, String rule, Severity failOn) {
        Severity w = r.worst(rule);
        return w != null && failOn != null && w.compareTo(failOn) >= 0;
    }

    // ------------------------------------------------------------------ SARIF 2.1.0

    /**
     * A two-key JSON object whose keys keep the order written: {@code Map.of} iterates in an order that changes from
     * one JVM to the next, and a report must be the same bytes for the same capture.
     */
    private static Map<String, Object> ordered(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    /** SARIF 2.1.0: one run, the §11 rules as reportingDescriptors, one result per finding located at its capture. */
    public static Map<String, Object> sarifTree(List<FileResult> results, ValidateSettings settings) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("$schema", SARIF_SCHEMA);
        root.put("version", "2.1.0");
        Map<String, Object> run = new LinkedHashMap<>();
        Map<String, Object> driver = new LinkedHashMap<>();
        driver.put("name", "metaroce-validate");
        driver.put("fullName", "MetaRoCE Analyzer conformance validation (" + Spec.VERSION + ")");
        driver.put("version", VERSION);
        driver.put("semanticVersion", VERSION);
        driver.put("informationUri", "https://metaroce.io/spec/v1#11");
        List<Object> rules = new ArrayList<>();
        Map<String, Integer> index = new LinkedHashMap<>();
        for (RuleDef r : RuleCatalog.all()) {
            index.put(r.id(), rules.size());
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("id", r.id());
            d.put("name", r.id().replace("-", ""));
            d.put("shortDescription", Map.of("text", r.text()));
            d.put("fullDescription", Map.of("text", r.text() + " (spec " + r.section() + "; taps: " + r.taps() + ")"));
            Map<String, Object> conf = new LinkedHashMap<>();
            conf.put("enabled", settings.enabled(r.id()));
            conf.put("level", level(r.severity()));
            d.put("defaultConfiguration", conf);
            Map<String, Object> props = new LinkedHashMap<>();
            props.put("section", r.section());
            props.put("taps", r.taps());
            props.put("tags", List.of("metaroce", RuleCatalog.group(r.id()).toLowerCase(Locale.ROOT)));
            d.put("properties", props);
            rules.add(d);
        }
        driver.put("rules", rules);
        run.put("tool", Map.of("driver", driver));
        List<Object> artifacts = new ArrayList<>();
        List<Object> res = new ArrayList<>();
        List<Object> notifications = new ArrayList<>();
        for (int ai = 0; ai < results.size(); ai++) {
            FileResult r = results.get(ai);
            Map<Long, long[]> where = r.error != null ? Map.of() : frameRegions(r);
            Map<String, Object> art = new LinkedHashMap<>();
            art.put("location", Map.of("uri", uri(r.path.toString())));
            art.put("mimeType", "application/vnd.tcpdump.pcap");
            artifacts.add(art);
            if (r.error != null) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("level", "error");
                n.put("message", Map.of("text", r.error));
                n.put("locations", List.of(Map.of("physicalLocation", Map.of("artifactLocation",
                        ordered("uri", uri(r.path.toString()), "index", ai)))));
                notifications.add(n);
                continue;
            }
            for (String p : r.problems) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("level", "error");
                n.put("message", Map.of("text", "damaged capture (frames before the damage were validated): " + p));
                n.put("locations", List.of(Map.of("physicalLocation", Map.of("artifactLocation",
                        ordered("uri", uri(r.path.toString()), "index", ai)))));
                notifications.add(n);
            }
            for (Finding f : r.findings) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("ruleId", f.rule());
                x.put("ruleIndex", index.get(f.rule()));
                x.put("level", level(f.severity()));
                x.put("message", Map.of("text", "frame " + f.frame() + (f.flow() != null ? " (" + f.flow() + ")" : "") + ": "
                        + f.message()));
                Map<String, Object> phys = new LinkedHashMap<>();
                phys.put("artifactLocation", ordered("uri", uri(r.path.toString()), "index", ai));
                long[] at = where.get(f.frame());
                if (at != null) {
                    // The frame's bytes in the capture file; startLine carries the frame number, because GitHub code
                    // scanning places a result only by line (README: "SARIF"). A finding about a header or a field
                    // points at its bytes, the frame around them being the context.
                    Map<String, Object> frame = new LinkedHashMap<>();
                    frame.put("startLine", f.frame());
                    frame.put("byteOffset", at[0]);
                    frame.put("byteLength", at[1]);
                    Anchor a = f.anchor();
                    if (a != null && a.offset() >= 0 && a.offset() + a.length() <= at[1]) {
                        Map<String, Object> region = new LinkedHashMap<>();
                        region.put("startLine", f.frame());
                        region.put("byteOffset", at[0] + a.offset());
                        region.put("byteLength", a.length());
                        phys.put("region", region);
                        phys.put("contextRegion", frame);
                    } else {
                        phys.put("region", frame);
                    }
                }
                Map<String, Object> loc = new LinkedHashMap<>();
                loc.put("physicalLocation", phys);
                List<Object> logical = new ArrayList<>();
                logical.add(ordered("name", "frame " + f.frame(), "kind", "element"));
                if (f.flow() != null) logical.add(ordered("name", f.flow(), "kind", "object"));
                loc.put("logicalLocations", logical);
                x.put("locations", List.of(loc));
                Map<String, Object> props = new LinkedHashMap<>();
                props.put("frame", f.frame());
                List<Long> fr = new ArrayList<>();
                for (long v : f.frames()) fr.add(v);
                props.put("frames", fr);
                if (f.flow() != null) props.put("flow", f.flow());
                if (f.anchor() != null) props.put("anchor", anchor(f.anchor()));
                x.put("properties", props);
                x.put("partialFingerprints", Map.of("metaroceFinding/v1", f.rule() + ":" + (f.flow() == null ? "-" : f.flow())
                        + ":" + f.frame()));
                res.add(x);
            }
        }
        run.put("artifacts", artifacts);
        run.put("results", res);
        Map<String, Object> inv = new LinkedHashMap<>();
        inv.put("executionSuccessful", notifications.isEmpty());
        if (!notifications.isEmpty()) inv.put("toolExecutionNotifications", notifications);
        run.put("invocations", List.of(inv));
        run.put("columnKind", "unicodeCodePoints");
        run.put("properties", Map.of("settings", settings.describe()));
        root.put("runs", List.of(run));
        return root;
    }

    /**
     * Byte offset (in the file) and captured length of every frame a finding names, found by reading the capture
     * again up to the last such frame: memory stays proportional to the findings, not to the frames.
     */
    static Map<Long, long[]> frameRegions(FileResult r) {
        java.util.TreeSet<Long> wanted = new java.util.TreeSet<>();
        for (Finding f : r.findings) wanted.add(f.frame());
        Map<Long, long[]> out = new java.util.HashMap<>();
        if (wanted.isEmpty()) return out;
        try (io.metaroce.capture.PacketSource src = io.metaroce.capture.CaptureFiles.open(r.path)) {
            while (src.next() && src.frameNumber() <= wanted.last()) {
                if (wanted.contains(src.frameNumber())) out.put(src.frameNumber(), new long[] {src.dataOffset(), src.capturedLength()});
            }
        } catch (Exception e) {
            // The capture was readable a moment ago; without it the results keep their file location only.
        }
        return out;
    }

    public static void sarif(List<FileResult> results, ValidateSettings settings, OutputStream out) throws IOException {
        ObjectMapper m = mapper();
        m.getFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        m.writeValue(out, sarifTree(results, settings));
        out.write('\n');
    }

    static String level(Severity s) {
        return switch (s) {
            case ERROR -> "error";
            case WARN -> "warning";
            case NOTE -> "note";
        };
    }

    /** A relative or absolute path as a URI reference (slashes, percent-encoded where needed). */
    static String uri(String path) {
        String p = path.replace('\\', '/');
        StringBuilder b = new StringBuilder();
        for (char c : p.toCharArray()) {
            if (Character.isLetterOrDigit(c) || "-._~/:".indexOf(c) >= 0) b.append(c);
            else for (byte x : String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8)) b.append(String.format("%%%02X", x & 0xFF));
        }
        String s = b.toString();
        return s.startsWith("/") ? "file://" + s : s;
    }
}
