package io.metaroce.validate;

import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rule catalogue of spec §11, as generated from spec-ksy/metaroce-v1.yaml into {@link Spec#RULES} (id,
 * severity, section, taps, text): nothing here re-types a rule. Adds selection by id patterns with wildcards
 * ({@code MR-CC-*}, {@code MR-?TX-00[12]}) for {@code --rules} / {@code --skip-rules}.
 */
public final class RuleCatalog {
    private static final Map<String, RuleDef> BY_ID = new LinkedHashMap<>();

    static {
        for (RuleDef r : Spec.RULES) BY_ID.put(r.id(), r);
    }

    private RuleCatalog() {}

    public static List<RuleDef> all() { return Spec.RULES; }

    /** The rule with this id (case-insensitive), or null. */
    public static RuleDef get(String id) { return id == null ? null : BY_ID.get(id.trim().toUpperCase(Locale.ROOT)); }

    /** True when the id names a diagnosis rule (MR-DIAG: {@link RuleDef#diagnosis()}, from the spec file's kind). */
    public static boolean isDiagnosis(String id) {
        RuleDef r = get(id);
        return r != null && r.diagnosis();
    }

    /** The rule group of an id: FRAME, HDR, SEQ, ACK, RTX, CC, PATH, CTL, UD. */
    public static String group(String id) {
        int a = id.indexOf('-'), b = id.lastIndexOf('-');
        return a >= 0 && b > a ? id.substring(a + 1, b) : id;
    }

    /**
     * The rules selected by include patterns (empty: all) minus exclude patterns. Patterns are ids with
     * {@code *} and {@code ?} wildcards, case-insensitive, comma-separated lists allowed.
     *
     * @throws IllegalArgumentException when a pattern matches no rule (a typo would silently validate nothing)
     */
    public static List<RuleDef> select(Collection<String> include, Collection<String> exclude) {
        List<Pattern> inc = patterns(include), exc = patterns(exclude);
        List<RuleDef> out = new ArrayList<>();
        for (RuleDef r : Spec.RULES) {
            boolean in = inc.isEmpty() || inc.stream().anyMatch(p -> p.matcher(r.id()).matches());
            boolean out2 = exc.stream().anyMatch(p -> p.matcher(r.id()).matches());
            if (in && !out2) out.add(r);
        }
        return out;
    }

    private static List<Pattern> patterns(Collection<String> specs) {
        List<Pattern> ps = new ArrayList<>();
        if (specs == null) return ps;
        for (String spec : specs) {
            for (String s : spec.split(",")) {
                String t = s.trim();
                if (t.isEmpty()) continue;
                Pattern p = glob(t);
                if (Spec.RULES.stream().noneMatch(r -> p.matcher(r.id()).matches())) {
                    throw new IllegalArgumentException("'" + t + "' matches no rule (rules: MR-FRAME-001 .. MR-UD-001, diagnoses MR-DIAG-*; "
                            + "wildcards: MR-CC-*)");
                }
                ps.add(p);
            }
        }
        return ps;
    }

    static Pattern glob(String g) {
        StringBuilder b = new StringBuilder();
        for (char c : g.toUpperCase(Locale.ROOT).toCharArray()) {
            if (c == '*') b.append(".*");
            else if (c == '?') b.append('.');
            else b.append(Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(b.toString());
    }

    /** Severity from a user word: error, warn(ing), note, or null for "off". */
    public static Severity parseSeverity(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "error" -> Severity.ERROR;
            case "warn", "warning" -> Severity.WARN;
            case "note", "info" -> Severity.NOTE;
            case "off", "none", "skip", "ignore" -> null;
            default -> throw new IllegalArgumentException("severity must be error, warn, note or off, not '" + s + "'");
        };
    }
}
