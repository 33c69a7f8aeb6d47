package io.metaroce.cli;

import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.analysis.FrameFacts;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Addresses;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code --tap host:IP} with an address that is in no frame judges every flow as seen from a mirror, with no
 * hint why. This looks at the first frames (as {@code --tap auto} does) and returns a warning naming the
 * addresses that are there.
 */
final class TapCheck {
    private static final int FRAMES = 20_000, SHOWN = 8;

    private TapCheck() {}

    /** Parses --tap (auto, mirror, host:IP); a bad value is a usage error (IllegalArgumentException). */
    static Tap parse(String tap) {
        return Tap.parse(tap == null ? "auto" : tap);
    }

    /** A warning when a host tap's address is in none of the first RoCE frames of the file, else null. */
    static String warning(Path file, Set<Integer> ports, Tap tap) {
        if (tap.kind() != Tap.Kind.HOST) return null;
        String want = tap.toString().substring("host:".length());
        Set<String> seen = new TreeSet<>();
        Dissector dis = new Dissector(new DissectorConfig(ports, false));
        Dissection d = new Dissection();
        FrameFacts f = new FrameFacts();
        try (PacketSource src = CaptureFiles.open(file)) {
            for (int n = 0; n < FRAMES && src.next(); n++) {
                dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength(), d);
                f.from(d);
                if (!f.roce) continue;
                String s = text(f.v6, f.srcHi, f.srcLo), t = text(f.v6, f.dstHi, f.dstLo);
                if (s.equals(want) || t.equals(want)) return null;
                seen.add(s);
                seen.add(t);
            }
        } catch (CaptureException e) {
            return null; // the command itself reports an unreadable file
        }
        String list = seen.isEmpty() ? "none: no RoCE frames" : String.join(", ", seen.stream().limit(SHOWN).toList())
                + (seen.size() > SHOWN ? ", ... (" + seen.size() + " in all)" : "");
        return "warning: --tap " + tap + ": " + want + " is in no RoCE frame of " + file.getFileName()
                + ", so every flow is judged as from a mirror; addresses seen: " + list;
    }

    private static String text(boolean v6, long hi, long lo) {
        if (!v6) return Addresses.ipv4((int) lo);
        byte[] a = new byte[16];
        for (int i = 0; i < 8; i++) {
            a[i] = (byte) (hi >>> (56 - 8 * i));
            a[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return Addresses.ipv6(a);
    }
}
