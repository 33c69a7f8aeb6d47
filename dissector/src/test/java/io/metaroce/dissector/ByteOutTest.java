package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** ByteOut's decimal numbers: the same text as Long.toString for every width, around each int and 10^9 edge. */
class ByteOutTest {
    @Test
    void numbersAreWrittenAsLongToStringWritesThem() {
        List<Long> values = new ArrayList<>(List.of(0L, 1L, 9L, 10L, 99L, 100L, 999_999_999L, 1_000_000_000L,
                1_000_000_001L, (long) Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, 4_294_967_295L, 4_294_967_296L,
                999_999_999_999_999_999L, 1_000_000_000_000_000_000L, 1_000_000_000_000_000_001L, Long.MAX_VALUE,
                Long.MAX_VALUE - 1, -1L, Long.MIN_VALUE, 1_764_633_600_123_456_789L));
        for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {      // each power of ten and its neighbours
            values.add(p - 1);
            values.add(p);
            values.add(p + 1);
            values.add(p * 10 - 1);
        }
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            long v = r.nextLong();
            values.add(v >>> r.nextInt(64));                                 // every magnitude, not only 19 digits
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringBuilder expected = new StringBuilder();
        try (ByteOut out = new ByteOut(bytes)) {
            for (long v : values) {
                out.num(v).ch(',');
                expected.append(v).append(',');
            }
        }
        assertEquals(expected.toString(), bytes.toString(StandardCharsets.US_ASCII));
    }
}
