package io.metaroce.cli;

import static io.metaroce.testsupport.LauncherCases.says;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.LauncherCases;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code analyze --messages} through the shipped launcher: one line per message, as many per flow as analyze's Msgs
 * column counts (the messages whose start the capture shows); jsonl with the same messages; --qp/--peer narrowing;
 * the refused combinations, one line and exit 2. The processes run in parallel, once, before the checks.
 */
class MessagesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final LauncherCases CASES = new LauncherCases();
    private static final String GBN = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString();
    private static final String READ = Launcher.CAPTURES.resolve("rocev2-read-atomic.pcapng").toString();
    private static final String SPRAY = Launcher.CAPTURES.resolve("metaroce-spray-lossy-path.pcapng").toString();

    @BeforeAll
    static void runEveryCase() {
        for (String f : List.of(GBN, READ, SPRAY)) {
            String n = f.substring(f.lastIndexOf('/') + 1);
            CASES.add("json " + n, Call.of("analyze", "-r", f, "-T", "json", "--compact"), r -> assertEquals(0, r.exit(), r.show()));
            CASES.add("messages " + n, Call.of("analyze", "-r", f, "--messages"), r -> assertEquals(0, r.exit(), r.show()));
            CASES.add("messages jsonl " + n, Call.of("analyze", "-r", f, "--messages", "jsonl"), r -> {
                assertEquals(0, r.exit(), r.show());
                assertEquals("", r.err(), r.show());
            });
        }
        // The form is optional: a capture right after --messages is the capture, not the form.
        CASES.add("analyze --messages FILE", Call.of("analyze", "--messages", GBN), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().startsWith("   Frame        Time  Flow"), r.show());
        });
        CASES.add("--messages --qp", Call.of("analyze", "-r", GBN, "--messages", "jsonl", "--qp", "0x20"), r -> assertEquals(0, r.exit(), r.show()));
        CASES.add("--messages --peer nobody", Call.of("analyze", "-r", GBN, "--messages", "--peer", "10.9.9.9"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertEquals(1, r.out().lines().count(), "the header alone: " + r.show());
        });
        CASES.add("--messages json", Call.of("analyze", "-r", GBN, "--messages", "json"), says("--messages takes text or jsonl, not 'json'"));
        CASES.add("--messages --events", Call.of("analyze", "-r", GBN, "--messages", "jsonl", "--events", "jsonl"),
                says("--messages and --events are two outputs: give one"));
        CASES.add("--messages -T json", Call.of("analyze", "-r", GBN, "--messages", "-T", "json"), says("for JSON give --messages jsonl"));
        CASES.add("--messages --at", Call.of("analyze", "-r", GBN, "--messages", "--at", "1"),
                says("--at, --nccl and --pfc-watchdog apply to the diagnosis, which --messages does not print"));
        CASES.add("--messages two files", Call.of("analyze", GBN, READ, "--messages"), says("--messages reads one capture file"));
        CASES.add("--messages missing file", Call.of("analyze", "-r", "/nonexistent.pcapng", "--messages"), r -> {
            assertEquals(2, r.exit(), r.show());
            assertEquals(1, r.errLines().size(), r.show());
            assertTrue(r.err().startsWith("metaroce analyze: "), r.show());
        });
        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        Stream<DynamicTest> cases = CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
        Stream<DynamicTest> counts = Stream.of(GBN, READ, SPRAY).map(f -> {
            String n = f.substring(f.lastIndexOf('/') + 1);
            return DynamicTest.dynamicTest("counts " + n, () -> countsAgree(n));
        });
        return Stream.concat(cases, Stream.concat(counts, Stream.of(DynamicTest.dynamicTest("qp narrows", MessagesIT::qpNarrows))));
    }

    /** Per flow, the lines that are not cut equal analyze's Msgs; text and jsonl give the same messages. */
    private static void countsAgree(String n) throws Exception {
        JsonNode report = JSON.readTree(CASES.run("json " + n).out());
        Run text = CASES.run("messages " + n);
        Run lines = CASES.run("messages jsonl " + n);
        Map<String, Integer> perFlow = new HashMap<>();
        List<String> js = lines.out().lines().toList();
        for (String l : js) {
            JsonNode m = JSON.readTree(l);
            if (!m.get("status").asText().equals("cut")) perFlow.merge(m.get("flow").asText(), 1, Integer::sum);
            assertTrue(m.get("packets").asInt() >= 1 && m.get("first_psn").isInt() && m.has("completion_ns"), l);
        }
        int total = 0;
        for (JsonNode f : report.get("flows")) {
            long msgs = f.get("messages").asLong();
            total += (int) msgs;
            assertEquals(msgs, (long) perFlow.getOrDefault(f.get("id").asText(), 0), f.get("id").asText() + "\n" + lines.out());
        }
        assertTrue(total > 0, "not vacuous");
        List<String> t = text.out().lines().toList();
        assertTrue(t.getFirst().contains("FirstPSN") && t.getFirst().contains("Status"), t.getFirst());
        assertEquals(js.size(), t.size() - 1, "one text line per jsonl line\n" + text.out());
        for (int i = 0; i < js.size(); i++) {
            JsonNode m = JSON.readTree(js.get(i));
            String[] cols = t.get(i + 1).trim().split("\\s+");
            assertEquals(m.get("frame").asText(), cols[0], t.get(i + 1));
            assertEquals(m.get("flow").asText(), cols[2], t.get(i + 1));
            assertEquals(m.get("status").asText(), cols[cols.length - 1], t.get(i + 1));
        }
    }

    /** --qp keeps the messages of that QP, either direction, and nothing else. */
    private static void qpNarrows() throws Exception {
        List<String> all = CASES.run("messages jsonl rocev2-gbn-loss.pcapng").out().lines().toList();
        List<String> qp = CASES.run("--messages --qp").out().lines().toList();
        long want = 0;
        for (String l : all) if (JSON.readTree(l).get("flow").asText().endsWith("/0x000020")) want++;
        assertTrue(want > 0 && want < all.size(), "not vacuous: " + want + " of " + all.size());
        assertEquals(want, qp.size());
        for (String l : qp) assertTrue(JSON.readTree(l).get("flow").asText().endsWith("/0x000020"), l);
    }
}
