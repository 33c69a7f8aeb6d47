package io.metaroce.gui.stats;

import io.metaroce.analysis.FlowControl;
import io.metaroce.analysis.FlowKey;
import io.metaroce.analysis.FrameFacts;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.protocol.Eth;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Which flows a PAUSE/PFC sender stops. A PAUSE or PFC frame from MAC M on class c asks the port at the other end of
 * M's link to hold the frames it sends to M on class c: in a capture those are the frames with Ethernet destination M
 * and VLAN priority c (a PAUSE: every class). So the flows a pause row stops are the RoCE flows (the analysis' QP
 * directions) of the frames sent to its source on its class. Untagged frames carry no class (the port's default or a
 * DSCP mapping decides it, which a capture does not show): their flows are listed under every class, marked so.
 *
 * <p>Built by one pass over the capture's frame index off the UI thread, and only when the capture has PAUSE/PFC
 * frames: six bytes read per Ethernet frame, a dissection only for the frames sent to a pause's source. What it keeps
 * grows with the flows seen, not with frames.
 */
public final class PauseTargets {
    /** A flow sent to a pause's source: its id, its VLAN priority (-1 untagged), and how many of its frames went there. */
    public record Target(String flow, int pcp, long frames) {}

    /** Per destination MAC: the flows sent to it, by flow key and priority. */
    private final Map<Long, Map<FlowKey, long[]>> byMac;

    private PauseTargets(Map<Long, Map<FlowKey, long[]>> byMac) { this.byMac = byMac; }

    private static final int LINKTYPE_ETHERNET = 1;

    /**
     * The flows sent to each of the MACs senders (the pause sources; empty: nothing to find) in the capture index
     * describes; rocePorts: the UDP ports dissected as RoCEv2. Stops early with what it has when cancel says so.
     */
    public static PauseTargets of(FrameIndex index, java.util.Set<Integer> rocePorts, long[] senders, BooleanSupplier cancel) {
        Map<Long, Map<FlowKey, long[]>> byMac = new HashMap<>();
        if (senders.length == 0) return new PauseTargets(byMac);
        Dissector dissector = new Dissector(new DissectorConfig(rocePorts, false));
        Dissection d = new Dissection();
        FrameFacts facts = new FrameFacts();
        FlowKey key = new FlowKey();
        for (int f = 1; f <= index.size(); f++) {
            if ((f & 0xFFFF) == 0 && cancel != null && cancel.getAsBoolean()) break;
            if (index.linkType(f) != LINKTYPE_ETHERNET || index.capturedLength(f) < Eth.SIZE) continue;
            MemorySegment data = index.data(f);
            long dst = Eth.dst(data, 0);
            if (!contains(senders, dst)) continue;
            index.dissect(f, dissector, d);
            facts.from(d);
            if (!facts.roce) continue;
            key.set(facts.v6, facts.srcHi, facts.srcLo, facts.dstHi, facts.dstLo, facts.destQp);
            Map<FlowKey, long[]> flows = byMac.computeIfAbsent(dst, m -> new LinkedHashMap<>());
            long[] c = flows.get(key);
            // Per flow: its priority (the first frame's; -1 untagged) and its frames sent to the MAC.
            if (c == null) flows.put(key.copy(), c = new long[] {facts.pcp, 0});
            c[1]++;
        }
        return new PauseTargets(byMac);
    }

    /** The pause sources of analyze's {@code flow_control} rows (their "source" MACs), for {@link #of}. */
    @SuppressWarnings("unchecked")
    public static long[] senders(Map<String, Object> flowControl) {
        if (flowControl == null) return new long[0];
        List<Long> l = new ArrayList<>();
        for (Map<String, Object> row : (List<Map<String, Object>>) flowControl.get("classes")) {
            long m = mac(row.get("source"));
            if (m >= 0 && !l.contains(m)) l.add(m);
        }
        long[] a = new long[l.size()];
        for (int i = 0; i < a.length; i++) a[i] = l.get(i);
        return a;
    }

    /** The flows a pause from MAC source on class cls ({@link FlowControl#LINK}: a PAUSE, every class) stops. */
    public List<Target> stoppedBy(long source, int cls) {
        List<Target> l = new ArrayList<>();
        Map<FlowKey, long[]> flows = byMac.get(source);
        if (flows == null) return l;
        for (Map.Entry<FlowKey, long[]> e : flows.entrySet()) {
            int pcp = (int) e.getValue()[0];
            if (cls == FlowControl.LINK || pcp < 0 || pcp == cls) l.add(new Target(e.getKey().id(), pcp, e.getValue()[1]));
        }
        return l;
    }

    /** The flows a {@code flow_control} row's pauses stop (its "source" and "class": a number or "link"). */
    public List<Target> stoppedBy(Map<String, Object> row) {
        long m = mac(row.get("source"));
        Object c = row.get("class");
        return m < 0 ? List.of() : stoppedBy(m, c instanceof Number n ? n.intValue() : FlowControl.LINK);
    }

    /** The flows in one line: "10.0.0.2>10.0.0.1/0x000017 (35 frames), ...", "none" for none. */
    public static String text(List<Target> targets) {
        if (targets.isEmpty()) return "none";
        StringBuilder b = new StringBuilder();
        for (Target t : targets) {
            if (!b.isEmpty()) b.append(", ");
            b.append(t.flow()).append(String.format(Locale.ROOT, " (%,d frames%s)", t.frames(), t.pcp() < 0 ? ", untagged" : ""));
        }
        return b.toString();
    }

    /** A MAC written aa:bb:cc:dd:ee:ff as a number, -1 when it is none. */
    static long mac(Object text) {
        if (!(text instanceof String s) || s.length() != 17) return -1;
        long m = 0;
        for (int i = 0; i < 6; i++) {
            int hi = Character.digit(s.charAt(3 * i), 16), lo = Character.digit(s.charAt(3 * i + 1), 16);
            if (hi < 0 || lo < 0 || (i < 5 && s.charAt(3 * i + 2) != ':')) return -1;
            m = (m << 8) | (hi << 4) | lo;
        }
        return m;
    }

    private static boolean contains(long[] a, long v) {
        for (long x : a) if (x == v) return true;
        return false;
    }
}
