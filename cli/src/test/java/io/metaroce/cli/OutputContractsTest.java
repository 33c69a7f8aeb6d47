package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * tshark's output contracts: -e needs an output format that prints fields; integers beyond 2^53 are JSON strings
 * (jq 1.6 and JavaScript read numbers as doubles); analysis flags are present only when true.
 */
class OutputContractsTest {
    private static final String GBN = "../samples/captures/rocev2-gbn-loss.pcapng";
    private static final String SPRAY = "../samples/captures/metaroce-spray-lossy-path.pcapng";
    private static final String VLAN = "../samples/reference/roce_vlan.pcap";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void fieldsNeedAFieldsOrJsonOutput() throws Exception {
        CliRun r = CliRun.of("dissect", "-r", VLAN, "-e", "frame.number", "-c", "2");
        assertEquals(2, r.exit());
        assertEquals("", r.out());
        assertTrue(r.err().contains("Output fields were specified with \"-e\""), r.err());
        // With -T json/jsonl, -e narrows each frame's fields to those named, in that order (as tshark does).
        r = CliRun.of("dissect", "-r", VLAN, "-T", "jsonl", "-e", "bth.psn", "-e", "frame.number", "-c", "2");
        assertEquals(0, r.exit(), r.err());
        for (String line : r.out().lines().toList()) {
            List<String> names = new ArrayList<>();
            JSON.readTree(line).get("fields").fieldNames().forEachRemaining(names::add);
            assertEquals(List.of("bth.psn", "frame.number"), names);
        }
    }

    /** Every integer in the JSON text is at most 2^53 in magnitude; larger values are strings with every digit. */
    private static void noUnsafeNumbers(String json) {
        Matcher m = Pattern.compile("(?<![\"\\w.])-?\\d{16,}(?![\"\\w.])").matcher(json);
        while (m.find()) {
            assertTrue(Math.abs(Double.parseDouble(m.group())) <= 9007199254740992.0, "unsafe JSON number " + m.group());
        }
    }

    @Test
    void integersBeyond2to53AreStringsInEveryJsonOutput() throws Exception {
        CliRun r = CliRun.of("dissect", "-r", GBN, "-T", "jsonl", "-c", "3");
        assertEquals(0, r.exit(), r.err());
        noUnsafeNumbers(r.out());
        JsonNode third = JSON.readTree(r.out().lines().toList().get(2));
        assertTrue(third.get("time_ns").isTextual());
        assertEquals("1767225600000009373", third.get("time_ns").asText(), "every digit survives");
        assertTrue(third.get("frame").isNumber(), "small integers stay numbers");

        r = CliRun.of("dissect", "-r", "../samples/reference/roce_cm.pcap", "-T", "json");
        noUnsafeNumbers(r.out());
        for (String args : List.of("analyze -r " + GBN + " -T json", "analyze -r " + GBN + " --events jsonl")) {
            r = CliRun.of(args.split(" "));
            assertEquals(0, r.exit(), r.err());
            noUnsafeNumbers(r.out());
            assertTrue(r.out().contains("\"1767225600"), args + ": nanosecond times as strings");
        }
        r = CliRun.of("validate", "-T", "json", GBN);
        noUnsafeNumbers(r.out());
    }

    @Test
    void aTsharkNameWithNoEquivalentSaysWhy() {
        CliRun r = CliRun.of("dissect", "-r", VLAN, "-Y", "infiniband.rwh.etype == 1");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("infiniband.rwh.etype has no equivalent here: Raw packet header"), r.err());
        r = CliRun.of("dissect", "-r", VLAN, "-T", "fields", "-e", "infiniband.variant.crc");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("no equivalent here: Variant CRC"), r.err());
    }

    @Test
    void analysisFlagsArePresentOnlyWhenTrue() {
        CliRun bare = CliRun.of("dissect", "-r", SPRAY, "-T", "fields", "-e", "frame.number", "-Y", "analysis.spurious");
        CliRun eqTrue = CliRun.of("dissect", "-r", SPRAY, "-T", "fields", "-e", "frame.number", "-Y", "analysis.spurious == true");
        assertEquals(0, bare.exit(), bare.err());
        assertTrue(!eqTrue.out().isEmpty(), "the sample has spurious retransmissions");
        assertEquals(eqTrue.out(), bare.out(), "the bare flag selects exactly the spurious frames");
        CliRun falseOnes = CliRun.of("dissect", "-r", SPRAY, "-T", "fields", "-e", "frame.number", "-Y", "analysis.spurious == false");
        assertEquals("", falseOnes.out());
    }
}
