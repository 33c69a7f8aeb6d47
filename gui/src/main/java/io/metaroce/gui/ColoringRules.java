package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.FrameFields;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Wireshark's coloring rules: an ordered list of display filters, each with colours; a row takes the colours of
 * the first enabled rule its frame matches. The defaults mark what a RoCE engineer looks for first. The list is
 * saved in the user's config directory in Wireshark's {@code colorfilters} line format
 * ({@code @name@filter@[fg r,g,b][bg r,g,b]}, a leading {@code !} for a disabled rule, 16-bit channels).
 */
public final class ColoringRules {
    /** One rule; colours as "#rrggbb". */
    public record Rule(String name, String filter, String foreground, String background, boolean enabled) {
        public Rule {
            if (name.contains("@") || filter.contains("@")) throw new IllegalArgumentException("'@' is not allowed in a coloring rule");
        }
    }

    private final List<Rule> rules;
    private final DisplayFilter[] compiled;

    public ColoringRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
        this.compiled = new DisplayFilter[this.rules.size()];
        for (int i = 0; i < compiled.length; i++) {
            try {
                compiled[i] = GuiContext.compile(this.rules.get(i).filter());
            } catch (FilterException e) {
                compiled[i] = null;   // a rule that no longer compiles colours nothing; the dialog shows why
            }
        }
    }

    public static ColoringRules defaults() {
        return new ColoringRules(List.of(
                new Rule("Bad ICRC", "icrc.status == \"bad\"", "#ffffff", "#a40000", true),
                new Rule("Spurious retransmission", "analysis.spurious", "#ffffff", "#5c3566", true),
                new Rule("Retransmission", "analysis.retransmission", "#000000", "#f0a0a0", true),
                new Rule("NAK / NACK", "aeth.syndrome.kind == nak || aeth.syndrome.kind == rnr_nak || nacketh", "#ffffff", "#cc0000", true),
                new Rule("CNP / CE", "bth.opcode == cnp || bth.opcode == mr_cnp || ip.ecn == 3 || ipv6.tclass & 3 == 3", "#000000", "#fce94f", true),
                new Rule("Credit stall", "event == \"credit_stall\"", "#000000", "#fcaf3e", true),
                new Rule("Conformance finding", "expert.rule", "#000000", "#ad7fa8", true),
                new Rule("Path down", "event == \"path_down\"", "#ffffff", "#204a87", true),
                new Rule("MetaRoCE control", "mrth && (sacketh || probeeth || crediteth)", "#000000", "#e7f0fa", true),
                new Rule("CM", "cm_req || cm_rep || cm_rtu || cm_dreq || cm_drep || cm_rej", "#000000", "#d7f5c8", true)));
    }

    public List<Rule> rules() { return rules; }

    /** The compile error of rule i, or null when it compiles. */
    public String error(int i) {
        try {
            GuiContext.compile(rules.get(i).filter());
            return null;
        } catch (FilterException e) {
            return e.oneLine();
        }
    }

    /**
     * Index of the first enabled rule the decoded frame matches, -1 for none. The frame's fields as a
     * {@link FrameDecoder} gives them ({@code decode(frame)}, then {@code fields()}): the packet list's rows and the
     * Flow Graph's are coloured by this one path.
     */
    public int match(FrameFields ff, OpenCapture capture, int frame, AnalysisSession session) {
        GuiFields.Accessor acc = null;
        for (int i = 0; i < compiled.length; i++) {
            if (compiled[i] == null || !rules.get(i).enabled()) continue;
            if (acc == null) acc = new GuiFields.Accessor(session).of(ff);
            if (compiled[i].matches(acc)) return i;
        }
        return -1;
    }

    // ------------------------------------------------------------------ persistence

    /**
     * Where the rules are saved: $XDG_CONFIG_HOME/metaroce (or ~/.config/metaroce)/colorfilters. ~ is $HOME as for
     * Wireshark and GLib (Java's user.home is the password file's, which ignores HOME=/tmp/x wireshark).
     */
    public static Path defaultFile() {
        String xdg = System.getenv("XDG_CONFIG_HOME"), home = System.getenv("HOME");
        if (home == null || home.isBlank()) home = System.getProperty("user.home");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".config");
        return base.resolve("metaroce").resolve("colorfilters");
    }

    /** The saved rules, or the defaults when there is no (readable) file. */
    public static ColoringRules load(Path file) {
        try {
            if (!Files.isRegularFile(file)) return defaults();
            List<Rule> out = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                Rule r = parse(line);
                if (r != null) out.add(r);
            }
            return new ColoringRules(out);
        } catch (IOException | RuntimeException e) {
            return defaults();
        }
    }

    public void save(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder b = new StringBuilder("# MetaRoCE Analyzer coloring rules (Wireshark colorfilters format)\n");
        for (Rule r : rules) {
            b.append(r.enabled() ? "" : "!").append('@').append(r.name()).append('@').append(r.filter()).append("@[")
                    .append(channels(r.foreground())).append("][").append(channels(r.background())).append("]\n");
        }
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    }

    static Rule parse(String line) {
        String s = line.strip();
        if (s.isEmpty() || s.startsWith("#")) return null;
        boolean enabled = !s.startsWith("!");
        if (!enabled) s = s.substring(1);
        if (!s.startsWith("@")) return null;
        int a = s.indexOf('@', 1), b = s.indexOf('@', a + 1);
        if (a < 0 || b < 0) return null;
        String name = s.substring(1, a), filter = s.substring(a + 1, b), colours = s.substring(b + 1);
        int f1 = colours.indexOf('['), f2 = colours.indexOf(']'), b1 = colours.indexOf('[', f2), b2 = colours.indexOf(']', b1);
        if (f1 < 0 || f2 < 0 || b1 < 0 || b2 < 0) return null;
        return new Rule(name, filter, hex(colours.substring(f1 + 1, f2)), hex(colours.substring(b1 + 1, b2)), enabled);
    }

    /** "#rrggbb" to Wireshark's "r,g,b" with 16-bit channels. */
    private static String channels(String hex) {
        int v = Integer.parseInt(hex.substring(1), 16);
        return ((v >> 16 & 255) * 257) + "," + ((v >> 8 & 255) * 257) + "," + ((v & 255) * 257);
    }

    private static String hex(String channels) {
        String[] p = channels.split(",");
        int r = Integer.parseInt(p[0].trim()) / 257, g = Integer.parseInt(p[1].trim()) / 257, bl = Integer.parseInt(p[2].trim()) / 257;
        return String.format("#%02x%02x%02x", r, g, bl);
    }
}
