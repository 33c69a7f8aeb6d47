package io.metaroce.capture;

import static io.metaroce.capture.TestSupport.data;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The project's reference captures (copied from /work/shared/reference/pcaps). Expected lengths and times were
 * taken from tshark 4.0 ({@code -T fields -e frame.len -e frame.cap_len -e frame.time_epoch}).
 */
class ReferenceCapturesTest {

    static Path resource(String name) throws Exception {
        return Path.of(ReferenceCapturesTest.class.getResource("/pcaps/" + name).toURI());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "roce_v4_oracle.pcap|1700000000|70 1098 1082 570 90 74 1086 1082 1086 62 62 62 74 78 66 66 82 86 86 70 62 62 62 62 62",
        "roce_edge.pcap|1700000300|74 66 74 78 62 78",
        "roce_v6.pcap|1700000100|110 82",
        "roce_vlan.pcap|1700000200|94 66",
        "roce_cm.pcap|1700000400|322 322 322 66 62 322 322",
        "roce_write_only_icrc.pcap|1700000000|90",
    })
    void framesCountsLengthsAndTimes(String name, long firstSecond, String lengths) throws Exception {
        String[] expected = lengths.split(" ");
        try (PacketSource s = CaptureFiles.open(resource(name))) {
            assertEquals(CaptureFormat.PCAP_US, s.format());
            int n = 0;
            while (s.next()) {
                assertEquals(Integer.parseInt(expected[n]), s.capturedLength(), name + " frame " + (n + 1));
                assertEquals(s.capturedLength(), s.originalLength());
                // every reference file spaces its frames 1 ms apart
                assertEquals(firstSecond * 1_000_000_000L + n * 1_000_000L, s.timestampNanos());
                assertEquals(LinkTypes.ETHERNET, s.linkType());
                n++;
            }
            assertEquals(expected.length, n, name);
            assertTrue(s.problems().isEmpty(), s.problems().toString());
            assertEquals(65535, s.stats().interfaces().get(0).snapLength());
        }
    }

    @Test
    void firstFrameStartsWithEthernetIpv4() throws Exception {
        try (PacketSource s = CaptureFiles.open(resource("roce_write_only_icrc.pcap"))) {
            assertTrue(s.next());
            byte[] frame = data(s);
            assertEquals(90, frame.length);
            assertEquals(0x08, frame[12] & 0xFF);
            assertEquals(0x00, frame[13] & 0xFF);
        }
    }

    /**
     * roce_v4_oracle.pcapng was made with {@code editcap -F pcapng -a 2:"second frame comment" -a 25:"last frame"
     * --inject-secrets tls,keys.txt roce_v4_oracle.pcap}: a real Wireshark pcapng with packet comments and a
     * Decryption Secrets Block before the interface block, which must be skipped.
     */
    @Test
    void editcapPcapngMatchesThePcap() throws Exception {
        List<byte[]> frames = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        try (PacketSource s = CaptureFiles.open(resource("roce_v4_oracle.pcap"))) {
            while (s.next()) {
                frames.add(data(s));
                times.add(s.timestampNanos());
            }
        }
        try (PacketSource s = CaptureFiles.open(resource("roce_v4_oracle.pcapng"))) {
            assertEquals(CaptureFormat.PCAPNG, s.format());
            int n = 0;
            while (s.next()) {
                assertArrayEquals(frames.get(n), data(s), "frame " + (n + 1));
                assertEquals(times.get(n), s.timestampNanos());
                assertEquals(LinkTypes.ETHERNET, s.linkType());
                String expectedComment = switch (n + 1) {
                    case 2 -> "second frame comment";
                    case 25 -> "last frame";
                    default -> null;
                };
                assertEquals(expectedComment, s.comment(), "frame " + (n + 1));
                n++;
            }
            assertEquals(25, n);
            assertFalse(s.next());
            assertTrue(s.problems().isEmpty(), s.problems().toString());
            CaptureStats st = s.stats();
            assertEquals(1, st.sectionCount());
            assertEquals(1, st.interfaceCount());
            assertTrue(st.captureApplication().startsWith("Editcap"), st.captureApplication());
            assertEquals(6, st.interfaces().get(0).tsResolution());
            assertNull(st.interfaces().get(0).name());
        }
    }
}
