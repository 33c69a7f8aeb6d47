package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * validate's frame rules on the decoder's short cut ({@link RuleEngine#decodedFast}: the common clean frame without
 * its dissection) against the same rules on every frame's full dissection ({@link RuleEngine#decoded}): the whole
 * JSON result (findings with their frames, flows, messages and anchors, the summary with its unjudged and
 * truncated counts) must be identical, at {@code --tap auto} and {@code mirror}, over every bundled sample, every
 * external capture, and damaged copies of the samples' frames (header bits flipped, header bytes replaced, the wire
 * length changed, bytes or a valid FCS after the datagram, a UDP checksum set right or wrong), on which the short
 * cut must decline exactly the frames a frame rule has something to say about.
 */
class FastFramesTest {

    private static String json(Path cap, String tap, boolean fast, long[] taken) throws IOException {
        ValidateSettings s = new ValidateSettings.Builder().tap(tap).build();
        FileResult r = FileValidator.validate(cap, s, false, null, AnalysisSession.Options.RESULTS, -1, fast, taken);
        return Reports.mapper().writeValueAsString(Reports.jsonTree(List.of(r), s));
    }

    private static List<Path> captures(Path dir) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().matches(".*\\.(pcap|pcapng)$")).sorted().toList();
        }
    }

    private static Path externalDir() {
        String p = System.getProperty("metaroce.external");
        if (p != null && !p.isBlank()) return Path.of(p);
        for (String c : new String[] {"../../shared/reference/external-pcaps", "../shared/reference/external-pcaps"}) {
            if (Files.isDirectory(Path.of(c))) return Path.of(c);
        }
        return null;
    }

    /** ICRCs the short cut verified in the reader's window (both taps), summed over every compare. */
    private static long inWindow;

    /** Both paths over a capture at both taps; the frames the short cut took. */
    private static long compare(Path cap, List<String> problems) throws IOException {
        long taken = 0;
        for (String tap : new String[] {"auto", "mirror"}) {
            long[] n = {0, 0};
            String full = json(cap, tap, false, null), fast = json(cap, tap, true, n);
            if (!full.equals(fast)) problems.add(cap + " at --tap " + tap + ": " + firstDifference(full, fast));
            taken += n[0];
            inWindow += n[1];
        }
        return taken;
    }

    private static String firstDifference(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) i++;
        int from = Math.max(0, i - 300);
        return "\n  full: ..." + a.substring(from, Math.min(a.length(), i + 200)) + "\n  fast: ..." + b.substring(from, Math.min(b.length(), i + 200));
    }

    @Test
    void theShortCutFindsWhatTheDissectionFinds(@TempDir Path tmp) throws IOException {
        List<String> problems = new ArrayList<>();
        List<Path> all = new ArrayList<>(captures(Path.of("../samples/captures")));
        all.addAll(captures(Path.of("../samples/reference")));
        int bundled = all.size();
        all.addAll(captures(externalDir()));
        long taken = 0;
        inWindow = 0;
        for (Path cap : all) taken += compare(cap, problems);
        assertEquals(List.of(), problems);
        assertTrue(bundled >= 20, "bundled captures: " + bundled);
        assertTrue(taken > 5_000, "frames the short cut took (both taps): " + taken);
        // The ICRC is verified in the reader's window for (nearly) every frame the short cut considers there.
        assertTrue(inWindow >= taken, "ICRCs verified in the window " + inWindow + ", frames taken " + taken);

        // Damaged copies of the bundled samples' Ethernet frames, one file per kind of damage and sample.
        Random rnd = new Random(14_1_9);
        long mutantsTaken = 0, mutants = 0;
        for (Path cap : captures(Path.of("../samples/captures"))) {
            for (int kind = 0; kind < 6; kind++) {
                Path out = tmp.resolve(cap.getFileName() + "." + kind + ".pcap");
                mutants += damaged(cap, out, kind, rnd);
                mutantsTaken += compare(out, problems);
            }
        }
        assertEquals(List.of(), problems);
        // Damaged payloads and ICRCs (kind 5) reach the window's ICRC and are declined there, with the same findings.
        assertTrue(inWindow > taken + mutantsTaken, "ICRCs verified in the window " + inWindow + ", frames taken "
                + (taken + mutantsTaken));
        // Not vacuous: the short cut takes damaged frames too (a flip in a field no frame rule reads), not all.
        assertTrue(mutantsTaken > mutants / 4 && mutantsTaken < 2 * mutants * 9 / 10,
                mutantsTaken + " taken at the two taps of " + mutants + " damaged frames");
        // A reserved bit in a header of the opcode's chain (the DETH's reserved byte of a UD SEND, its ICRC made
        // right): the short cut reads those from the opcode's shape, made once; every such frame must be declined,
        // with the same findings (a shape without the chain's reserved bytes fails here).
        long udDamaged = 0, udTaken = 0;
        for (Path cap : captures(Path.of("../samples/captures"))) {
            Path out = tmp.resolve(cap.getFileName() + ".deth.pcap");
            long n = damaged(cap, out, 6, rnd);
            if (n == 0) continue;
            udDamaged += n;
            udTaken += compare(out, problems);
        }
        assertEquals(List.of(), problems);
        assertTrue(udDamaged > 20, "UD frames with a DETH reserved bit set: " + udDamaged);
        assertEquals(0, udTaken, "UD frames with a DETH reserved bit set that the short cut took");
        System.out.println("FastFramesTest: " + all.size() + " captures (" + bundled + " bundled), " + taken
                + " frames taken at the two taps; " + mutants + " damaged frames, " + mutantsTaken + " taken; "
                + udDamaged + " UD frames with a reserved DETH bit, none taken; same results");
    }

    /** Writes the Ethernet frames of cap, each damaged by kind, as a pcap file; returns how many. */
    private static long damaged(Path cap, Path out, int kind, Random rnd) throws IOException {
        long n = 0;
        try (PacketSource src = CaptureFiles.open(cap); OutputStream w = Files.newOutputStream(out)) {
            ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(262144).putInt(1);
            w.write(h.array());
            while (src.next()) {
                if (src.linkType() != 1) continue;
                byte[] b = src.data().toArray(ValueLayout.JAVA_BYTE);
                long orig = src.originalLength();
                if (orig != b.length) continue;
                // PAUSE/PFC frames (MAC Control, untagged): the short cut takes no frame that is not RoCE, so the PFC
                // samples' thousands of them would only dilute the share of damaged frames it takes, checked below.
                if (b.length >= 14 && (b[12] & 0xFF) == 0x88 && (b[13] & 0xFF) == 0x08) continue;
                int len = b.length, head = Math.min(len, 96);
                // Kind 6 writes only the UD SENDs it damages (untagged IPv4, any tver): a bit of the DETH's reserved byte.
                if (kind == 6 && !detReserved(b, rnd)) continue;
                switch (kind) {
                    case 0 -> b[14 + rnd.nextInt(Math.max(1, head - 14))] ^= (byte) (1 << rnd.nextInt(8));
                    case 1 -> b[14 + rnd.nextInt(Math.max(1, head - 14))] = (byte) rnd.nextInt(256);
                    case 2 -> orig = len + rnd.nextInt(9);
                    case 3 -> {
                        // Bytes after the datagram: padding, or an FCS (a valid CRC-32, which the dissector recognizes).
                        int extra = 1 + rnd.nextInt(8);
                        b = java.util.Arrays.copyOf(b, len + (rnd.nextBoolean() ? 4 : extra));
                        if (b.length == len + 4) {
                            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                            crc.update(b, 0, len);
                            ByteBuffer.wrap(b, len, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
                        }
                        orig = b.length;
                    }
                    case 4 -> udpChecksum(b, rnd.nextInt(3) == 0);
                    case 6 -> { }
                    default -> {
                        // A flip past the first 96 bytes as well (payload, pad, ICRC) or the frame cut short.
                        if (rnd.nextBoolean()) b[rnd.nextInt(len)] ^= (byte) (1 << rnd.nextInt(8));
                        else b = java.util.Arrays.copyOf(b, rnd.nextInt(len + 1));
                    }
                }
                ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
                long t = src.timestampNanos();
                r.putInt((int) (t / 1_000_000_000L)).putInt((int) (t % 1_000_000_000L / 1000)).putInt(b.length).putInt((int) orig);
                w.write(r.array());
                w.write(b);
                n++;
            }
        } catch (io.metaroce.capture.CaptureException e) {
            throw new IOException(e);
        }
        return n;
    }

    /** Sets one bit of the DETH's reserved byte of an untagged IPv4 UD SEND (opcode 0x64 or 0x65); false for any other frame. */
    private static boolean detReserved(byte[] b, Random rnd) {
        if (b.length < 42 || (b[12] & 0xFF) != 0x08 || b[13] != 0x00 || (b[23] & 0xFF) != 17) return false;
        int bth = 14 + (b[14] & 0x0F) * 4 + 8;
        if (bth + 12 > b.length || (((b[bth - 6] & 0xFF) << 8) | (b[bth - 5] & 0xFF)) != 4791) return false;
        int op = b[bth] & 0xFF, tver = b[bth + 1] & 0x0F;
        if (op != 0x64 && op != 0x65 || tver > 1) return false;
        int deth = bth + 12 + (tver == 1 ? 16 : 0);
        if (deth + 8 > b.length) return false;
        b[deth + 4] ^= (byte) (1 << rnd.nextInt(8));
        // The ICRC covers the DETH: made right again, so that the reserved-bit check is what declines the frame.
        int udp = bth - 8, end = udp + (((b[udp + 4] & 0xFF) << 8) | (b[udp + 5] & 0xFF)) - 4;
        if (end < deth + 8 || end + 4 > b.length) return false;
        long icrc = new io.metaroce.dissector.Icrc().overIp(java.lang.foreign.MemorySegment.ofArray(b), 14,
                (b[14] & 0x0F) * 4, false, bth, end);
        ByteBuffer.wrap(b, end, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) icrc);
        return true;
    }

    /** Sets the UDP checksum of an untagged IPv4 frame right (then, when wrong, one bit off). */
    private static void udpChecksum(byte[] b, boolean wrong) {
        if (b.length < 42 || (b[12] & 0xFF) != 0x08 || b[13] != 0x00 || (b[23] & 0xFF) != 17) return;
        int ip = 14, udp = ip + (b[ip] & 0x0F) * 4;
        if (udp + 8 > b.length) return;
        int len = ((b[udp + 4] & 0xFF) << 8) | (b[udp + 5] & 0xFF);
        if (len < 8 || udp + len > b.length) return;
        b[udp + 6] = b[udp + 7] = 0;
        long sum = 17 + len;
        for (int i = ip + 12; i < ip + 20; i += 2) sum += ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
        for (int i = 0; i < len; i += 2) sum += ((b[udp + i] & 0xFF) << 8) | (i + 1 < len ? b[udp + i + 1] & 0xFF : 0);
        while ((sum >>> 16) != 0) sum = (sum & 0xFFFF) + (sum >>> 16);
        int ck = (int) (~sum & 0xFFFF);
        if (ck == 0) ck = 0xFFFF;
        if (wrong) ck ^= 1 << 3;
        b[udp + 6] = (byte) (ck >>> 8);
        b[udp + 7] = (byte) ck;
    }
}
