package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The C1-friendly XXH3-128 gives hash4j's value (the one every index holds) for every length and however the bytes
 * are cut into blocks: all lengths around the short-input limit (240), the stripe (64) and the block (1,024), and
 * random lengths up to 300 KB fed in random pieces, empty ones and pieces of exactly a block among them.
 */
class Xxh3StreamTest {
    private static HashValue128 streamed(byte[] data, Random cuts) {
        Xxh3Stream s = new Xxh3Stream();
        int at = 0;
        while (at < data.length) {
            int n = switch (cuts.nextInt(5)) {
                case 0 -> 0;
                case 1 -> 1024;
                case 2 -> cuts.nextInt(100);
                case 3 -> cuts.nextInt(3000);
                default -> cuts.nextInt(140_000);
            };
            n = Math.min(n, data.length - at);
            s.update(data, at, n);
            at += n;
        }
        assertEquals(data.length, s.length());
        return s.digest();
    }

    @Test
    void everyLengthUpToThreeBlocksMatchesHash4j() {
        Random r = new Random(7);
        for (int len = 0; len <= 3 * 1024 + 130; len++) {
            byte[] data = new byte[len];
            r.nextBytes(data);
            assertEquals(Hashing.xxh3_128().hashBytesTo128Bits(data), streamed(data, r), "length " + len);
        }
    }

    @Test
    void longRandomInputsInRandomPiecesMatchHash4j() {
        Random r = new Random(11);
        for (int t = 0; t < 300; t++) {
            int len = t < 20 ? (t + 1) * 64 * 1024 + (t % 3) - 1 : r.nextInt(300_000);
            byte[] data = new byte[len];
            r.nextBytes(data);
            assertEquals(Hashing.xxh3_128().hashBytesTo128Bits(data), streamed(data, r), "length " + len);
        }
    }

    @Test
    void aDigestLeavesTheStreamGoingOn() {
        Random r = new Random(3);
        byte[] data = new byte[5000];
        r.nextBytes(data);
        Xxh3Stream s = new Xxh3Stream();
        s.update(data, 0, 3000);
        assertEquals(Hashing.xxh3_128().hashBytesTo128Bits(data, 0, 3000), s.digest());
        s.update(data, 3000, 2000);
        assertEquals(Hashing.xxh3_128().hashBytesTo128Bits(data), s.digest());
    }
}
