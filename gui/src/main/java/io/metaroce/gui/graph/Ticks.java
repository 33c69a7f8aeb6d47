package io.metaroce.gui.graph;

import java.util.ArrayList;
import java.util.List;

/** Axis ticks at "nice" values (1, 2 or 5 times a power of ten) and their labels. */
public final class Ticks {
    private Ticks() {}

    /** About {@code target} tick values covering [lo, hi]. */
    public static List<Double> of(double lo, double hi, int target) {
        List<Double> l = new ArrayList<>();
        double span = hi - lo;
        if (!(span > 0) || target < 1) return l;
        double step = step(span / target);
        for (double v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) l.add(Math.abs(v) < step * 1e-9 ? 0 : v);
        return l;
    }

    static double step(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / p;
        return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    }

    /** A time axis' unit for a visible span in nanoseconds: ns, µs, ms or s, and its size in ns. */
    public record TimeUnit(String label, double ns) {
        public String format(double valueNs) {
            double v = valueNs / ns;
            return Math.abs(v - Math.rint(v)) < 1e-9 ? String.format("%.0f", v) : trim(String.format("%.3f", v));
        }
    }

    public static TimeUnit timeUnit(double spanNs) {
        if (spanNs >= 5e9) return new TimeUnit("s", 1e9);
        if (spanNs >= 5e6) return new TimeUnit("ms", 1e6);
        if (spanNs >= 5e3) return new TimeUnit("µs", 1e3);
        return new TimeUnit("ns", 1);
    }

    /** A count or rate with k/M/G suffixes. */
    public static String number(double v) {
        double a = Math.abs(v);
        if (a >= 1e9) return trim(String.format("%.2f", v / 1e9)) + "G";
        if (a >= 1e6) return trim(String.format("%.2f", v / 1e6)) + "M";
        if (a >= 1e4) return trim(String.format("%.1f", v / 1e3)) + "k";
        return Math.abs(v - Math.rint(v)) < 1e-9 ? String.format("%.0f", v) : trim(String.format("%.2f", v));
    }

    private static String trim(String s) {
        if (!s.contains(".")) return s;
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
