package io.metaroce.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameFields;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The display-filter compiler on arbitrary text (UTF-8 decoded, so malformed sequences become U+FFFD).
 * Contract: {@link DisplayFilter#compile} either returns a filter or throws {@link FilterException} with a column
 * inside the text; a compiled filter's normalized form compiles again to the same normalized form
 * (as its javadoc promises), and matching a real RoCE frame never throws.
 */
class DisplayFilterFuzzTest {
    /** An RC SEND ONLY over IPv4/UDP 4791 (from samples/reference/roce_write_only_icrc.pcap's family). */
    private static final FrameFields FRAME = sampleFrame();

    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "5m")
    void compileAnyText(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        DisplayFilter filter;
        try {
            filter = DisplayFilter.compile(text, FieldCatalog.get());
        } catch (FilterException e) {
            if (e.getMessage() == null || e.getMessage().isBlank() || e.column() < 1 || e.column() > text.length() + 1) {
                throw new AssertionError("unhelpful FilterException (column " + e.column() + "): " + e.getMessage(), e);
            }
            e.formatted();
            return;
        }
        String normalized = filter.toString();
        DisplayFilter again;
        try {
            again = DisplayFilter.compile(normalized, FieldCatalog.get());
        } catch (FilterException e) {
            throw new AssertionError("normalized form '" + normalized + "' of '" + text + "' does not compile: "
                    + e.getMessage(), e);
        }
        if (!again.toString().equals(normalized)) {
            throw new AssertionError("normalizing '" + text + "' is not stable: '" + normalized + "' then '" + again + "'");
        }
        filter.matches(FRAME);
    }

    private static FrameFields sampleFrame() {
        byte[] frame = HexFormat.of().parseHex(
                "02000000000202000000000108004502003c0001400040110000c0a80001c0a80002c00012b70028000004"
                        + "40ffff00000011000000050000000001020304050607080000000000000000");
        Dissection d = new Dissector().dissect(MemorySegment.ofArray(frame), 1, 0, frame.length, 1, -1, new Dissection());
        return new FrameFields().of(d);
    }
}
