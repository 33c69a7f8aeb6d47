package io.metaroce.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The dissector on every link type it decodes (and some it does not). Input layout: byte 0 picks the link type,
 * byte 1 the FCS length the file announces and whether the frame was cut by the snap length, the rest is the
 * frame. Contract: never throws, every problem is an expert item ({@link FrameContract}).
 */
class DissectorFuzzTest {
    /** Ethernet, SLL, SLL2, raw (101, BSD 12, OpenBSD 14), IPv4, IPv6, then two the dissector reports as unsupported. */
    static final int[] LINK_TYPES = {1, 113, 276, 101, 12, 14, 228, 229, 247, 0};
    private static final int[] FCS = {-1, 0, 4, 2};
    /** A second config with more RoCE ports and no ICRC check, so both paths are reached. */
    private static final Dissector[] DISSECTORS = {new Dissector(),
            new Dissector(new DissectorConfig(Set.of(Spec.ROCE_UDP_PORT, 1, 65535), false))};

    private final Dissection out = new Dissection();
    private final FrameContract contract = new FrameContract();

    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "5m")
    void dissectAnyLinkType(byte[] input) {
        if (input.length < 2) return;
        int linkType = LINK_TYPES[Byte.toUnsignedInt(input[0]) % LINK_TYPES.length];
        int flags = Byte.toUnsignedInt(input[1]);
        byte[] frame = Arrays.copyOfRange(input, 2, input.length);
        long original = (flags & 0x10) != 0 ? frame.length + 1 + (flags >>> 5) * 100L : frame.length;
        Dissector dissector = DISSECTORS[(flags >>> 2) & 1];
        dissector.dissect(MemorySegment.ofArray(frame), 1, 0, original, linkType, FCS[flags & 3], out);
        contract.check(out);
    }
}
