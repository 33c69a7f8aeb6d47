package io.metaroce.samples;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The simulation parameters: a fixed, documented key set ({@link #KEYS}) with global defaults, which a
 * scenario overrides with its own defaults and the user overrides last ({@code --param key=value} or the
 * dedicated command options). Every effective value is written into the truth file, so a capture can be
 * reproduced from its truth alone.
 */
public final class Params {

    /** One parameter: its global default and what it means. */
    public record Key(String name, String defaultValue, String doc) {}

    /**
     * Parameters added after the committed samples were made: a truth file lists them only when they differ from their
     * default, so that the other samples' truth files stay byte-identical.
     */
    static final java.util.Set<String> LISTED_WHEN_SET = java.util.Set.of("step-period-us", "straggler-delay-us", "recovery");

    /** All parameters, in documentation order. */
    public static final Map<String, Key> KEYS;

    /** The largest time a "-ns" parameter takes, and (in microseconds) a "-us" one: 10^15 ns, 11.6 days. */
    static final long MAX_NS = 1_000_000_000_000_000L;

    /** The allowed range {min, max} of each integer parameter. */
    private static final Map<String, long[]> RANGES;

    static {
        Map<String, Key> k = new LinkedHashMap<>();
        add(k, "seed", "1", "random seed; the same seed and parameters give the same bytes");
        add(k, "frames", "0", "stop once the capture holds this many frames (0: the scenario's own length); "
                + "work is generated without end until then");
        add(k, "duration-us", "2000", "simulated time limit in microseconds (ignored when frames > 0)");
        add(k, "tap", "sender", "capture point: sender (host tap on the first requester), receiver (host tap on "
                + "the first responder), mirror (switch mirror between the fabric and the receiver's leaf) or port "
                + "(mirror of the first responder's switch port: what the leaf sends it, what it sends, and its PFC frames)");
        add(k, "mirror-paths", "all", "mirror tap only: fabric paths mirrored, 'all' or a comma list");
        add(k, "format", "auto", "capture format: pcap (nanosecond), pcapng, or auto (from the file name)");
        add(k, "hosts", "2", "number of hosts");
        add(k, "qps", "1", "RC QP pairs per connected host pair");
        add(k, "transport", "rocev2", "rocev2 (tver 0, go-back-N) or metaroce (tver 1, selective repeat)");
        add(k, "pmtu", "1024", "path MTU in bytes: 256, 512, 1024, 2048 or 4096");
        add(k, "paths", "4", "fabric paths (ECMP next hops); MetaRoCE QPs spray over this many paths");
        add(k, "spray", "true", "MetaRoCE: spray over all paths (false: path 0 only)");
        add(k, "credit", "false", "MetaRoCE: receiver-driven credit mode (MR-CREDIT)");
        add(k, "credit-window", "16", "MetaRoCE credit mode: packets granted ahead of the receiver's cum_psn");
        add(k, "cm", "true", "connection setup with CM REQ/REP/RTU on QP 1 before traffic");
        add(k, "ipv6", "false", "hosts use IPv6 addresses (fd00::N) instead of IPv4 (10.0.0.N)");
        add(k, "vlan", "-1", "802.1Q VLAN id on every frame (-1: untagged)");
        add(k, "dscp", "26", "IP DSCP of RoCE traffic (CNPs use 48)");
        add(k, "line-rate-gbps", "100", "host NIC and fabric link rate");
        add(k, "delay-ns", "2000", "one-way propagation delay of a fabric path (path k adds k * delay-step-ns)");
        add(k, "delay-step-ns", "150", "extra delay per path index");
        add(k, "jitter-ns", "200", "uniform random extra delay per packet (paths stay FIFO)");
        add(k, "loss", "0", "random loss probability per packet on the lossy path(s)");
        add(k, "lossy-path", "-1", "fabric path the loss applies to (-1: every path)");
        add(k, "path-down", "-1", "fabric path that fails (drops everything) from path-down-at-us on");
        add(k, "path-down-at-us", "0", "time the failing path goes down");
        add(k, "slow-path", "-1", "fabric path with extra delay slow-path-extra-ns (MetaRoCE early timers)");
        add(k, "slow-path-extra-ns", "0", "extra one-way delay of the slow path");
        add(k, "ecn-threshold-bytes", "65536", "switch egress queue depth above which ECT packets are marked CE");
        add(k, "buffer-bytes", "4194304", "switch egress buffer; packets beyond it are tail-dropped");
        add(k, "bottleneck-gbps", "0", "receiver downlink rate when lower than the line rate (0: line rate)");
        add(k, "cnp-interval-us", "50", "minimum gap between CNPs per QP (MR-CNPs per QP and path)");
        add(k, "dcqcn", "true", "senders react to CNPs / MR-CNPs with a DCQCN-like rate cut and recovery; off:N[,N...]: "
                + "all but the requesters of those RC QP pairs (in creation order), whose reaction point is off");
        add(k, "cnp", "true", "receivers answer CE marks with CNPs (the notification point); false: none does; "
                + "off:N[,N...]: all but the responders of those RC QP pairs (in creation order)");
        add(k, "pfc-host", "-1", "host (index from 0) whose NIC pauses its switch port with 802.1Qbb PFC frames for "
                + "pfc-priority from pfc-at-us on: the leaf holds that priority's frames to it and pauses the other "
                + "hosts' NICs on it (-1: no PFC)");
        add(k, "pfc-priority", "3", "the priority class pfc-host pauses");
        add(k, "pfc-at-us", "0", "time pfc-host sends its first XOFF");
        add(k, "pfc-run-us", "0", "length of each pause, ended by an XON (0: without end, a PFC storm)");
        add(k, "pfc-every-us", "0", "a new pause starts this often (0: one pause only)");
        add(k, "pfc-refresh-us", "50", "a pause longer than this is refreshed by an XOFF this often (65535 quanta "
                + "last 83.9 us at 400 Gb/s, so a run stays unbroken at any speed up to it)");
        add(k, "alt-pcp", "-1", "VLAN priority (PCP) of the RC QP pairs from alt-pcp-from on instead of 3 (-1: none)");
        add(k, "alt-pcp-from", "0", "first RC QP pair (in creation order) on alt-pcp");
        add(k, "rto-us", "130", "retransmission timeout (RoCEv2: local ACK timeout 4.096 us * 2^5)");
        add(k, "reorder-timeout-us", "8", "MetaRoCE receiver: a gap older than this is reported by MR-NACK");
        add(k, "probe-interval-us", "0", "MetaRoCE: MR-PROBE on every path at this interval (0: off)");
        add(k, "ack-every", "8", "requesters set ack_req (RoCEv2) / sack_req (MetaRoCE) every N packets and on "
                + "the last packet of a message");
        add(k, "window", "256", "maximum unacknowledged PSNs per QP");
        add(k, "workload", "write", "write | send | mixed | read-atomic | ring-allreduce | incast | alltoall");
        add(k, "messages", "8", "messages per QP (finite runs)");
        add(k, "message-gap-us", "0", "a requester starts a new message at most this often (0: back to back)");
        add(k, "message-size", "fixed:8192", "message size distribution: fixed:N, uniform:MIN:MAX or "
                + "lognormal:MEDIAN:SIGMA (bytes)");
        add(k, "ud", "false", "add a UD QP pair that sends datagrams alongside the RC traffic");
        add(k, "ud-count", "6", "ud=true: datagrams the UD QP sends (finite runs)");
        add(k, "ud-interval-us", "15", "ud=true: time between two datagrams (finite runs)");
        add(k, "rnr-buffers", "-1", "receive buffers a responder starts with for SENDs (-1: unlimited)");
        add(k, "rnr-refill-us", "20", "time for a responder to post one more receive buffer");
        add(k, "rnr-timer", "3", "RNR timer code the responder sends (3 = 0.03 ms)");
        add(k, "recovery", "go-back-n", "RoCEv2 requesters' answer to a NAK sequence error naming PSN p: go-back-n "
                + "(resend from p, IBTA), message-start (resend from the first packet of p's message: the go-back-0 "
                + "livelock), skip:N (resend from p + N: a NIC that skips the hole; its timer fills it) or ignore-nak (no "
                + "resend at the NAK: the timer, rto-us after the last progress, resends from the oldest unacknowledged PSN)");
        add(k, "retry-count", "-1", "RoCEv2: timeouts in a row without progress after which a requester QP gives up "
                + "and goes to the error state (-1: never; real NICs: retry_cnt, 7 by default)");
        add(k, "fail-qp", "-1", "RC QP pair (in creation order, from 0) whose packets the fabric drops from "
                + "fail-at-us on, both ways (a black-holed 5-tuple)");
        add(k, "fail-at-us", "0", "time fail-qp starts being dropped");
        add(k, "host-down", "-1", "host (index from 0) whose link goes down at host-down-at-us: the fabric drops "
                + "everything from and to it (a tap on that host still sees what it sends)");
        add(k, "host-down-at-us", "0", "time host-down's link goes down");
        add(k, "odd-dscp-qp", "-1", "RC QP pair (in creation order) whose requester marks its packets with odd-dscp "
                + "instead of the host's DSCP");
        add(k, "odd-dscp", "0", "the DSCP of odd-dscp-qp's requester");
        add(k, "link-mtu", "0", "IP MTU of the fabric links: packets with a longer IP packet are dropped (0: none; "
                + "a path MTU above it black-holes full-size packets)");
        add(k, "big-message-at", "-1", "message number (from 0, per QP) that is two path MTUs long whatever "
                + "message-size says (-1: none)");
        add(k, "single-sport", "false", "RoCEv2: every QP uses the same UDP source port (no ECMP entropy)");
        add(k, "peer-pmtu", "0", "path MTU of the QPs on hosts other than host 0 (0: pmtu)");
        add(k, "step-period-us", "100", "rocev2-straggler: time between two training steps (each requester's writes)");
        add(k, "straggler-delay-us", "4", "rocev2-straggler: how late the straggling peer starts its writes of each step");
        add(k, "snaplen", "0", "capture snap length in bytes (0: whole frames)");
        add(k, "capture-drop", "0", "probability that the capture misses a packet that crossed the tap");
        add(k, "capture-drop-burst", "1", "capture drops come in bursts of this many packets");
        add(k, "sample", "1", "keep 1 packet in N at the tap (sampling)");
        KEYS = Collections.unmodifiableMap(k);
        // The integer parameters' ranges. Outside them a value was taken as given and the run went on with
        // nonsense (vlan=5000 wrote a VLAN id that does not fit its 12 bits, dscp=999 one beyond 6 bits,
        // ack-every=0 and credit-window=0 were raised to 1 and 2 without a word) or ended in Java's "For input
        // string" (a value past an int). -1 is "none" where the key documents it.
        Map<String, long[]> r = new LinkedHashMap<>();
        long i = Integer.MAX_VALUE;
        range(r, "frames", 0, Long.MAX_VALUE);
        range(r, "hosts", 2, 4096);
        // QP pairs per host pair: each QP keeps rings of RING (65,536) PSNs, about 2.5 MiB a pair, so the heap
        // bounds their number long before this (Simulator.validate says so before anything is allocated); this
        // only keeps the count an int.
        range(r, "qps", 1, 65536);
        range(r, "paths", 1, 1024);
        // At most the send ring (RcQp.RING): a window beyond it would overwrite PSNs still in flight.
        range(r, "credit-window", 2, 65536);
        range(r, "window", 1, 65536);
        range(r, "vlan", -1, 4094);   // 12 bits; 4095 is reserved (802.1Q)
        range(r, "dscp", 0, 63);      // 6 bits
        range(r, "odd-dscp", 0, 63);
        // Nanosecond times: at most 10^15 ns (11.6 days), so that sums of times (a path's delay plus its index
        // times the step, added to the clock) stay far inside the 64-bit nanosecond clock.
        for (String t : new String[] {"delay-ns", "delay-step-ns", "jitter-ns", "slow-path-extra-ns"}) {
            range(r, t, 0, MAX_NS);
        }
        for (String t : new String[] {"lossy-path", "path-down", "slow-path"}) range(r, t, -1, 1023);
        range(r, "ecn-threshold-bytes", 0, Long.MAX_VALUE);
        range(r, "buffer-bytes", 0, Long.MAX_VALUE);
        range(r, "ack-every", 1, i);
        range(r, "messages", 0, i);
        range(r, "ud-count", 0, i);
        range(r, "rnr-buffers", -1, i);
        range(r, "rnr-timer", 0, 31);   // the 5-bit RNR timer code of the AETH
        range(r, "retry-count", -1, i);
        range(r, "fail-qp", -1, i);
        range(r, "host-down", -1, 4095);
        range(r, "pfc-host", -1, 4095);
        range(r, "pfc-priority", 0, 7);   // the eight classes of the PFC enable vector
        range(r, "alt-pcp", -1, 7);       // 3 bits
        range(r, "alt-pcp-from", 0, i);
        range(r, "odd-dscp-qp", -1, i);
        range(r, "link-mtu", 0, 65535);   // an IP packet's length field
        range(r, "big-message-at", -1, i);
        range(r, "snaplen", 0, i);
        range(r, "capture-drop-burst", 1, i);
        range(r, "sample", 1, i);
        RANGES = Collections.unmodifiableMap(r);
    }

    private static void range(Map<String, long[]> m, String name, long min, long max) {
        if (!KEYS.containsKey(name)) throw new IllegalStateException(name);
        m.put(name, new long[] {min, max});
    }

    private static void add(Map<String, Key> m, String name, String def, String doc) {
        m.put(name, new Key(name, def, doc));
    }

    private final Map<String, String> values = new LinkedHashMap<>();

    public Params() {
        for (Key k : KEYS.values()) values.put(k.name(), k.defaultValue());
    }

    /** Sets a parameter; unknown names and unparsable values are rejected at once. */
    public Params set(String key, String value) {
        Key k = KEYS.get(key);
        if (k == null) throw new IllegalArgumentException("unknown parameter '" + key + "' (known: " + KEYS.keySet() + ")");
        String v = value.trim();
        String def = k.defaultValue();
        try {
            if (def.equals("true") || def.equals("false")) {
                // dcqcn and cnp also take off:N[,N...] (per-sender reaction points, per-receiver notification points).
                boolean perQp = (key.equals("dcqcn") || key.equals("cnp")) && v.matches("off:\\d{1,9}(,\\d{1,9})*");
                if (!v.equals("true") && !v.equals("false") && !perQp) throw new IllegalArgumentException("true or false");
            } else if (key.equals("recovery")) {
                if (!v.matches("go-back-n|message-start|ignore-nak|skip:([1-9]\\d{0,3})")) {
                    throw new IllegalArgumentException("go-back-n, message-start, skip:N or ignore-nak");
                }
            } else if (isDecimal(k)) {
                // NaN and Infinity parse, but no parameter means them: loss=NaN passed the 0..1 check (every
                // comparison with NaN is false) and rto-us=NaN became a timeout of 0 ns, a run that never ended.
                if (!Double.isFinite(Double.parseDouble(v))) throw new IllegalArgumentException("not finite");
            } else if (def.matches("-?\\d+")) {
                Long.parseLong(v);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("parameter " + key + ": '" + value + "' is not a valid value (default "
                    + def + ")");
        }
        long[] range = RANGES.get(key);
        if (range != null) {
            long n = Long.parseLong(v);
            if (n < range[0] || n > range[1]) {
                String allowed = range[1] == Integer.MAX_VALUE || range[1] == Long.MAX_VALUE ? "at least " + range[0] : range[0] + ".." + range[1];
                throw new IllegalArgumentException("parameter " + key + " must be " + allowed + ", not " + v);
            }
        }
        boolean time = key.endsWith("-us"), rate = key.endsWith("-gbps");
        if ((time || rate) && Double.parseDouble(v) > (time ? MAX_NS / 1000 : 1e6)) {
            // A time beyond 10^12 us (11.6 days) overflows the nanosecond clock once added to it; a rate beyond
            // 10^6 Gb/s is no network. (A probability beyond 1 is refused by Simulator.validate.)
            throw new IllegalArgumentException("parameter " + key + " must be at most "
                    + (time ? "1000000000000 (11.6 days)" : "1000000") + ", not " + v);
        }
        values.put(key, v);
        return this;
    }

    /** Parameters taking a decimal number (the others with numeric defaults take integers). */
    private static boolean isDecimal(Key k) {
        return k.name().endsWith("-us") || k.name().endsWith("-gbps") || k.name().equals("loss")
                || k.name().equals("capture-drop");
    }

    /** Sets "key=value". */
    public Params set(String assignment) {
        int eq = assignment.indexOf('=');
        if (eq <= 0) throw new IllegalArgumentException("expected key=value, got '" + assignment + "'");
        return set(assignment.substring(0, eq).trim(), assignment.substring(eq + 1));
    }

    public String str(String key) {
        String v = values.get(key);
        if (v == null) throw new IllegalArgumentException("unknown parameter " + key);
        return v;
    }

    public int i(String key) { return Integer.parseInt(str(key)); }

    public long l(String key) { return Long.parseLong(str(key)); }

    public double d(String key) { return Double.parseDouble(str(key)); }

    public boolean b(String key) { return Boolean.parseBoolean(str(key)); }

    /** Nanoseconds from a "-us" parameter. */
    public long us(String key) { return Math.round(d(key) * 1000.0); }

    /** Every effective value, in documentation order. */
    public Map<String, String> asMap() { return Collections.unmodifiableMap(values); }

    public Params copy() {
        Params p = new Params();
        p.values.putAll(values);
        return p;
    }

    @Override
    public String toString() { return values.toString().toLowerCase(Locale.ROOT); }
}
