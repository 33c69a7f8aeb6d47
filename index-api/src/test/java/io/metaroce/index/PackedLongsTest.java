package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class PackedLongsTest {
    @Test
    void roundTripsAnyLongsAndIsCompactForRisingOffsets() {
        Random r = new Random(7);
        long[] rising = new long[10_000];
        for (int i = 1; i < rising.length; i++) rising[i] = rising[i - 1] + 60 + r.nextInt(1500);
        byte[] b = PackedLongs.encode(rising);
        assertArrayEquals(rising, PackedLongs.decode(b));
        assertTrue(b.length < rising.length * 3, "about two bytes per offset, was " + b.length);
        long[] any = {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE, 5, -7};
        assertArrayEquals(any, PackedLongs.decode(PackedLongs.encode(any)));
        assertArrayEquals(new long[] {3, 4}, PackedLongs.decode(PackedLongs.encode(new long[] {1, 2, 3, 4, 5}, 2, 4)));
    }

    @Test
    void damagedBytesAreRefused() {
        byte[] b = PackedLongs.encode(new long[] {100, 200, 300});
        assertThrows(IllegalArgumentException.class, () -> PackedLongs.decode(java.util.Arrays.copyOf(b, b.length - 1)));
        assertThrows(IllegalArgumentException.class, () -> PackedLongs.decode(new byte[] {(byte) 0xFF}));
    }
}
