package io.metaroce.samples;

import io.metaroce.protocol.OpcodeDef;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The discrete-event core: simulated time in nanoseconds, a priority queue of events ordered by (time,
 * sequence number) so that equal times run in scheduling order, and one seeded random generator for the
 * network and the workload (the capture tap has its own, so tap settings never change what the network
 * does). No wall clock, no hash-order iteration: a run is a pure function of its parameters.
 */
final class Sim {
    /** Capture timestamps start at 2026-01-01T00:00:00Z. */
    static final long EPOCH_NS = 1_767_225_600L * 1_000_000_000L;

    /** A hook that sees every packet an endpoint hands to its NIC (planted violations). Returns true when done. */
    interface SendHook {
        boolean onSend(Pkt p);
    }

    final Params params;
    final SplittableRandom rng;
    final long seed;
    long now;
    private long seq;
    private final EventQueue queue = new EventQueue();
    final List<Host> hosts = new ArrayList<>();
    final List<Flow> flows = new ArrayList<>();
    final List<RcQp> rcQps = new ArrayList<>();
    final List<Connection> connections = new ArrayList<>();
    final List<Truth.Violation> violations = new ArrayList<>();
    final List<SendHook> sendHooks = new ArrayList<>();
    /** What each planted rule violation is (truth file description). */
    final java.util.Map<String, String> violationNotes = new java.util.TreeMap<>();
    final Fabric fabric;
    Tap tap;
    Truth truth;
    /** The PFC pauses of pfc-host, or null (no PFC: nothing is ever held). */
    Pfc pfc;
    final long endTime;
    final long frameTarget;
    boolean stopped;
    private int nextQpn = 0x11;
    long eventsRun;

    /** What the simulated faults did to a QP (truth file {@code diagnosis}): cause, when, and its figures. */
    record Failure(Flow flow, String cause, long at, java.util.Map<String, Object> details) {}

    final List<Failure> failures = new ArrayList<>();
    /** Flows of QPs whose host was readdressed under them: their answers go to the old address. */
    final java.util.Set<Flow> readdressed = new java.util.HashSet<>();
    /** When the configured fault starts (fail-qp or host-down), -1 without one. */
    long faultAt = -1;
    private int hostDown = -1;

