package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.diagnosis.Diagnoser;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The diagnoses as validate rules (MR-DIAG-*): every diagnosis has its rule, each fault sample reports its rule
 * on the truth's QP at the frame where the fault shows (with a byte anchor, as a warning unless configured
 * otherwise), and nothing fires on the clean samples or on the real captures of others.
 */
class DiagnosisRulesTest {
    static final Path SAMPLES = Path.of("../samples/captures");
    static final ObjectMapper JSON = new ObjectMapper();
    /** The lost request leaves within this of the fault (the simulated senders post a message every 5 us). */
    static final long START_TOLERANCE_NS = 10_000;

    /** Truth cause -> the diagnosis that names it. */
    static final Map<String, String> DIAGNOSIS_OF_CAUSE = Map.ofEntries(
            Map.entry("retry_exhausted", "qp-retry-exhausted"), Map.entry("mtu_blackhole", "qp-mtu-blackhole"),
            Map.entry("peer_stopped", "qp-peer-stopped"), Map.entry("link_down", "qp-link-down"), Map.entry("hung", "qp-retrying"),
            Map.entry("qos_minority_dscp", "qos-minority-marking"), Map.entry("single_source_port", "entropy-single-source-port"),
            Map.entry("mtu_asymmetric", "mtu-asymmetric"), Map.entry("off_rail_peer", "address-off-rail"),
            Map.entry("source_address_changed", "address-source-changed"), Map.entry("answers_to_old_address", "qp-never-answered"),
            Map.entry("mtu_cm_mismatch", "mtu-cm-mismatch"), Map.entry("gid_ipv4_mapped", "gid-ipv4-mapped"),
            Map.entry("gid_link_local", "gid-link-local"), Map.entry("cnp_ignored", "cc-cnp-ignored"),
            Map.entry("no_cnp", "cc-no-cnp"),
            Map.entry("step_straggler", "step-straggler"),
            Map.entry("go_back_message_start", "nic-resend-before-nak-psn"), Map.entry("resend_skips", "nic-resend-skips-nak-psn"),
            Map.entry("nak_ignored", "nic-ignores-nak"));

    @Test
    void everyDiagnosisTheAnalysisMakesHasItsRuleAndEveryRuleItsDiagnosis() throws Exception {
        Set<String> made = new TreeSet<>();
        Pattern p = Pattern.compile("new Finding\\(\"([a-z0-9-]+)\"|rule = \"([a-z0-9-]+)\"|\\? \"(qp-[a-z-]+)\" : \"(qp-[a-z-]+)\"");
        try (Stream<Path> s = Files.list(Path.of("../analysis/src/main/java/io/metaroce/analysis/diagnosis"))) {
            for (Path f : s.toList()) {
                Matcher m = p.matcher(Files.readString(f));
                while (m.find()) for (int g = 1; g <= m.groupCount(); g++) if (m.group(g) != null) made.add(m.group(g));
            }
        }
        assertTrue(made.size() >= 15, "diagnosis ids found in the sources: " + made);
        assertEquals(made, new TreeSet<>(DiagnosisRules.RULE_OF.keySet()), "MR-DIAG rules (spec YAML) against the diagnoses");
        for (String rule : DiagnosisRules.RULE_OF.values()) {
            RuleDef r = RuleCatalog.get(rule);
            assertEquals(Severity.WARN, r.severity(), rule + ": diagnoses warn by default");
        }
    }

    record Run(FileResult result, JsonNode truth, Map<Long, Long> frameTimes, List<io.metaroce.analysis.diagnosis.Finding> diagnosis) {
        List<Finding> rule(String diagnosis) {
            String id = DiagnosisRules.RULE_OF.get(diagnosis);
            return result.findings().stream().filter(f -> f.rule().equals(id)).toList();
        }
    }

