package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FrameVerdict;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.NameResolver;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One search of Wireshark's Find Packet: a display filter, a hex value (always in the bytes), a string or a regular
 * expression in the packet list's columns, the field tree's lines or the frame's bytes, case sensitive or not.
 * {@link #compile} checks the input and says what is wrong with it in one line; {@link #run} walks the displayed
 * frames from the selected one, wrapping around once, on the caller's (background) thread. Holds no UI.
 */
final class FindPacket {
    enum Where {
        LIST("Packet list"), DETAILS("Packet details"), BYTES("Packet bytes");

        final String label;

        Where(String label) { this.label = label; }

        @Override public String toString() { return label; }
    }

    enum How {
        FILTER("Display filter"), HEX("Hex value"), STRING("String"), REGEX("Regular Expression");

        final String label;

        How(String label) { this.label = label; }

        @Override public String toString() { return label; }
    }

    /**
     * A match: the frame, and where in it: the bytes [offset, offset + length) for a search in the bytes (a hex value
     * too), the matching tree line's text for one in the details; -1 and null otherwise.
     */
    record Hit(int frame, int offset, int length, String line) { }

    /** What {@link #run} found: the hit or null, whether the search went past the end (start) to get there. */
    record Result(Hit hit, boolean wrapped, boolean cancelled) { }

    final Where where;
    final How how;
    final String text;
    final boolean caseSensitive;
    private final DisplayFilter filter;
    private final byte[] needle;
    private final Pattern pattern;
    private final String folded;
    /** The frame searched in the bytes, copied out of the file mapping (one search runs on one thread). */
    private byte[] scratch = new byte[2048];

    private FindPacket(Where where, How how, String text, boolean caseSensitive, DisplayFilter filter, byte[] needle, Pattern pattern) {
        this.where = where;
        this.how = how;
        this.text = text;
        this.caseSensitive = caseSensitive;
        this.filter = filter;
        this.needle = needle;
        this.pattern = pattern;
        this.folded = caseSensitive ? text : text.toLowerCase(Locale.ROOT);
    }

    /** Checks the search; throws IllegalArgumentException with a one-line message for the bar when it is invalid. */
    static FindPacket compile(Where where, How how, String text, boolean caseSensitive) {
        String t = text == null ? "" : text;
        if (t.isEmpty()) throw new IllegalArgumentException("Enter something to find");
        switch (how) {
            case FILTER:
                try {
                    return new FindPacket(where, how, t, true, GuiContext.compile(t), null, null);
                } catch (FilterException e) {
                    throw new IllegalArgumentException("Invalid filter: column " + e.column() + ": " + e.getMessage());
                }
            case HEX:
                return new FindPacket(Where.BYTES, how, t, true, null, hex(t), null);
            case REGEX:
                try {
                    Pattern p = Pattern.compile(t, caseSensitive ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
                    return new FindPacket(where, how, t, caseSensitive, null, null, p);
                } catch (PatternSyntaxException e) {
                    throw new IllegalArgumentException("Invalid regular expression: " + e.getDescription()
                            + (e.getIndex() >= 0 ? " at index " + e.getIndex() : ""));
                }
            default:
                return new FindPacket(where, how, t, caseSensitive, null, t.getBytes(StandardCharsets.UTF_8), null);
        }
    }

    /** "ff 00 3c", "ff003c", "ff:00:3c" or "ff-00-3c" as bytes. */
    static byte[] hex(String text) {
        StringBuilder digits = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == ':' || c == '-' || c == '\t') continue;
            if (Character.digit(c, 16) < 0) throw new IllegalArgumentException("Invalid hex value: '" + c + "' is not a hex digit");
            digits.append(c);
        }
        if (digits.isEmpty()) throw new IllegalArgumentException("Invalid hex value: no hex digits");
        if (digits.length() % 2 != 0) throw new IllegalArgumentException("Invalid hex value: an odd number of hex digits");
        return HexFormat.of().parseHex(digits);
    }

    /** The bar's message when no displayed frame matches, in Wireshark's words. */
    String notFound() {
        switch (how) {
            case FILTER: return "No packet matched that filter.";
            case HEX: return "No packet contained those bytes.";
            case REGEX: return "No packet matched that regular expression in its " + where.label.toLowerCase(Locale.ROOT) + ".";
            default: return "No packet contained that string in its " + where.label.toLowerCase(Locale.ROOT) + ".";
        }
    }

    /**
     * Searches the frames of view after (forward) or before the row of frame from (0: from the start, or the end),
     * wrapping around once, and returns the first match. Checks cancelled between frames and reports the fraction
     * of the view searched (at most a hundred times). marks: the user's, for a filter's frame.marked and
     * frame.ref_time. names: View > Name Resolution's, for the packet list's Source and Destination.
     */
    Result run(FrameIndex ix, AnalysisSession session, GuiFields.Marks marks, NameResolver names, FrameView v, int from, boolean forward,
               java.util.function.BooleanSupplier cancelled, DoubleConsumer progress) {
        int n = v.size();
        if (n == 0) return new Result(null, false, false);
        int start = from == 0 || v.rowOf(from) < 0 ? (forward ? -1 : n) : v.rowOf(from);
        FrameDecoder dec = how == How.HEX || where == Where.BYTES && how != How.FILTER ? null : new FrameDecoder(ix, session);
        GuiFields.Accessor acc = how == How.FILTER ? new GuiFields.Accessor(session, marks) : null;
        int step = Math.max(4096, n / 100);     // few checks and progress reports: a pulse's worth of work apart
        for (int k = 1; k <= n; k++) {
            if (k % step == 0) {
                if (cancelled.getAsBoolean()) return new Result(null, false, true);
                progress.accept((double) k / n);
            }
            int raw = start + (forward ? k : -k);
            int f = v.frameAt(Math.floorMod(raw, n));
            Hit h = test(ix, session, names, dec, acc, f);
            if (h != null) return new Result(h, raw < 0 || raw >= n, false);
        }
        return new Result(null, false, false);
    }

    /** The match in frame f, or null. */
    Hit test(FrameIndex ix, AnalysisSession session, NameResolver names, FrameDecoder dec, GuiFields.Accessor acc, int f) {
        if (how == How.FILTER) {
            dec.decode(f);
            return filter.matches(acc.of(dec.fields())) ? new Hit(f, -1, 0, null) : null;
        }
        if (how == How.HEX || where == Where.BYTES) return inBytes(ix.data(f), f);
        Dissection d = dec.decode(f);
        if (where == Where.LIST) {
            for (String s : listTexts(ix, session, names, d, f)) if (matches(s)) return new Hit(f, -1, 0, s);
            return null;
        }
        List<String> lines = new ArrayList<>();
        FieldTreeModel.lines(d, dec.fields(), lines);
        for (String s : lines) if (s != null && matches(s)) return new Hit(f, -1, 0, s);
        return null;
    }

    /** The packet list's column texts of a frame (No., Source, Destination, Protocol, QP, PSN, Length, Info). */
    static List<String> listTexts(FrameIndex ix, AnalysisSession session, NameResolver names, Dissection d, int f) {
        FrameVerdict v = session != null && session.state() == AnalysisSession.State.FINISHED ? session.verdictOf(f) : null;
        return List.of(Integer.toString(f), PacketSummary.source(d, names), PacketSummary.destination(d, names), PacketSummary.protocol(d),
                PacketSummary.qp(d), PacketSummary.psn(d), Long.toString(ix.originalLength(f)), PacketSummary.info(d, v));
    }

    /** Whether a line of text holds the string or the pattern. */
    boolean matches(String s) {
        if (how == How.REGEX) return pattern.matcher(s).find();
        return (caseSensitive ? s : s.toLowerCase(Locale.ROOT)).contains(folded);
    }

    private Hit inBytes(MemorySegment seg, int f) {
        int len = (int) seg.byteSize();
        if (scratch.length < len) scratch = new byte[Math.max(len, 2 * scratch.length)];
        byte[] b = scratch;
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 0, b, 0, len);
        if (how == How.REGEX) {
            // Latin-1 maps each byte to one char: the match's char offsets are byte offsets.
            Matcher m = pattern.matcher(new String(b, 0, len, StandardCharsets.ISO_8859_1));
            return m.find() ? new Hit(f, m.start(), Math.max(1, m.end() - m.start()), null) : null;
        }
        byte[] p = needle;
        boolean fold = how == How.STRING && !caseSensitive;
        outer:
        for (int i = 0; i + p.length <= len; i++) {
            for (int j = 0; j < p.length; j++) {
                byte x = b[i + j], y = p[j];
                if (x != y && !(fold && lower(x) == lower(y))) continue outer;
            }
            return new Hit(f, i, p.length, null);
        }
        return null;
    }

    private static int lower(byte b) { return b >= 'A' && b <= 'Z' ? b + 32 : b; }
}
