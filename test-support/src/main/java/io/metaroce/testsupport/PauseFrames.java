package io.metaroce.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Ethernet MAC Control frames (EtherType 0x8808) as a switch sends them: 802.3x PAUSE and 802.1Qbb PFC, built byte by
 * byte, and the test vectors of the dissector and analyze tests written as a nanosecond pcap (plain Java: this
 * module has no dependencies on purpose).
 */
public final class PauseFrames {
    /** The destination of every MAC Control frame (01-80-C2-00-00-01) and the two senders of the vectors. */
    public static final long MAC_CONTROL_DST = 0x0180C2000001L, SWITCH_A = 0x02000000000AL, SWITCH_B = 0x02000000000BL;

    /** One frame and when it was captured. */
    public record Frame(long timeNanos, byte[] bytes) {}

    private PauseFrames() {}

    /** An 802.3x PAUSE: opcode 0x0001, one pause time for the whole link (0 = XON), padded to 60 bytes. */
    public static byte[] pause(long src, int quanta) {
        return frame(src, 0x0001, quanta);
    }

    /** A PFC frame: opcode 0x0101, the class enable vector, then the pause times of classes 0..7 (missing ones 0). */
    public static byte[] pfc(long src, int enbv, int... quanta) {
        int[] t = Arrays.copyOf(quanta, 8);
        int[] words = new int[9];
        words[0] = enbv;
        System.arraycopy(t, 0, words, 1, 8);
        return frame(src, 0x0101, words);
    }

    /** A MAC Control frame with any opcode and 16-bit words after it, padded to the 60-byte Ethernet minimum. */
    public static byte[] frame(long src, int opcode, int... words) {
        ByteBuffer b = ByteBuffer.allocate(Math.max(60, 16 + 2 * words.length)).order(ByteOrder.BIG_ENDIAN);
        mac(b, MAC_CONTROL_DST);
        mac(b, src);
        b.putShort((short) 0x8808).putShort((short) opcode);
        for (int w : words) b.putShort((short) w);
        return b.array();
    }

    /** The frame with an 802.1Q tag (priority pcp, VLAN vid) after its source address. */
    public static byte[] tagged(byte[] frame, int pcp, int vid) {
        byte[] out = new byte[frame.length + 4];
        System.arraycopy(frame, 0, out, 0, 12);
        ByteBuffer.wrap(out, 12, 4).putShort((short) 0x8100).putShort((short) (pcp << 13 | vid));
        System.arraycopy(frame, 12, out, 16, frame.length - 12);
        return out;
    }

    /**
     * The vectors: from switch A, PFC XOFF on classes 3 and 4, refreshed on class 3 every 100 µs (before 65535 quanta
     * expire at 100 Gb/s: 335.5 µs) and released by an XON (quanta 0) at 300 µs; from switch B an 802.3x PAUSE and
     * its XON; an opcode that is neither; a PFC frame cut inside its pause times (21 bytes); a PFC frame behind a
     * VLAN tag; one whose class enable vector has a reserved bit set.
     */
    public static List<Frame> vectors() {
        List<Frame> l = new ArrayList<>();
        l.add(new Frame(0, pfc(SWITCH_A, 0x18, 0, 0, 0, 65535, 256)));
        l.add(new Frame(100_000, pfc(SWITCH_A, 0x08, 0, 0, 0, 65535)));
        l.add(new Frame(200_000, pfc(SWITCH_A, 0x08, 0, 0, 0, 65535)));
        l.add(new Frame(300_000, pfc(SWITCH_A, 0x08, 0, 0, 0, 0)));
        l.add(new Frame(400_000, pause(SWITCH_B, 65535)));
        l.add(new Frame(500_000, pause(SWITCH_B, 0)));
        l.add(new Frame(600_000, frame(SWITCH_B, 0x0203, 0x1234)));
        l.add(new Frame(700_000, Arrays.copyOf(pfc(SWITCH_A, 0x08, 0, 0, 0, 500), 21)));
        l.add(new Frame(1_000_000, tagged(pfc(SWITCH_A, 0x08, 0, 0, 0, 500), 7, 5)));
        l.add(new Frame(2_000_000, pfc(SWITCH_A, 0x0108, 1, 2, 3, 4, 5, 6, 7, 8)));
        return l;
    }

    /** Writes frames as a pcap with nanosecond timestamps and link type Ethernet; returns file. */
    public static Path write(Path file, List<Frame> frames) {
        int size = 24;
        for (Frame f : frames) size += 16 + f.bytes().length;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xA1B23C4D).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        for (Frame f : frames) {
            b.putInt((int) (f.timeNanos() / 1_000_000_000L)).putInt((int) (f.timeNanos() % 1_000_000_000L))
                    .putInt(f.bytes().length).putInt(f.bytes().length).put(f.bytes());
        }
        try {
            return Files.write(file, b.array());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void mac(ByteBuffer b, long mac) {
        for (int i = 5; i >= 0; i--) b.put((byte) (mac >>> (8 * i)));
    }
}