    static Run run(String scenario, ValidateSettings settings) throws Exception {
        Path cap = SAMPLES.resolve(scenario + ".pcapng");
        JsonNode truth = JSON.readTree(Files.readString(SAMPLES.resolve(scenario + ".truth.json")));
        Map<Long, Long> times = new HashMap<>();
        for (JsonNode f : truth.get("frames")) times.put(f.get("n").asLong(), f.get("t").asLong());
        Diagnoser d = new Diagnoser();
        // The congestion loop's verdicts come from the engine's result (cc-cnp-ignored, cc-no-cnp).
        var result = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).onFrame(d).run(cap);
        d.congestionLoop(result.congestionLoop()).steps(result.steps()).recovery(result.recovery());
        FileResult r = FileValidator.validate(cap, settings, false, null);
        assertNull(r.error(), r.error());
        return new Run(r, truth, times, d.finish().findings());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocev2-retry-exhausted", "rocev2-mtu-blackhole", "rocev2-peer-dead", "rocev2-link-down",
            "rocev2-hang", "rocev2-dscp0-qp", "rocev2-one-source-port", "rocev2-asymmetric-mtu", "rocev2-off-rail-peer",
            "rocev2-source-address-change", "rocev2-cm-mtu-mismatch", "rocev2-gid-misconfig", "rocev2-cnp-ignored",
            "rocev2-no-cnp", "rocev2-straggler", "rocev2-go-back-message-start", "rocev2-nak-ignored"})
    void eachFaultSampleReportsItsRuleOnTheTruthsQpWhereTheFaultShows(String scenario) throws Exception {
        Run r = run(scenario, ValidateSettings.defaults());
        String tapHost = r.truth.get("capture").get("tap_host").asText();
        long epoch = r.truth.get("capture").get("epoch_ns").asLong();
        int checked = 0;
        for (JsonNode t : r.truth.get("diagnosis")) {
            String flow = t.get("flow").asText(), diagnosis = DIAGNOSIS_OF_CAUSE.get(t.get("cause").asText());
            assertNotNull(diagnosis, "cause " + t.get("cause"));
            // A host capture diagnoses the QPs of its own host (the requester side of a fault).
            if (!flow.startsWith(tapHost + ">") && diagnosis.startsWith("qp-")) continue;
            List<Finding> found = r.rule(diagnosis);
            assertFalse(found.isEmpty(), scenario + ": no " + DiagnosisRules.RULE_OF.get(diagnosis) + " in " + r.result.findings());
            String direction = flow.substring(0, flow.lastIndexOf('/'));
            // A straggler, and a NIC's recovery behaviour, is a host: the sender of the truth's flow.
            String host = direction.split(">")[0];
            boolean hostSubject = diagnosis.equals("step-straggler") || diagnosis.startsWith("nic-");
            Finding f = found.stream().filter(x -> flow.equals(x.flow()) || (x.flow() == null
                    && (x.message().startsWith(diagnosis + " " + hostPairOf(flow) + ":") || x.message().startsWith(diagnosis + " " + direction + ":")
                    || hostSubject && x.message().startsWith(diagnosis + " " + host + ":"))))
                    .findFirst().orElse(null);
            assertNotNull(f, scenario + ": " + diagnosis + " not about " + flow + ": " + found);
            assertEquals(Severity.WARN, f.severity(), f.toString());
            assertTrue(f.message().startsWith(diagnosis), f.message());
            assertNotNull(f.anchor(), "byte anchor of " + f);
            // The frame is the analysis's evidence frame, and for a QP that died the fault's start.
            io.metaroce.analysis.diagnosis.Finding a = r.diagnosis.stream().filter(x -> x.rule().equals(diagnosis)
                    && (x.subject().equals(flow) || x.subject().equals(hostPairOf(flow)) || x.subject().equals(direction)
                    || x.subject().equals(host))).findFirst().orElseThrow();
            assertEquals(DiagnosisRules.primary(a), f.frame(), f.toString());
            assertEquals(r.frameTimes.get(f.frame()) + epoch, f.timeNs(), "the finding's time is its frame's");
            if (t.has("started_ns") && t.get("started_ns").asLong() >= 0 && !diagnosis.equals("qp-retrying")) {
                long at = r.frameTimes.get(f.frame());
                assertTrue(Math.abs(at - t.get("started_ns").asLong()) <= START_TOLERANCE_NS,
                        f + " at " + at + " ns, truth started " + t.get("started_ns"));
            }
            checked++;
        }
        assertTrue(checked > 0, scenario + ": nothing checked");
    }

    /**
     * The simulated PFC samples: MR-DIAG-022 on the storm, MR-DIAG-023 on the slow receiver, each once, about the
     * truth's MAC and class, at the first PFC frame (the run's first XOFF), and not the other rule.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rocev2-pfc-storm", "rocev2-pfc-heavy"})
    void eachPauseSampleReportsItsRuleOnTheTruthsSubjectAtItsFirstXoff(String scenario) throws Exception {
        Run r = run(scenario, ValidateSettings.defaults());
        JsonNode t = r.truth.get("diagnosis").get(0);
        boolean storm = t.get("cause").asText().equals("pfc_storm");
        String diagnosis = storm ? "pfc-pause-storm" : "pfc-pause-heavy";
        List<Finding> found = r.rule(diagnosis);
        assertEquals(1, found.size(), "" + r.result.findings());
        Finding f = found.get(0);
        assertEquals(DiagnosisRules.RULE_OF.get(diagnosis), storm ? "MR-DIAG-022" : "MR-DIAG-023");
        assertTrue(f.message().startsWith(diagnosis + " " + t.get("subject").asText() + ":"), f.message());
        long firstPfc = -1;
        for (JsonNode x : r.truth.get("frames")) {
            if (x.has("pfc_class_vector")) {
                firstPfc = x.get("n").asLong();
                break;
            }
        }
        assertEquals(firstPfc, f.frame(), f.toString());
        assertEquals(r.frameTimes.get(firstPfc) + r.truth.get("capture").get("epoch_ns").asLong(), f.timeNs());
        if (storm) assertEquals(t.get("started_ns").asLong(), r.frameTimes.get(firstPfc), "the storm starts at its first XOFF");
        assertEquals(List.of(), r.rule(storm ? "pfc-pause-heavy" : "pfc-pause-storm"));
    }

    /** The host pair a{@code <>}b of a flow id, lower address first as the diagnosis names it. */
    static String hostPairOf(String flow) {
        String[] h = flow.substring(0, flow.lastIndexOf('/')).split(">");
        return h[0].compareTo(h[1]) <= 0 ? h[0] + "<>" + h[1] : h[1] + "<>" + h[0];
    }

    @Test
    void theAnchorPointsAtTheResentPsnAndTheOddDscp() throws Exception {
        Finding dead = run("rocev2-retry-exhausted", ValidateSettings.defaults()).rule("qp-retry-exhausted").get(0);
        assertEquals("bth.psn", dead.anchor().field());
        Finding dscp = run("rocev2-dscp0-qp", ValidateSettings.defaults()).rule("qos-minority-marking").get(0);
        assertEquals("ip.dscp", dscp.anchor().field());
        Finding port = run("rocev2-one-source-port", ValidateSettings.defaults()).rule("entropy-single-source-port").get(0);
        assertEquals("udp.srcport", port.anchor().field());
        Finding cm = run("rocev2-cm-mtu-mismatch", ValidateSettings.defaults()).rule("mtu-cm-mismatch").get(0);
        assertEquals("cm_req.path_mtu", cm.anchor().field());
        Finding moved = run("rocev2-source-address-change", ValidateSettings.defaults()).rule("address-source-changed").get(0);
        assertEquals("ip.src", moved.anchor().field());
        Finding rail = run("rocev2-off-rail-peer", ValidateSettings.defaults()).rule("address-off-rail").get(0);
        assertEquals("ip.dst", rail.anchor().field());
    }

    @Test
    void theQpAboveItsNegotiatedPmtuAlsoBreaksMrSeq003() throws Exception {
        Run r = run("rocev2-cm-mtu-mismatch", ValidateSettings.defaults());
        String flow = r.truth.get("diagnosis").get(0).get("flow").asText();
        assertTrue(r.result.findings().stream().anyMatch(f -> f.rule().equals("MR-SEQ-003") && flow.equals(f.flow())
                && f.severity() == Severity.ERROR), "" + r.result.findings());
    }

    @Test
    void severityIsOverriddenAndRulesSwitchedOffLikeAnyOther() throws Exception {
        String id = DiagnosisRules.RULE_OF.get("qp-retry-exhausted");
        Run err = run("rocev2-retry-exhausted", new ValidateSettings.Builder().severity(id, "error").build());
        assertEquals(Severity.ERROR, err.rule("qp-retry-exhausted").get(0).severity());
        assertTrue(err.result.fails(Severity.ERROR), "an error fails validate (exit 1 at --fail-on error)");
        Run def = run("rocev2-retry-exhausted", ValidateSettings.defaults());
        assertFalse(def.result.fails(Severity.ERROR), "warnings only by default: " + def.result.findings());
        Run off = run("rocev2-retry-exhausted", new ValidateSettings.Builder().skipRules(List.of("MR-DIAG-*")).build());
        assertTrue(off.result.findings().stream().noneMatch(f -> RuleCatalog.isDiagnosis(f.rule())), "" + off.result.findings());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocev2-clean", "rocev2-ecn-cnp", "metaroce-incast-credit", "metaroce-spray-lossy-path", "metaroce-path-down"})
    void noDiagnosisRuleFiresOnCleanSamples(String scenario) throws Exception {
        FileResult r = FileValidator.validate(SAMPLES.resolve(scenario + ".pcapng"), ValidateSettings.defaults(), false, null);
        assertEquals(List.of(), r.findings().stream().filter(f -> RuleCatalog.isDiagnosis(f.rule())).map(Finding::toString).toList());
    }

    @Test
    void noDiagnosisRuleFiresOnRealCapturesButWhatTheyCarry() throws Exception {
        Path dir = null;
        for (String c : new String[] {"../../shared/reference/external-pcaps", "../shared/reference/external-pcaps",
                "/work/shared/reference/external-pcaps"}) {
            if (Files.isRegularFile(Path.of(c, "SOURCES.md"))) dir = Path.of(c);
        }
        Assumptions.assumeTrue(dir != null, "external captures not found (../shared/reference/external-pcaps)");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted().toList();
        }
        List<String> wrong = new ArrayList<>();
        int mixes = 0;
        for (Path f : files) {
            FileResult r = FileValidator.validate(f, ValidateSettings.defaults(), false, null);
            for (Finding x : r.findings()) {
                if (!RuleCatalog.isDiagnosis(x.rule())) continue;
                // SOURCES.md: m3_rocev1_test has RoCEv1 requests answered in RoCEv2 between the same two hosts.
                if (f.getFileName().toString().equals("m3_rocev1_test.pcap") && x.rule().equals(DiagnosisRules.RULE_OF.get("roce-version-mix"))) mixes++;
                else wrong.add(f.getFileName() + ": " + x);
            }
        }
        assertEquals(List.of(), wrong);
        assertEquals(1, mixes);
    }
}