    /**
     * Applies the fault parameters once the scenario built its QPs: a black-holed QP pair, a host whose link
     * goes down, one QP marked with another DSCP.
     */
    void applyFaults() {
        int failQp = params.i("fail-qp");
        if (failQp >= 0 && failQp < connections.size()) {
            Connection c = connections.get(failQp);
            faultAt = params.us("fail-at-us");
            fabric.failFlows(java.util.Set.of(c.requester().flow, c.responder().flow), faultAt);
        }
        hostDown = params.i("host-down");
        if (hostDown >= 0) {
            faultAt = params.us("host-down-at-us");
            fabric.hostDown(hostDown, faultAt);
        }
        if (params.i("link-mtu") > 0) {
            fabric.linkMtu(params.i("link-mtu"));
            faultAt = 0;
        }
        String dcqcn = params.str("dcqcn");
        if (dcqcn.startsWith("off:")) {
            // The reaction point off on these requesters only: they keep their rate whatever CNPs come back.
            for (String n : dcqcn.substring(4).split(",")) {
                int i = Integer.parseInt(n);
                if (i >= connections.size()) continue;
                RcQp q = connections.get(i).requester();
                q.dcqcn = false;
                failures.add(new Failure(q.flow, "cnp_ignored", -1, ordered("cnp_interval_us", params.d("cnp-interval-us"),
                        "reaction_point", "off")));
            }
        }
        String cnp = params.str("cnp");
        if (!cnp.equals("true")) {
            // The notification point off on these responders: CE-marked data arrives and no CNP goes back.
            java.util.Set<Integer> off = new java.util.HashSet<>();
            if (cnp.startsWith("off:")) for (String n : cnp.substring(4).split(",")) off.add(Integer.parseInt(n));
            for (int i = 0; i < connections.size(); i++) {
                if (!cnp.equals("false") && !off.contains(i)) continue;
                Connection c = connections.get(i);
                c.responder().suppressCnp = true;
                failures.add(new Failure(c.requester().flow, "no_cnp", -1, ordered("cnp_interval_us",
                        params.d("cnp-interval-us"), "notification_point", "off")));
            }
        }
        int altPcp = params.i("alt-pcp");
        if (altPcp >= 0) {
            for (int i = params.i("alt-pcp-from"); i < connections.size(); i++) {
                connections.get(i).requester().flow.pcp = altPcp;
                connections.get(i).responder().flow.pcp = altPcp;
            }
        }
        int pfcHost = params.i("pfc-host");
        if (pfcHost >= 0 && pfcHost < hosts.size()) {
            pfc = new Pfc(this, hosts.get(pfcHost));
            pfc.start();
        }
        int odd = params.i("odd-dscp-qp");
        if (odd >= 0 && odd < connections.size()) {
            RcQp q = connections.get(odd).requester();
            q.dscp = params.i("odd-dscp");
            failures.add(new Failure(q.flow, "qos_minority_dscp", -1,
                    ordered("dscp", q.dscp, "expected_dscp", q.host.dscp)));
        }
        String recovery = params.str("recovery");
        if (!recovery.equals("go-back-n")) {
            // The requesters' NIC answers NAKs the wrong way (RcQp): a diagnosis wherever a NAK comes.
            for (Connection c : connections) {
                RcQp q = c.requester();
                if (q.meta) continue;
                String cause = recovery.equals("message-start") ? "go_back_message_start"
                        : recovery.equals("ignore-nak") ? "nak_ignored" : "resend_skips";
                failures.add(new Failure(q.flow, cause, -1,
                        ordered("recovery", recovery, "rto_us", params.d("rto-us"))));
            }
        }
        if (params.b("single-sport") && !connections.isEmpty()) {
            RcQp q = connections.get(0).requester();
            failures.add(new Failure(q.flow, "single_source_port", -1,
                    ordered("sport", q.basePort, "qps", connections.size())));
        }
        if (params.i("peer-pmtu") > 0 && !connections.isEmpty()) {
            RcQp q = connections.get(0).requester();
            failures.add(new Failure(q.flow, "mtu_asymmetric", -1,
                    ordered("pmtu", q.pmtu, "peer_pmtu", params.i("peer-pmtu"))));
        }
    }

    /**
     * After the run: what the PFC pauses were, for the truth's diagnosis. A storm (runs without end) names the
     * requesters on the paused class, on other hosts, left with requests outstanding: the QPs it stalled.
     */
    void recordPauses() {
        if (pfc == null) return;
        java.util.Map<String, Object> d = new java.util.LinkedHashMap<>();
        String mac = io.metaroce.dissector.Addresses.mac(pfc.host.mac);
        d.put("subject", mac + " priority " + pfc.priority);
        d.put("source", mac);
        d.put("class", pfc.priority);
        d.put("xoff_frames", pfc.xoffFrames);
        d.put("xon_frames", pfc.xonFrames);
        if (pfc.runNs() == 0) {
            List<String> stalled = new ArrayList<>();
            for (Connection c : connections) {
                RcQp q = c.requester();
                if (q.host != pfc.host && q.flow.pcp == pfc.priority && q.sndUna != q.sndNxt) stalled.add(q.flow.id);
            }
            d.put("paused_until_end", true);
            d.put("stalled_flows", stalled);
            failures.add(new Failure(null, "pfc_storm", pfc.startNs(), d));
        } else {
            d.put("run_ns", pfc.runNs());
            d.put("every_ns", pfc.everyNs());
            d.put("paused_share", pfc.everyNs() > 0 ? (double) pfc.runNs() / pfc.everyNs() : 0.0);
            failures.add(new Failure(null, "pfc_heavy", pfc.startNs(), d));
        }
    }

