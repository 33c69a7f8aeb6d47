package io.metaroce.analysis;

import io.metaroce.dissector.Addresses;
import io.metaroce.protocol.Spec;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * The settings of spec §13 as the analysis uses them. Times are in nanoseconds.
 *
 * @param rocePorts       UDP destination ports decoded as RoCEv2 / MetaRoCE
 * @param tap             where the capture was taken (§11): auto, host:IP or mirror
 * @param cnpIntervalNs   minimum CNP spacing of the notification point (default 50 us)
 * @param ceWindowNs      CE reaction window: a CE mark must be followed by a CNP within it (default 100 us)
 * @param slackNs         processing slack of a host reacting to a packet it received (default 5 us)
 * @param minRttNs        minimum RTT used before one is learned (default 2 us)
 * @param cnpPacing       which key the notification point paces CNPs by
 * @param pmtuOverrides   PMTU per flow id or per dest_qp ("0x000201"); used when CM did not say
 * @param pathCountOverrides path_count per flow id or dest_qp
 * @param checkIcrc       verify the ICRC while decoding, and leave frames with a bad ICRC unjudged (§11 d). Off by
 *                        default: at a sender tap the ICRC is usually offloaded (§13), and checking costs about
 *                        half of the decode time
 * @param idleExpiryNs    per-flow sequence state is released after this much capture time without traffic
 * @param duplicateWindowNs exact copies closer than this are capture duplicates (§11 f, 1 ms)
 * @param maxFlows        QP flows kept at most; beyond, the least recently active are evicted: their totals stay
 *                        in the capture summary (and its flow count), their rows and state go (a capture of
 *                        millions of QPs, e.g. a scan or a flood, must not exhaust memory)
 * @param linkSpeedGbps   speed of the tapped link in Gb/s for the PAUSE/PFC report ({@link #quantumNs()}); 0 = unknown
 */
public record AnalysisSettings(Set<Integer> rocePorts, Tap tap, long cnpIntervalNs, long ceWindowNs, long slackNs,
                               long minRttNs, CnpPacing cnpPacing, Map<String, Integer> pmtuOverrides,
                               Map<String, Integer> pathCountOverrides, boolean checkIcrc, long idleExpiryNs,
                               long duplicateWindowNs, int maxFlows, double linkSpeedGbps) {
    /**
     * Flows kept by default: 2^16 with their full state is about 500 MB in the worst case (each with a fresh
     * 64-PSN window), so a capture of a million distinct QPs still runs in a 1 GB heap.
     */
    public static final int DEFAULT_MAX_FLOWS = 1 << 16;

    public static final AnalysisSettings DEFAULT = new AnalysisSettings(Set.of(Spec.ROCE_UDP_PORT), Tap.AUTO, 50_000,
            100_000, 5_000, 2_000, CnpPacing.QP, Map.of(), Map.of(), false, 10_000_000_000L, 1_000_000, DEFAULT_MAX_FLOWS);

    public AnalysisSettings {
        rocePorts = Set.copyOf(rocePorts);
        pmtuOverrides = Map.copyOf(pmtuOverrides);
        pathCountOverrides = Map.copyOf(pathCountOverrides);
        if (tap == null) tap = Tap.AUTO;
        if (cnpPacing == null) cnpPacing = CnpPacing.QP;
        if (maxFlows < 2) throw new IllegalArgumentException("max flows must be >= 2, not " + maxFlows);
        if (!(linkSpeedGbps >= 0) || Double.isInfinite(linkSpeedGbps))
            throw new IllegalArgumentException("link speed must be a positive number of Gb/s, not " + linkSpeedGbps);
    }

    /** Settings with a flow bound and no link speed (PAUSE/PFC quanta stay quanta). */
    public AnalysisSettings(Set<Integer> rocePorts, Tap tap, long cnpIntervalNs, long ceWindowNs, long slackNs,
                            long minRttNs, CnpPacing cnpPacing, Map<String, Integer> pmtuOverrides,
                            Map<String, Integer> pathCountOverrides, boolean checkIcrc, long idleExpiryNs,
                            long duplicateWindowNs, int maxFlows) {
        this(rocePorts, tap, cnpIntervalNs, ceWindowNs, slackNs, minRttNs, cnpPacing, pmtuOverrides, pathCountOverrides,
                checkIcrc, idleExpiryNs, duplicateWindowNs, maxFlows, 0);
    }

    /** Settings with the default flow bound ({@link #DEFAULT_MAX_FLOWS}). */
    public AnalysisSettings(Set<Integer> rocePorts, Tap tap, long cnpIntervalNs, long ceWindowNs, long slackNs,
                            long minRttNs, CnpPacing cnpPacing, Map<String, Integer> pmtuOverrides,
                            Map<String, Integer> pathCountOverrides, boolean checkIcrc, long idleExpiryNs,
                            long duplicateWindowNs) {
        this(rocePorts, tap, cnpIntervalNs, ceWindowNs, slackNs, minRttNs, cnpPacing, pmtuOverrides, pathCountOverrides,
                checkIcrc, idleExpiryNs, duplicateWindowNs, DEFAULT_MAX_FLOWS);
    }

    public AnalysisSettings withTap(Tap t) {
        return new AnalysisSettings(rocePorts, t, cnpIntervalNs, ceWindowNs, slackNs, minRttNs, cnpPacing, pmtuOverrides,
                pathCountOverrides, checkIcrc, idleExpiryNs, duplicateWindowNs, maxFlows, linkSpeedGbps);
    }

    public AnalysisSettings withPorts(Set<Integer> ports) {
        return new AnalysisSettings(ports, tap, cnpIntervalNs, ceWindowNs, slackNs, minRttNs, cnpPacing, pmtuOverrides,
                pathCountOverrides, checkIcrc, idleExpiryNs, duplicateWindowNs, maxFlows, linkSpeedGbps);
    }

    public AnalysisSettings withCnp(long intervalNs, CnpPacing pacing) {
        return new AnalysisSettings(rocePorts, tap, intervalNs, ceWindowNs, slackNs, minRttNs, pacing, pmtuOverrides,
                pathCountOverrides, checkIcrc, idleExpiryNs, duplicateWindowNs, maxFlows, linkSpeedGbps);
    }

    public AnalysisSettings withTimes(long ceWindow, long slack, long minRtt) {
        return new AnalysisSettings(rocePorts, tap, cnpIntervalNs, ceWindow, slack, minRtt, cnpPacing, pmtuOverrides,
                pathCountOverrides, checkIcrc, idleExpiryNs, duplicateWindowNs, maxFlows, linkSpeedGbps);
    }

    public AnalysisSettings withOverrides(Map<String, Integer> pmtu, Map<String, Integer> pathCount) {
        return new AnalysisSettings(rocePorts, tap, cnpIntervalNs, ceWindowNs, slackNs, minRttNs, cnpPacing, pmtu,
                pathCount, checkIcrc, idleExpiryNs, duplicateWindowNs, maxFlows, linkSpeedGbps);
    }

    public AnalysisSettings withCheckIcrc(boolean check) {
        return new AnalysisSettings(rocePorts, tap, cnpIntervalNs, ceWindowNs, slackNs, minRttNs, cnpPacing, pmtuOverrides,
                pathCountOverrides, check, idleExpiryNs, duplicateWindowNs, maxFlows, linkSpeedGbps);
    }

    public AnalysisSettings withIdleExpiry(long ns) {
        return new AnalysisSettings(rocePorts, tap, cnpIntervalNs, ceWindowNs, slackNs, minRttNs, cnpPacing, pmtuOverrides,
                pathCountOverrides, checkIcrc, ns, duplicateWindowNs, maxFlows, linkSpeedGbps);
    }

    /**
     * The link speed of the tapped port in Gb/s (0 = unknown): a PAUSE/PFC quantum is 512 bit times, so with it the
     * flow-control report turns quanta into time and ends a pause that was not refreshed when it expired.
     */
    public AnalysisSettings withLinkSpeed(double gbps) {
        return new AnalysisSettings(rocePorts, tap, cnpIntervalNs, ceWindowNs, slackNs, minRttNs, cnpPacing, pmtuOverrides,
                pathCountOverrides, checkIcrc, idleExpiryNs, duplicateWindowNs, maxFlows, gbps);
    }

    /**
     * The congestion loop's rate window (CE -> CNP -> rate cut): the flow's data bytes in this window before a CNP
     * against the same window after it. One CNP interval: the notification point sends at most one CNP per interval, so
     * the window after one CNP holds its reaction and not yet the next CNP's, and the window before holds the rate the
     * previous CNP left (DCQCN's rate timer, 55 us, is of the same order). 50 us by default, as the interval.
     */
    public long ccRateWindowNs() { return cnpIntervalNs > 0 ? cnpIntervalNs : 50_000; }

    /**
     * A median cut of 10 % (1,000 basis points) or more over the measured CNPs is a rate drop. DCQCN cuts the rate by
     * alpha/2 per CNP (alpha near 1 under steady marking: a half; the simulator's first cut is a half too); a few
     * percent is within the noise of a window holding a few dozen packets (one packet of 25 is 4 %).
     */
    public long ccMinCutBasisPoints() { return CC_MIN_CUT_BASIS_POINTS; }

    public static final long CC_MIN_CUT_BASIS_POINTS = 1_000;

    /**
     * CNPs measured at least before a sender whose rate does not drop is called {@code cnp-ignored}: one CNP may fall
     * where the application had nothing more to send.
     */
    public static final int CC_MIN_MEASURED_CNPS = 3;

    /**
     * CNPs due at least (CE marks in that many CNP intervals) before a QP whose receiver sent none is called
     * {@code no-cnp}: a single mark left unanswered is MR-CC-002's finding, not proof the notification point is off.
     */
    public static final int CC_MIN_DUE_CNPS = 2;

    /** Nanoseconds of one PAUSE/PFC quantum (512 bit times) at the link speed, or 0 when it is unknown. */
    public double quantumNs() {
        return linkSpeedGbps > 0 ? 512 / linkSpeedGbps : 0;
    }

    public AnalysisSettings withMaxFlows(int n) {
        return new AnalysisSettings(rocePorts, tap, cnpIntervalNs, ceWindowNs, slackNs, minRttNs, cnpPacing, pmtuOverrides,
                pathCountOverrides, checkIcrc, idleExpiryNs, duplicateWindowNs, n, linkSpeedGbps);
    }

    /**
     * Per-QP overrides from the command line: {@code BYTES} for every flow, or {@code FLOW=BYTES} /
     * {@code 0xQPN=BYTES} (the flow id or the dest_qp as 0x + 6 hex digits). Returns key to value; the key "*"
     * applies to all.
     */
    public static Map<String, Integer> parseOverrides(java.util.List<String> specs, String what) {
        Map<String, Integer> m = new java.util.LinkedHashMap<>();
        if (specs == null) return m;
        for (String spec : specs) {
            String sp = spec.trim();
            if (sp.isEmpty()) continue;
            int eq = sp.lastIndexOf('=');
            String key = eq < 0 ? "*" : sp.substring(0, eq).trim();
            String val = eq < 0 ? sp : sp.substring(eq + 1).trim();
            int v;
            try {
                v = Integer.parseInt(val);
                // A QPN that is not hex was "For input string: ..." alone; an empty key (=1024) matched no flow.
                if (key.startsWith("0x") || key.startsWith("0X")) key = String.format("0x%06x", Integer.parseInt(key.substring(2), 16));
                if (key.isEmpty()) throw new NumberFormatException();
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(what + " must be N, FLOW=N or 0xQPN=N, not '" + spec + "'");
            }
            m.put(key, v);
        }
        return m;
    }

    /** Microseconds (as typed on the command line) to nanoseconds. */
    public static long micros(double us) {
        if (us < 0 || Double.isNaN(us)) throw new IllegalArgumentException("time must be >= 0 us, not " + us);
        return Math.round(us * 1000);
    }

    /** How the notification point paces CNPs (§10): one per interval per QP, per IP pair or per destination IP. */
    public enum CnpPacing {
        QP, IP_PAIR, DEST_IP;

        public static CnpPacing parse(String s) {
            return switch (s.toLowerCase().replace('_', '-')) {
                case "qp", "per-qp" -> QP;
                case "ip-pair", "pair", "per-ip-pair" -> IP_PAIR;
                case "dest-ip", "dst-ip", "per-dest-ip", "destination-ip" -> DEST_IP;
                default -> throw new IllegalArgumentException("CNP pacing must be qp, ip-pair or dest-ip, not '" + s + "'");
            };
        }

        public String label() { return name().toLowerCase().replace('_', '-'); }
    }

    /** The tap setting of §11. host: the address is kept as 16 bytes (IPv4 mapped). */
    public record Tap(Kind kind, byte[] host) {
        public enum Kind { AUTO, HOST, MIRROR }

        public static final Tap AUTO = new Tap(Kind.AUTO, null);
        public static final Tap MIRROR = new Tap(Kind.MIRROR, null);

        public static Tap host(String ip) {
            byte[] a = Addresses.parse(ip);
            if (a == null) throw new IllegalArgumentException("not an IP address: '" + ip + "'");
            return new Tap(Kind.HOST, a);
        }

        /** auto | mirror | host:IP (IPv6 literals may be bracketed). */
        public static Tap parse(String s) {
            String t = s.trim();
            if (t.equalsIgnoreCase("auto")) return AUTO;
            if (t.equalsIgnoreCase("mirror")) return MIRROR;
            if (t.regionMatches(true, 0, "host:", 0, 5)) {
                String ip = t.substring(5);
                if (ip.startsWith("[") && ip.endsWith("]")) ip = ip.substring(1, ip.length() - 1);
                return host(ip);
            }
            throw new IllegalArgumentException("tap must be auto, mirror or host:IP, not '" + s + "'");
        }

        @Override
        public String toString() {
            return switch (kind) {
                case AUTO -> "auto";
                case MIRROR -> "mirror";
                case HOST -> "host:" + FlowKey.addressText(FlowKey.hi(host), FlowKey.lo(host));
            };
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Tap t && t.kind == kind && Arrays.equals(t.host, host);
        }

        @Override
        public int hashCode() { return kind.hashCode() * 31 + Arrays.hashCode(host); }
    }
}