    /** Two details in this order (the truth file must not depend on hash order). */
    static java.util.Map<String, Object> ordered(String k1, Object v1, String k2, Object v2) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    /** A requester gave up after retries timeouts in a row: the truth names the fault that caused it. */
    void qpFailed(RcQp q, int retries) {
        String cause = readdressed.contains(q.flow) ? "answers_to_old_address"
                : hostDown >= 0 && q.host.index == hostDown ? "link_down"
                : hostDown >= 0 && q.peer.host.index == hostDown ? "peer_stopped"
                : params.i("link-mtu") > 0 ? "mtu_blackhole" : "retry_exhausted";
        java.util.Map<String, Object> d = new java.util.LinkedHashMap<>();
        d.put("retries", retries);
        long rto = params.us("rto-us");
        d.put("timeout_ns", rto);
        long t = Math.round(Math.log(rto / 4096.0) / Math.log(2));
        if (Math.abs(4096.0 * Math.pow(2, t) - rto) < 1) d.put("timeout_exp", t);
        d.put("gave_up_ns", now);
        if (params.i("link-mtu") > 0) d.put("link_mtu", params.i("link-mtu"));
        // An MTU black hole starts with the first packet too long for the links, answers to an old address with
        // the first packet sent from the new one, not at a fault time.
        boolean fromPacket = cause.equals("mtu_blackhole") || cause.equals("answers_to_old_address");
        failures.add(new Failure(q.flow, cause, fromPacket ? q.oldestUnackedSentAt() : faultAt, d));
    }

    /** After the run: requesters still waiting for acknowledgements when the capture ends (a hang). */
    void recordHangs() {
        if (faultAt < 0) return;
        for (Connection c : connections) {
            RcQp q = c.requester();
            if (q.failed || q.sndUna == q.sndNxt) continue;
            java.util.Map<String, Object> d = new java.util.LinkedHashMap<>();
            d.put("first_unacked_psn", q.sndUna);
            d.put("next_psn", q.sndNxt);
            failures.add(new Failure(q.flow, "hung", faultAt, d));
        }
    }

    /** An RC QP pair as the truth file lists it. */
    record Connection(RcQp requester, RcQp responder, boolean cm) {}

    Sim(Params params) {
        this.params = params;
        this.seed = params.l("seed");
        this.rng = new SplittableRandom(seed);
        this.frameTarget = params.l("frames");
        this.endTime = frameTarget > 0 ? Long.MAX_VALUE : params.us("duration-us");
        this.fabric = new Fabric(this);
    }

    void at(long time, Runnable action) {
        if (time < now) time = now;
        queue.add(time, seq++, action);
    }

    void after(long delay, Runnable action) { at(now + delay, action); }

    /** Runs until the queue empties, the time limit passes or the capture holds the requested frames. */
    void run() {
        while (!stopped && queue.size() > 0) {
            if (queue.peekTime() > endTime) break;
            Runnable action = queue.poll();
            now = queue.polledTime();
            action.run();
            eventsRun++;
            if (frameTarget > 0 && tap.frames() >= frameTarget) stopped = true;
        }
    }

    /** True while new periodic work may still be scheduled. */
    boolean running() { return !stopped && now < endTime; }

    Host addHost(boolean ipv6, int vlan, int dscp) {
        Host h = new Host(hosts.size(), ipv6, vlan, dscp, rng.nextLong(1L << 32));
        hosts.add(h);
        return h;
    }

    int newQpn() {
        int q = nextQpn;
        nextQpn += 1 + rng.nextInt(7);
        return q & 0xFFFFFF;
    }

    Flow flow(Host src, Host dst, int destQp, String transport, String service) {
        Flow f = new Flow(flows.size(), src, dst, destQp, transport, service);
        flows.add(f);
        return f;
    }

    long serializationNs(int bytes, double gbps) {
        // 20 bytes of preamble and inter-frame gap, 4 bytes of FCS
        return Math.max(1, Math.round((bytes + 24) * 8 / gbps));
    }

    /**
     * An endpoint hands a packet to its host's NIC: count it in its flow's truth, let planted hooks touch it,
     * queue it behind what the NIC is already sending, and show it to the tap when it leaves.
     */
    void send(Pkt p) {
        if (!sendHooks.isEmpty()) {
            for (int i = 0; i < sendHooks.size(); i++) {
                if (sendHooks.get(i).onSend(p)) sendHooks.remove(i--);
            }
        }
        p.ipId = p.src.ipId++;
        int len = FrameBuilder.frameLength(p);
        p.wireLength = len;
        account(p);
        Host h = p.src;
        long depart = Math.max(now, h.nicFreeAt);
        h.nicFreeAt = depart + serializationNs(len, fabric.lineRate);
        at(depart, () -> departed(p));
    }

    private void account(Pkt p) {
        Flow f = p.flow;
        f.packets++;
        OpcodeDef def = p.tver <= 1 ? FrameBuilder.opcodeDefOrNull(p) : null;
        p.data = def != null && (def.role() == OpcodeDef.Role.REQUEST || def.role() == OpcodeDef.Role.RESPONSE);
        if (p.data) {
            f.dataPackets++;
            f.payloadBytes += p.payloadLen;
            if (p.isRetransmission()) {
                f.retransmitted++;
                f.retransmittedByCause[p.cause]++;
            }
        }
        if (p.tver == 1) {
            f.ensurePaths(p.pathId);
            f.pathPackets[p.pathId]++;
        }
        switch (p.opcode) {
            case 0x11 -> {
                int kind = (p.syndrome >>> 5) & 3;
                if (kind == 0) f.acks++;
                else if (kind == 1) f.rnrNaks++;
                else if (kind == 3) f.naks++;
            }
            case 0x81 -> f.cnps++;
            case 0xE0 -> { if (p.tver == 1) f.sacks++; }
            case 0xE1 -> {
                if (p.tver == 1) {
                    f.nacks++;
                    if (p.nackReason == 0x11) f.rnrNaks++;
                }
            }
            case 0xE2 -> { if (p.tver == 1) f.credits++; }
            case 0xE3 -> { if (p.tver == 1) f.cnps++; }
            case 0xE4, 0xE5 -> { if (p.tver == 1) f.probes++; }
            default -> { }
        }
        if (p.violation != null) violations.add(new Truth.Violation(p.violation, p, violationNotes.get(p.violation)));
    }

    private void departed(Pkt p) {
        tap.offer(p, p.src, 0);
        fabric.enter(p);
    }

    /** The network lost the packet. */
    void lost(Pkt p) {
        p.lost = true;
        Flow f = p.flow;
        f.lost++;
        if (p.tver == 1) f.pathLost[p.pathId]++;
        if (p.frameNo > 0) truth.mark(p.frameNo, Truth.LOST_AFTER_TAP);
    }

    /** The network marked the packet CE. */
    void marked(Pkt p, int stage) {
        if (p.ecn == 0 || p.ceStage != 0) return;
        p.ceStage = stage;
        Flow f = p.flow;
        f.ceMarks++;
        if (p.tver == 1) f.pathCe[p.pathId]++;
        if (p.frameNo > 0) truth.mark(p.frameNo, Truth.CE);
    }

    /** The receiver already had this request PSN: the copy is spurious. */
    void spurious(Pkt p) {
        if (p.spurious || !p.isRetransmission()) return;
        p.spurious = true;
        p.flow.spurious++;
        if (p.frameNo > 0) truth.mark(p.frameNo, Truth.SPURIOUS);
    }

    /** recovery=ignore-nak: the requester took no action on this NAK sequence error (truth label nak_ignored). */
    void nakIgnored(Pkt nak) {
        if (nak.frameNo > 0) truth.mark(nak.frameNo, Truth.NAK_IGNORED);
    }

    void arrived(Pkt p) {
        tap.offer(p, p.dst, 2);
        Endpoint e = p.deliverTo != null ? p.deliverTo : p.dst.qps.get(p.destQp);
        if (e != null) e.receive(p);
    }
}
