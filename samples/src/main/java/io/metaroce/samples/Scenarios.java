package io.metaroce.samples;

import io.metaroce.dissector.Addresses;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.Udp;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The named scenarios. Most are parameter sets over one generic set-up (hosts, QP pairs, a workload that
 * decides the traffic pattern); a scenario adds its defaults and, where it needs a specific event, a small
 * extra. {@code conformance-violations} builds its own traffic: one short connection per rule of spec §11,
 * each planting exactly one violation, among clean connections.
 */
public final class Scenarios {
    private Scenarios() {}

    /** A named scenario: what a user should see in it, its parameter defaults and its set-up. */
    public record Scenario(String name, String description, Map<String, String> defaults, Setup setup) {}

    /** Builds hosts, QPs and work; returns the hosts a sender / receiver tap sits on. */
    interface Setup {
        Roles build(Sim sim, Cm cm);
    }

    record Roles(Host sender, Host receiver) {}

    private static final Map<String, Scenario> SCENARIOS = new LinkedHashMap<>();

    private static void add(String name, String description, Setup setup, String... defaults) {
        Map<String, String> d = new LinkedHashMap<>();
        for (String kv : defaults) {
            int eq = kv.indexOf('=');
            d.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        SCENARIOS.put(name, new Scenario(name, description, d, setup));
    }

    static {
        add("rocev2-clean",
                "RoCEv2 without trouble: CM REQ/REP/RTU, two RC QP pairs (one starting just below the 24-bit PSN "
                        + "wrap) doing WRITE, WRITE with immediate, SEND, SEND with immediate and READ, plus a UD "
                        + "QP pair. Every ICRC good, no retransmission, ACKs coalesced (ack_req every 8 packets "
                        + "and on message ends) with a growing MSN, READ Requests reserving one PSN per response.",
                Scenarios::generic, "transport=rocev2", "qps=2", "workload=mixed", "messages=6",
                "message-size=uniform:256:6144", "pmtu=1024", "ud=true", "duration-us=400");
        add("rocev2-gbn-loss",
                "RoCEv2 go-back-N under 1.5 % random loss on every path: after each gap one NAK PSN-sequence-error "
                        + "carrying the expected PSN, then the requester resends everything from it (labels "
                        + "retransmission=nak); lost tail packets or lost ACKs end in timeouts (timeout), and "
                        + "resent packets the responder already had are spurious.",
                Scenarios::generic, "transport=rocev2", "qps=2", "workload=write", "messages=6",
                "message-size=fixed:8192", "pmtu=1024", "loss=0.015", "duration-us=1500");
        add("rocev2-go-back-message-start",
                "The rocev2-gbn-loss pair (2 % random loss, 16 KB WRITEs of 16 packets) with a requester NIC that answers a "
                        + "NAK PSN-sequence-error naming PSN p by resending from the first packet of p's message "
                        + "(recovery=message-start) instead of from p: every recovery sends again packets the NAK already "
                        + "acknowledged (spurious), the go-back-0 pattern of the RDMA livelock. Captured at the requester "
                        + "(nic-resend-before-nak-psn).",
                Scenarios::generic, "transport=rocev2", "qps=2", "workload=write", "messages=8",
                "message-size=fixed:16384", "pmtu=1024", "loss=0.02", "recovery=message-start", "duration-us=3000");
        add("rocev2-nak-ignored",
                "The rocev2-gbn-loss pair (2 % random loss, 16 KB WRITEs of 16 packets) with a requester NIC that ignores "
                        + "NAK PSN-sequence-errors (recovery=ignore-nak): it takes the NAK's acknowledgement but resends from "
                        + "the oldest unacknowledged PSN only when its 60 us retransmission timer fires, so every loss costs a "
                        + "timeout. The timer is shorter than 100 us: the resends must be recognised by the timer the flow "
                        + "shows. Captured at the requester (nic-ignores-nak; the ignored NAKs are labelled nak_ignored).",
                Scenarios::generic, "transport=rocev2", "qps=2", "workload=write", "messages=8",
                "message-size=fixed:16384", "pmtu=1024", "loss=0.02", "recovery=ignore-nak", "rto-us=60", "duration-us=3000");
        add("rocev2-ecn-cnp",
                "RoCEv2 incast: 4 senders write to one receiver (VLAN 100, DSCP 26) whose 10 Gb/s downlink is "
                        + "the bottleneck; the switch queue marks CE above 32 KB, the receiver answers with CNPs (opcode 0x81, BECN) "
                        + "at most one per QP per 50 us, and the senders cut their rate DCQCN-style: the gaps "
                        + "between their packets widen after each CNP. Captured at the receiver.",
                Scenarios::generic, "transport=rocev2", "hosts=5", "workload=incast", "messages=20",
                "message-size=fixed:4096", "message-gap-us=6", "pmtu=512", "ecn-threshold-bytes=32768", "bottleneck-gbps=10",
                "vlan=100", "tap=receiver", "cm=false", "duration-us=1000");
        add("rocev2-cnp-ignored",
                "The rocev2-ecn-cnp incast with greedy senders (60 WRITEs of 4 KB back to back each), where the reaction "
                        + "point of one sender, 10.0.0.2, is off (dcqcn=off:0): the receiver answers its CE marks with "
                        + "CNPs as for the others, the three others cut their rate, 10.0.0.2 keeps sending at line rate "
                        + "(48 ns between its 512-byte packets before and after every CNP). Captured at 10.0.0.2: the "
                        + "capture that can show a reaction point ignoring CNPs (cc-cnp-ignored).",
                Scenarios::generic, "transport=rocev2", "hosts=5", "workload=incast", "messages=60",
                "message-size=fixed:4096", "message-gap-us=0", "pmtu=512", "ecn-threshold-bytes=32768", "bottleneck-gbps=10",
                "vlan=100", "tap=sender", "cm=false", "dcqcn=off:0", "duration-us=1000");
        add("rocev2-no-cnp",
                "The rocev2-ecn-cnp incast (4 senders, 10 Gb/s downlink, CE marks above 32 KB of queue) where the "
                        + "receiver's notification point is off (cnp=false: its NIC sends no CNP), captured at the "
                        + "receiver: CE-marked data keeps arriving from all four senders and no CNP goes back (cc-no-cnp "
                        + "for each QP).",
                Scenarios::generic, "transport=rocev2", "hosts=5", "workload=incast", "messages=20",
                "message-size=fixed:4096", "message-gap-us=6", "pmtu=512", "ecn-threshold-bytes=32768", "bottleneck-gbps=10",
                "vlan=100", "tap=receiver", "cm=false", "cnp=false", "duration-us=1000");
        add("rocev2-pfc-storm",
                "A PFC storm: two senders write to 10.0.0.1 (VLAN 100), 10.0.0.2 on priority 3, 10.0.0.3 on priority 4 "
                        + "(one 32 KB WRITE every 40 ms each). At 40.005 ms the receiver's NIC starts pausing priority 3 "
                        + "and never lets go: an XOFF of 65535 quanta every 50 us for 230 ms. The leaf holds priority 3 "
                        + "to it and the senders' NICs hold theirs: 10.0.0.2's QP stalls mid-message with requests "
                        + "outstanding, 10.0.0.3's keeps writing. Captured at a mirror of 10.0.0.1's switch port (tap=port: "
                        + "a host tap never shows PFC frames): pfc-pause-storm with default options.",
                Scenarios::generic, "transport=rocev2", "hosts=3", "workload=incast", "messages=6",
                "message-size=fixed:32768", "message-gap-us=40000", "pmtu=1024", "vlan=100", "tap=port", "cm=false",
                "alt-pcp=4", "alt-pcp-from=1", "pfc-host=0", "pfc-priority=3", "pfc-at-us=40005", "duration-us=270005");
        add("rocev2-pfc-heavy",
                "A slow receiver: two senders write 2 KB messages every 20 us to 10.0.0.1 (VLAN 100, priority 3), "
                        + "whose NIC pauses priority 3 for 30 us in every 100 us from 50 us on (an XOFF, then an XON): "
                        + "the senders hold their packets about 30 % of the time, no packet is lost. Captured at a mirror "
                        + "of 10.0.0.1's switch port (tap=port): pfc-pause-heavy, not a storm (each pause far below the "
                        + "200 ms watchdog).",
                Scenarios::generic, "transport=rocev2", "hosts=3", "workload=incast", "messages=40",
                "message-size=fixed:2048", "message-gap-us=20", "pmtu=512", "vlan=100", "tap=port", "cm=false",
                "pfc-host=0", "pfc-priority=3", "pfc-at-us=50", "pfc-run-us=30", "pfc-every-us=100", "duration-us=1000");
        add("rocev2-rnr",
                "RoCEv2 receiver not ready: the responder has 2 receive buffers and posts one more every 20 us, "
                        + "so SENDs hit RNR NAKs (AETH 0x23: RNR timer code 3 = 0.03 ms); the requester pauses "
                        + "that long and resends from the NAKed PSN (retransmission=rnr).",
                Scenarios::generic, "transport=rocev2", "workload=send", "messages=10",
                "message-size=fixed:2048", "pmtu=1024", "rnr-buffers=2", "rnr-refill-us=20", "duration-us=800");
        add("rocev2-read-atomic",
                "RoCEv2 over IPv6: READs of several packets (the READ Request reserves one PSN per response; the "
                        + "next request PSN skips them), READ Response First/Middle/Last with AETH, Compare & Swap "
                        + "and Fetch & Add answered by ATOMIC Acknowledge with the original value. One READ "
                        + "response is lost: after the timeout a new READ Request goes out at the first missing "
                        + "response PSN for the remaining bytes (virtual address and length moved on).",
                Scenarios::readAtomic, "transport=rocev2", "ipv6=true", "workload=read-atomic", "messages=8",
                "message-size=uniform:512:4096", "pmtu=1024", "duration-us=800");
        add("metaroce-spray-lossy-path",
                "MetaRoCE spraying one QP over 4 paths (UDP source port base + path), path 2 losing 10 % of its "
                        + "packets, path 3 slow: MR-SACKs with cum_psn and bitmap, retransmissions with rtx = 1 "
                        + "moved to another path (causes sack, nack after the reorder timeout, timeout), a few "
                        + "spurious copies when the timer fires before a slow-path packet arrives, MR-PROBE / "
                        + "MR-PROBE-REPLY on every path. The truth's per-path losses sit on path 2.",
                Scenarios::generic, "transport=metaroce", "paths=4", "loss=0.1", "lossy-path=2", "slow-path=3",
                "slow-path-extra-ns=4000", "rto-us=14", "workload=write", "messages=24",
                "message-size=fixed:8192", "message-gap-us=3", "pmtu=1024", "probe-interval-us=20",
                "duration-us=400");
        add("metaroce-incast-credit",
                "MetaRoCE incast with receiver-driven credit: 8 senders spray over 4 paths into one receiver, "
                        + "which grants each sender 8 PSNs ahead of its cum_psn with MR-CREDIT (connection set up "
                        + "with the credit flag in the CM private data); no sender sends before its first grant "
                        + "or past granted_psn. The receiver's queue still marks CE: ce_count grows in the "
                        + "MR-SACKs and MR-CNPs name the congested path. Captured at the receiver.",
                Scenarios::generic, "transport=metaroce", "hosts=9", "paths=4", "credit=true", "credit-window=8",
                "workload=incast", "messages=2", "message-size=fixed:6144", "pmtu=1024",
                "ecn-threshold-bytes=16384", "tap=receiver", "duration-us=800");
        add("metaroce-path-down",
                "MetaRoCE over IPv6 with VLAN 200 and 4 paths; path 1 fails at 40 us. Packets sprayed on it "
                        + "are lost (the truth's lost counters on path 1), recovered by MR-NACK and timeouts "
                        + "with rtx = 1 on the other paths; MR-PROBEs on path 1 stop being answered and after "
                        + "three unanswered probes the sender stops using path 1.",
                Scenarios::generic, "transport=metaroce", "ipv6=true", "vlan=200", "paths=4", "path-down=1",
                "path-down-at-us=40", "probe-interval-us=10", "workload=write", "messages=24",
                "message-size=fixed:4096", "message-gap-us=4", "pmtu=1024", "duration-us=300");
        add("capture-gaps-truncated",
                "Capture loss versus network loss: RoCEv2 traffic with 1 % network loss, captured at the "
                        + "receiver with a snap length of 96 bytes and capture drops in bursts of 3 (about 3 % of "
                        + "packets; the pcapng ISB ifdrop says how many). Gaps the network made are followed by a "
                        + "NAK and retransmissions; gaps the capture made are not (labels capture_dropped_*, the "
                        + "truth's capture_drops list). Every frame is truncated (original length kept).",
                Scenarios::generic, "transport=rocev2", "workload=write", "messages=12",
                "message-size=fixed:8192", "pmtu=1024", "loss=0.01", "snaplen=96", "capture-drop=0.01",
                "capture-drop-burst=3", "tap=receiver", "duration-us=1500");
        add("rocev2-retry-exhausted",
                "Transport retry counter exceeded (IBV_WC_RETRY_EXC_ERR) on one of two QPs: from 60 us the fabric "
                        + "drops everything of QP pair 1 (a black-holed 5-tuple) while QP pair 0 to the same peer "
                        + "keeps working until 600 us; QP 1 resends its oldest unacknowledged PSN every 65.536 us (local ACK "
                        + "timeout exponent 4: 4.096 us x 2^4) three times (retry count 3), then goes silent.",
                Scenarios::generic, "transport=rocev2", "qps=2", "workload=write", "messages=120",
                "message-size=fixed:512", "pmtu=512", "message-gap-us=5", "window=16", "fail-qp=1", "fail-at-us=60",
                "retry-count=3", "rto-us=65.536", "duration-us=700");
        add("rocev2-peer-dead",
                "A peer host stops: three hosts write to each other (captured at host 10.0.0.1); at 80 us host "
                        + "10.0.0.3 stops answering. Its QPs resend every 32.768 us (exponent 3) up to retry count 7 "
                        + "and give up, while host 10.0.0.2 keeps answering.",
                Scenarios::generic, "transport=rocev2", "hosts=3", "workload=alltoall", "messages=30",
                "message-size=fixed:512", "pmtu=512", "message-gap-us=5", "window=16", "host-down=2",
                "host-down-at-us=80", "retry-count=7", "rto-us=32.768", "cm=false", "ud=true", "ud-count=40",
                "duration-us=700");
        add("rocev2-link-down",
                "The captured host's link goes down at 80 us: three hosts write to each other (captured at host "
                        + "10.0.0.1); from 80 us nothing reaches 10.0.0.1 from any peer, and every one of its QPs "
                        + "resends every 32.768 us (exponent 3) up to retry count 7, then gives up.",
                Scenarios::generic, "transport=rocev2", "hosts=3", "workload=alltoall", "messages=30",
                "message-size=fixed:512", "pmtu=512", "message-gap-us=5", "window=16", "host-down=0",
                "host-down-at-us=80", "retry-count=7", "rto-us=32.768", "cm=false", "ud=true", "ud-count=40",
                "duration-us=700");
        add("rocev2-hang",
                "A hang at the end of the capture: QP pair 0 is black-holed from 50 us and resends its oldest PSN "
                        + "every 32.768 us without a retry limit until the capture ends, with requests outstanding; "
                        + "QP pair 1 to the same peer works on (the peer is alive) and is idle at the end (nothing outstanding).",
                Scenarios::generic, "transport=rocev2", "qps=2", "workload=write", "messages=60",
                "message-size=fixed:512", "pmtu=512", "message-gap-us=5", "window=16", "fail-qp=0",
                "fail-at-us=50", "rto-us=32.768", "duration-us=400");
        add("rocev2-mtu-blackhole",
                "Path MTU above the link MTU: the QPs use a 2048-byte path MTU but the fabric links carry IP packets "
                        + "of at most 1500 bytes. Single-packet messages up to about 1.4 KB get through and are "
                        + "acknowledged; the first packet above the link MTU is dropped every time, resent every 32.768 us "
                        + "up to retry count 7, and the QP gives up.",
                Scenarios::generic, "transport=rocev2", "workload=write", "messages=40",
                "message-size=uniform:256:1400", "pmtu=2048", "message-gap-us=5", "link-mtu=1500", "retry-count=7",
                "rto-us=32.768", "ud=true", "ud-count=40", "big-message-at=12", "duration-us=700");
        add("rocev2-dscp0-qp",
                "One QP of three on the wrong traffic class: QP pair 1's requester marks its packets DSCP 0 while "
                        + "every other packet (the other QPs, all ACKs) uses DSCP 26 (as when a library's QPs bypass "
                        + "the traffic-class setting).",
                Scenarios::generic, "transport=rocev2", "qps=3", "workload=write", "messages=6",
                "message-size=fixed:1024", "pmtu=512", "odd-dscp-qp=1", "odd-dscp=0", "duration-us=400");
        add("rocev2-one-source-port",
                "No ECMP entropy: four QPs between the same two hosts all use UDP source port 0xc0de, so every QP "
                        + "hashes to the same fabric path.",
                Scenarios::generic, "transport=rocev2", "qps=4", "workload=write", "messages=6",
                "message-size=fixed:1024", "pmtu=512", "single-sport=true", "duration-us=400");
        add("rocev2-sick-source-port",
                "One sick path among healthy ones: six QPs between two hosts, each on its own UDP source port, over "
                        + "8 fabric paths; the path their ECMP hash sends one QP to loses 10 % of its packets. The QPs "
                        + "on it show NAKs and retransmissions, the others none.",
                Scenarios::generic, "transport=rocev2", "qps=6", "paths=8", "loss=0.1", "lossy-path=0",
                "workload=write", "messages=8", "message-size=fixed:2048", "pmtu=512", "duration-us=800");
        add("rocev2-asymmetric-mtu",
                "Asymmetric path MTU between two hosts: 10.0.0.1's QP sends 4096-byte packets, 10.0.0.2's QP "
                        + "(the other direction) 1024-byte packets.",
                Scenarios::generic, "transport=rocev2", "workload=alltoall", "messages=4", "message-size=fixed:8192",
                "pmtu=4096", "peer-pmtu=1024", "duration-us=400");
        add("rocev2-off-rail-peer",
                "A peer outside its rail: 10.0.0.1 writes to four peers; 10.0.0.2-4 share its /24 subnet (its rail), "
                        + "10.0.1.5 has an address of another subnet (a NIC configured with another rail's address or "
                        + "GID index). Its traffic still flows, through the spine instead of the rail switch.",
                Scenarios::offRailPeer, "transport=rocev2", "messages=4", "message-size=fixed:1024", "pmtu=1024",
                "cm=false", "duration-us=300");
        add("rocev2-straggler",
                "Training steps with a straggler: 10.0.0.1 exchanges gradients with four peers (an all-to-all: one RC QP "
                        + "pair each way per peer, 25 Gb/s links) every step-period-us; each step every requester writes "
                        + "4 x 2 KB with immediate, then the hosts compute until the next step. Peer 10.0.0.4 (a slow GPU) starts its "
                        + "writes straggler-delay-us after the others in every step; no loss, no congestion. Captured at "
                        + "10.0.0.1: the capture that shows a straggling peer (step-straggler).",
                Scenarios::straggler, "transport=rocev2", "messages=10", "message-size=fixed:2048", "pmtu=1024",
                "line-rate-gbps=25", "cm=false", "step-period-us=100", "straggler-delay-us=4", "duration-us=1100");
        add("rocev2-source-address-change",
                "A source address that changes after a port gap: QP pair 10.0.0.1 -> 10.0.0.2 writes, falls silent, and at "
                        + "150 us 10.0.0.1 is back as 10.0.0.101. A QP pair set up afterwards works; the old QP sends "
                        + "its next message from 10.0.0.101 (same QP, same UDP ports) while 10.0.0.2 answers the old "
                        + "address, which no host has any more: it resends its first new PSN every 32.768 us, three "
                        + "times, and gives up.",
                Scenarios::sourceAddressChange, "transport=rocev2", "messages=6", "message-size=fixed:1024", "pmtu=1024",
                "message-gap-us=5", "retry-count=3", "rto-us=32.768", "cm=false", "duration-us=400");
        add("rocev2-cm-mtu-mismatch",
                "The QP ignores the path MTU its connection negotiated: the CM REQ carries path MTU 1024, the QP "
                        + "sends 4096-byte First and Middle packets (an application override of the path MTU).",
                Scenarios::cmMtuMismatch, "transport=rocev2", "messages=4", "message-size=fixed:16384", "pmtu=4096",
                "cm=true", "duration-us=300");
        add("rocev2-gid-misconfig",
                "GIDs of the wrong kind, on IPv6: two peers write to fd00::1 from QPs given the wrong GID index. "
                        + "::ffff:10.0.0.2 is the IPv4-mapped GID of an IPv4 address sent in an IPv6 packet (RoCEv2 "
                        + "for an IPv4 GID travels in IPv4 packets), fe80::3 a link-local GID (not routed beyond the "
                        + "subnet). Captured at fd00::1; the traffic itself flows.",
                Scenarios::gidMisconfig, "transport=rocev2", "ipv6=true", "messages=8", "message-size=fixed:1024",
                "pmtu=1024", "cm=false", "duration-us=300");
        add("conformance-violations",
                "One planted violation of every rule of spec §11 (33 rules), each in its own short connection "
                        + "between 10.0.0.1 (the tap host) and 10.0.0.2 and labeled in the truth with its rule id "
                        + "and frame, among clean RoCEv2, MetaRoCE and UD traffic. The truth's violations list "
                        + "says what each planted frame does wrong.",
                Conformance::build, "transport=rocev2", "pmtu=512", "cm=true", "credit-window=4", "ud=true",
                "duration-us=1200");
    }

    /** The scenario names, in documentation order. */
    public static List<String> names() { return List.copyOf(SCENARIOS.keySet()); }

    public static Scenario get(String name) {
        Scenario s = SCENARIOS.get(name);
        if (s == null) throw new IllegalArgumentException("unknown scenario '" + name + "' (known: " + names() + ")");
        return s;
    }

    /** The parameters of a scenario: global defaults overridden by the scenario's own. */
    public static Params params(String name) {
        Params p = new Params();
        for (Map.Entry<String, String> e : get(name).defaults().entrySet()) p.set(e.getKey(), e.getValue());
        return p;
    }

    // ================================================================== generic set-up

    static Host[] hosts(Sim sim, int n) {
        Params p = sim.params;
        Host[] h = new Host[n];
        for (int i = 0; i < n; i++) h[i] = sim.addHost(p.b("ipv6"), p.i("vlan"), p.i("dscp"));
        return h;
    }

    /** The one source port of every QP with single-sport (a library that pins it). */
    static final int SINGLE_SPORT = 0xC0DE;

    /** RoCEv2 source port as Linux derives it from the QP numbers (symmetric for both ends). */
    static int rocev2Sport(int qpnA, int qpnB) {
        long v = (long) qpnA * qpnB;
        v ^= v >>> 20;
        v ^= v >>> 40;
        int fl = (int) (v & 0xFFFFF);
        return ((fl & 0x3FFF) ^ ((fl & 0xFC000) >>> 14)) | 0xC000;
    }

    /** A connected RC QP pair a -> b; wrap: the requester's start PSN sits just below 2^24. */
    static RcQp[] rcPair(Sim sim, Cm cm, Host a, Host b, boolean meta, boolean spray, boolean credit, boolean wrap,
                         long startAt, boolean withCm) {
        Params p = sim.params;
        int pmtu = p.i("pmtu");
        int pmtuB = b.index != 0 && p.i("peer-pmtu") > 0 ? p.i("peer-pmtu") : pmtu;
        int pmtuA = a.index != 0 && p.i("peer-pmtu") > 0 ? p.i("peer-pmtu") : pmtu;
        int paths = Math.max(1, Math.min(1024, p.i("paths")));
        int qa = sim.newQpn(), qb = sim.newQpn();
        int psnA = wrap ? 0xFFFFF0 + sim.rng.nextInt(8) : sim.rng.nextInt(1 << 24);
        int psnB = sim.rng.nextInt(1 << 24);
        int portA, portB;
        if (meta) {
            portA = 0xC000 + 16 * sim.rng.nextInt(0x300);
            portB = 0xC000 + 16 * sim.rng.nextInt(0x300);
        } else if (p.b("single-sport")) {
            portA = portB = SINGLE_SPORT;
        } else {
            portA = portB = rocev2Sport(qa, qb);
        }
        RcQp x = new RcQp(sim, a, qa, meta, pmtuA, spray, paths, portA, credit, psnA);
        RcQp y = new RcQp(sim, b, qb, meta, pmtuB, spray, paths, portB, false, psnB);
        RcQp.pair(x, y, meta ? "metaroce" : "rocev2");
        sim.rcQps.add(x);
        sim.rcQps.add(y);
        sim.connections.add(new Sim.Connection(x, y, withCm));
        if (withCm) cm.connect(x, y, startAt);
        else sim.at(startAt, () -> {
            x.start();
            y.start();
        });
        return new RcQp[] {x, y};
    }

    /** Message sizes: fixed:N, uniform:MIN:MAX or lognormal:MEDIAN:SIGMA. */
    static int size(Sim sim, String dist) {
        String[] f = dist.split(":");
        int v = switch (f[0]) {
            case "fixed" -> Integer.parseInt(f[1]);
            case "uniform" -> Integer.parseInt(f[1]) + sim.rng.nextInt(Integer.parseInt(f[2]) - Integer.parseInt(f[1]) + 1);
            case "lognormal" -> {
                double g = gaussian(sim);
                yield (int) Math.round(Double.parseDouble(f[1]) * Math.exp(Double.parseDouble(f[2]) * g));
            }
            default -> throw new IllegalArgumentException("message-size: unknown distribution '" + dist + "'");
        };
        return Math.max(1, Math.min(v, 1 << 22));
    }

    private static double gaussian(Sim sim) {
        double u = sim.rng.nextDouble(), w = sim.rng.nextDouble();
        return Math.sqrt(-2 * Math.log(Math.max(u, 1e-12))) * Math.cos(2 * Math.PI * w);
    }

    private static final RcQp.Op[] MIXED = {RcQp.Op.WRITE, RcQp.Op.WRITE_IMM, RcQp.Op.SEND, RcQp.Op.READ,
            RcQp.Op.SEND_IMM, RcQp.Op.WRITE};
    private static final RcQp.Op[] READ_ATOMIC = {RcQp.Op.READ, RcQp.Op.WRITE, RcQp.Op.CMP_SWAP, RcQp.Op.READ,
            RcQp.Op.FETCH_ADD, RcQp.Op.SEND};

    static RcQp.Msg message(Sim sim, String workload, int k) {
        RcQp.Op op = switch (workload) {
            case "send" -> k % 3 == 2 ? RcQp.Op.SEND_IMM : RcQp.Op.SEND;
            case "mixed" -> MIXED[k % MIXED.length];
            case "read-atomic" -> READ_ATOMIC[k % READ_ATOMIC.length];
            default -> k % 3 == 2 ? RcQp.Op.WRITE_IMM : RcQp.Op.WRITE;
        };
        boolean atomic = op == RcQp.Op.CMP_SWAP || op == RcQp.Op.FETCH_ADD;
        boolean big = k == sim.params.i("big-message-at");
        RcQp.Msg m = new RcQp.Msg(op, atomic ? 8 : big ? 2 * sim.params.i("pmtu") : size(sim, sim.params.str("message-size")));
        m.va = 0x7F00_0000_0000L + ((long) k << 20);
        m.rkey = 0x1000 + (k & 0xFF);
        m.imm = 0xAB000000L | k;
        if (atomic) {
            m.va = 0x7F00_0000_1000L + 8L * (k % 4);
            m.swapAdd = op == RcQp.Op.CMP_SWAP ? 0x1111L * (k + 1) : k + 1;
            m.compare = 0;
        }
        return m;
    }

    /** Pulls count messages (or endlessly when a frame count is asked for). */
    static RcQp.MsgSource source(Sim sim, String workload, int count) {
        int[] k = {0};
        long gap = sim.params.us("message-gap-us");
        long[] nextAt = {0};
        return qp -> {
            if (sim.frameTarget == 0 && k[0] >= count) return null;
            if (gap > 0 && sim.now < nextAt[0]) {
                sim.at(nextAt[0], qp::pump);
                return null;
            }
            nextAt[0] = sim.now + gap;
            return message(sim, workload, k[0]++);
        };
    }

    static Roles generic(Sim sim, Cm cm) {
        Params p = sim.params;
        String workload = p.str("workload");
        boolean meta = p.str("transport").equals("metaroce");
        boolean spray = p.b("spray"), credit = p.b("credit"), withCm = p.b("cm");
        int messages = p.i("messages");
        Roles roles;
        switch (workload) {
            case "incast" -> {
                Host[] h = hosts(sim, Math.max(2, p.i("hosts")));
                for (int i = 1; i < h.length; i++) {
                    for (int q = 0; q < p.i("qps"); q++) {
                        RcQp[] pair = rcPair(sim, cm, h[i], h[0], meta, spray, credit, i == 1 && q == 0,
                                1_000 + 100L * i, withCm);
                        pair[0].source = source(sim, "write", messages);
                    }
                }
                roles = new Roles(h[1], h[0]);
            }
            case "alltoall" -> {
                Host[] h = hosts(sim, Math.max(2, p.i("hosts")));
                for (int i = 0; i < h.length; i++) {
                    for (int j = 0; j < h.length; j++) {
                        if (i == j) continue;
                        RcQp[] pair = rcPair(sim, cm, h[i], h[j], meta, spray, credit, i == 0 && j == 1,
                                1_000 + 50L * (i * h.length + j), withCm);
                        pair[0].source = source(sim, "write", messages);
                    }
                }
                roles = new Roles(h[0], h[1]);
            }
            case "ring-allreduce" -> roles = ringAllReduce(sim, cm, meta, spray, credit, withCm);
            default -> {
                Host[] h = hosts(sim, Math.max(2, p.i("hosts")));
                for (int q = 0; q < p.i("qps"); q++) {
                    RcQp[] pair = rcPair(sim, cm, h[0], h[1], meta, spray, credit, q == 0, 1_000 + 3_000L * q, withCm);
                    pair[0].source = source(sim, workload, messages);
                }
                roles = new Roles(h[0], h[1]);
            }
        }
        if (p.b("ud")) {
            UdQp a = new UdQp(sim, roles.sender(), sim.newQpn()), b = new UdQp(sim, roles.receiver(), sim.newQpn());
            UdQp.pair(a, b);
            int count = sim.frameTarget > 0 ? Integer.MAX_VALUE / 4 : p.i("ud-count");
            long interval = sim.frameTarget > 0 ? 20_000 : p.us("ud-interval-us");
            if (sim.frameTarget > 0) udEndless(sim, a, interval, new int[] {sim.rng.nextInt(1 << 24)});
            else a.stream(5_000, count, interval, Math.min(1024, p.i("pmtu")), new int[] {sim.rng.nextInt(1 << 24)});
        }
        return roles;
    }

    private static void udEndless(Sim sim, UdQp a, long interval, int[] psn) {
        sim.at(sim.now + interval, () -> {
            if (!sim.running()) return;
            sim.send(a.datagram(psn[0], 64 + sim.rng.nextInt(512), (psn[0] & 3) == 3));
            psn[0] = (psn[0] + 1) & 0xFFFFFF;
            a.flow.messages++;
            udEndless(sim, a, interval, psn);
        });
    }

    /**
     * Ring all-reduce over all hosts: 2(N-1) steps; in each step every host writes (with immediate) one chunk
     * to its successor, and starts the next step when its predecessor's chunk of this step has arrived.
     */
    private static Roles ringAllReduce(Sim sim, Cm cm, boolean meta, boolean spray, boolean credit, boolean withCm) {
        Params p = sim.params;
        Host[] h = hosts(sim, Math.max(3, p.i("hosts")));
        int n = h.length;
        RcQp[] to = new RcQp[n];
        for (int i = 0; i < n; i++) {
            to[i] = rcPair(sim, cm, h[i], h[(i + 1) % n], meta, spray, credit, i == 0, 1_000 + 200L * i, withCm)[0];
        }
        int steps = 2 * (n - 1);
        int iterations = sim.frameTarget > 0 ? Integer.MAX_VALUE : Math.max(1, p.i("messages"));
        int chunk = size(sim, p.str("message-size"));
        for (int i = 0; i < n; i++) ringStep(sim, to, i, 0, 0, steps, iterations, chunk);
        return new Roles(h[0], h[1]);
    }

    private static void ringStep(Sim sim, RcQp[] to, int host, int iteration, int step, int steps, int iterations,
                                 int chunk) {
        RcQp.Msg m = new RcQp.Msg(RcQp.Op.WRITE_IMM, chunk);
        m.va = 0x7F00_0000_0000L + ((long) step << 24);
        m.imm = ((long) iteration << 16) | step;
        int next = (host + 1) % to.length;
        m.onDelivered = () -> {
            int s = step + 1, it = iteration;
            if (s == steps) {
                s = 0;
                it++;
            }
            if (it < iterations && sim.running()) ringStep(sim, to, next, it, s, steps, iterations, chunk);
        };
        to[host].post(m);
    }

    /**
     * rocev2-straggler: host 0 and four peers, one RC QP pair each way per peer; every step-period-us each requester
     * posts four WRITEs with immediate (immediate data: step << 8 | message), peer 10.0.0.4 (hosts[3])
     * straggler-delay-us late. messages is the number of steps (endless with frames).
     */
    static Roles straggler(Sim sim, Cm cm) {
        Params p = sim.params;
        Host[] h = hosts(sim, 5);
        java.util.List<RcQp> reqs = new java.util.ArrayList<>();
        java.util.List<Long> delays = new java.util.ArrayList<>();
        long late = p.us("straggler-delay-us");
        for (int j = 1; j < h.length; j++) {
            reqs.add(rcPair(sim, cm, h[0], h[j], false, false, false, j == 1, 1_000, false)[0]);
            delays.add(0L);
            RcQp back = rcPair(sim, cm, h[j], h[0], false, false, false, false, 1_000, false)[0];
            reqs.add(back);
            delays.add(j == 3 ? late : 0L);
            if (j == 3) {
                java.util.Map<String, Object> d = Sim.ordered("peer", h[j].ip, "step_period_us", p.d("step-period-us"));
                d.put("delay_us", p.d("straggler-delay-us"));
                d.put("steps", p.i("messages"));
                sim.failures.add(new Sim.Failure(back.flow, "step_straggler", 5_000 + late, d));
            }
        }
        int steps = sim.frameTarget > 0 ? Integer.MAX_VALUE : Math.max(1, p.i("messages"));
        // At least a microsecond apart: steps at one instant would never let the clock move (endless with frames).
        step(sim, reqs, delays, 5_000, 0, steps, Math.max(1_000, p.us("step-period-us")), size(sim, p.str("message-size")));
        return new Roles(h[0], h[1]);
    }

    private static void step(Sim sim, java.util.List<RcQp> reqs, java.util.List<Long> delays, long at, int step, int steps,
                             long period, int size) {
        sim.at(at, () -> {
            if (!sim.running()) return;
            for (int q = 0; q < reqs.size(); q++) {
                RcQp r = reqs.get(q);
                int s = step;
                sim.at(sim.now + delays.get(q), () -> {
                    for (int m = 0; m < 4; m++) {
                        RcQp.Msg msg = new RcQp.Msg(RcQp.Op.WRITE_IMM, size);
                        msg.imm = ((long) (s & 0xFFFFFF) << 8) | m;
                        r.post(msg);
                    }
                });
            }
            if (step + 1 < steps) step(sim, reqs, delays, at + period, step + 1, steps, period, size);
        });
    }

    /**
     * rocev2-off-rail-peer: host 10.0.0.1 writes to four peers; three share its /24 rail subnet, the fourth was
     * given an address of another subnet (10.0.1.5): its traffic still flows, through the spine.
     */
    static Roles offRailPeer(Sim sim, Cm cm) {
        Params p = sim.params;
        Host[] h = hosts(sim, 5);
        h[4].readdress((10 << 24) | (1 << 8) | 5);
        for (int j = 1; j < h.length; j++) {
            RcQp[] pair = rcPair(sim, cm, h[0], h[j], false, false, false, j == 1, 1_000 + 500L * j, false);
            pair[0].source = source(sim, "write", p.i("messages"));
            if (j == 4) {
                sim.failures.add(new Sim.Failure(pair[0].flow, "off_rail_peer", -1,
                        Sim.ordered("rail", "10.0.0.0/24", "peer", h[4].ip)));
            }
        }
        return new Roles(h[0], h[1]);
    }

    /**
     * rocev2-cm-mtu-mismatch: the connection's CM REQ carries path MTU 1024 (what the path allows) but the QP was
     * set to 4096 (an application override): the requester's First/Middle packets carry 4096 bytes.
     */
    static Roles cmMtuMismatch(Sim sim, Cm cm) {
        Params p = sim.params;
        Host[] h = hosts(sim, 2);
        RcQp[] pair = rcPair(sim, cm, h[0], h[1], false, false, false, true, 1_000, true);
        pair[0].source = source(sim, "write", p.i("messages"));
        pair[0].cmPathMtu = 1024;
        sim.failures.add(new Sim.Failure(pair[0].flow, "mtu_cm_mismatch", -1,
                Sim.ordered("cm_path_mtu", 1024, "pmtu", pair[0].pmtu)));
        return new Roles(h[0], h[1]);
    }

    /**
     * rocev2-gid-misconfig: fd00::1 (the tap host) is written to by ::ffff:10.0.0.2 (an IPv4-mapped GID used as an
     * IPv6 address) and by fe80::3 (a link-local GID); each sender's QP is the fault.
     */
    static Roles gidMisconfig(Sim sim, Cm cm) {
        Params p = sim.params;
        Host[] h = hosts(sim, 3);
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        mapped[12] = 10;
        mapped[15] = 2;
        h[1].readdress6(mapped);
        byte[] linkLocal = new byte[16];
        linkLocal[0] = (byte) 0xFE;
        linkLocal[1] = (byte) 0x80;
        linkLocal[15] = 3;
        h[2].readdress6(linkLocal);
        String[] causes = {null, "gid_ipv4_mapped", "gid_link_local"};
        for (int j = 1; j < h.length; j++) {
            RcQp[] pair = rcPair(sim, cm, h[j], h[0], false, false, false, false, 1_000 + 500L * j, false);
            pair[0].source = source(sim, "write", p.i("messages"));
            sim.failures.add(new Sim.Failure(pair[0].flow, causes[j], -1, Sim.ordered("src", h[j].ip, "dst", h[0].ip)));
        }
        return new Roles(h[0], h[1]);
    }

    /** When rocev2-source-address-change's host comes back with its new address. */
    static final long READDRESS_AT_NS = 150_000;

    /**
     * rocev2-source-address-change: a QP pair 10.0.0.1 -> 10.0.0.2 writes a first batch and falls silent; at
     * 150 us 10.0.0.1's port is back with the address 10.0.0.101. A QP pair set up after that works; the old QP
     * sends its next message from the new address (same QP, same UDP ports) while its peer still answers the
     * old one, which no host has any more: it resends its first new PSN and gives up.
     */
    static Roles sourceAddressChange(Sim sim, Cm cm) {
        Params p = sim.params;
        Host[] h = hosts(sim, 2);
        RcQp[] old = rcPair(sim, cm, h[0], h[1], false, false, false, true, 1_000, false);
        old[0].source = source(sim, "write", p.i("messages"));
        sim.at(READDRESS_AT_NS, () -> {
            Flow before = old[0].flow;
            h[0].readdress((10 << 24) | 101);
            Flow moved = sim.flow(h[0], h[1], old[1].qpn, "rocev2", "rc");
            moved.srcQp = old[0].qpn;
            moved.peer = before.peer;
            old[0].flow = moved;
            sim.readdressed.add(moved);
            java.util.Map<String, Object> d = Sim.ordered("old_src", Addresses.ipv4(before.srcIpv4), "new_src", h[0].ip);
            sim.failures.add(new Sim.Failure(moved, "source_address_changed", sim.now, d));
            old[0].source = source(sim, "write", p.i("messages"));
            old[0].pump();
            RcQp[] fresh = rcPair(sim, cm, h[0], h[1], false, false, false, false, sim.now + 2_000, false);
            // Long enough to outlast the old QP's retries: the capture shows it gave up.
            fresh[0].source = source(sim, "write", 8 * p.i("messages"));
        });
        return new Roles(h[0], h[1]);
    }

    /** rocev2-read-atomic: the generic set-up plus one lost READ response (the second of a multi-packet READ). */
    static Roles readAtomic(Sim sim, Cm cm) {
        Roles r = generic(sim, cm);
        onNth(sim, f -> f.src == r.receiver() && f.service.equals("rc"), p -> p.opcode == 0x0E || p.opcode == 0x0F, 1,
                p -> p.forceDrop = true);
        return r;
    }

    // ================================================================== hooks for planted events

    /** Runs action on the n-th packet (1-based) of a flow matching flowTest that satisfies test. */
    static void onNth(Sim sim, Predicate<Flow> flowTest, Predicate<Pkt> test, int n, Consumer<Pkt> action) {
        int[] c = {0};
        sim.sendHooks.add(p -> {
            if (!flowTest.test(p.flow) || !test.test(p)) return false;
            if (++c[0] < n) return false;
            action.accept(p);
            return true;
        });
    }

    static void onNth(Sim sim, Flow flow, Predicate<Pkt> test, int n, Consumer<Pkt> action) {
        onNth(sim, f -> f == flow, test, n, action);
    }

    static boolean isData(Pkt p) { return RcQp.isRequest(p.opcode); }

    // ================================================================== conformance-violations

    /** One connection per rule, each planting one violation (see the truth's descriptions). */
    static final class Conformance {
        private final Sim sim;
        private final Cm cm;
        private final Host a, b;
        private long t = 2_000;

        private Conformance(Sim sim, Cm cm, Host a, Host b) {
            this.sim = sim;
            this.cm = cm;
            this.a = a;
            this.b = b;
        }

        static Roles build(Sim sim, Cm cm) {
            Host[] h = hosts(sim, 2);
            Conformance c = new Conformance(sim, cm, h[0], h[1]);
            c.plantAll();
            return new Roles(h[0], h[1]);
        }

        private void note(String rule, String text) { sim.violationNotes.put(rule, text); }

        /** A connection a -> b (or b -> a when reversed) started at the next slot, with its messages. */
        private RcQp[] conn(boolean meta, boolean spray, boolean credit, boolean reversed, RcQp.Msg... msgs) {
            RcQp[] q = reversed ? rcPair(sim, cm, b, a, meta, spray, credit, false, t, true)
                    : rcPair(sim, cm, a, b, meta, spray, credit, false, t, true);
            t += 14_000;
            for (RcQp.Msg m : msgs) q[0].work.add(m);
            return q;
        }

        private static RcQp.Msg write(int len) { return new RcQp.Msg(RcQp.Op.WRITE, len); }

        private static RcQp.Msg send(int len) { return new RcQp.Msg(RcQp.Op.SEND, len); }

        private static RcQp.Msg[] writes(int n, int len) {
            RcQp.Msg[] m = new RcQp.Msg[n];
            for (int i = 0; i < n; i++) m[i] = write(len);
            return m;
        }

        private void mutate(Flow f, Predicate<Pkt> test, int n, String rule, Pkt.FrameMutation mutation) {
            onNth(sim, f, test, n, p -> {
                p.mutation = mutation;
                p.violation = rule;
            });
        }

        /** A stand-alone frame a -> b to a QP nobody owns (a flow of its own), mutated after it is built. */
        private void raw(String rule, int opcode, int payload, Pkt.FrameMutation mutation) {
            int qpn = sim.newQpn();
            Flow f = sim.flow(a, b, qpn, "rocev2", "raw");
            long at = t;
            t += 4_000;
            sim.at(at, () -> {
                Pkt p = new Pkt();
                p.src = a;
                p.dst = b;
                p.flow = f;
                p.destQp = qpn;
                p.opcode = opcode;
                p.psn = sim.rng.nextInt(1 << 24);
                p.ackReq = true;
                p.sport = 0xC000 | (qpn & 0x3FFF);
                p.dscp = a.dscp;
                p.payloadLen = payload;
                p.payloadSeed = qpn;
                p.rethVa = 0x7F00_0000_0000L;
                p.rethRkey = 0x42;
                p.rethLen = payload;
                p.mutation = mutation;
                p.violation = rule;
                sim.send(p);
            });
        }

        private static boolean fromB(Pkt p, Host b) { return p.src == b; }

        void plantAll() {
            // clean background: RoCEv2 and MetaRoCE connections with mixed work, UD datagrams (generic adds UD)
            RcQp[] bg1 = rcPair(sim, cm, a, b, false, false, false, true, 1_000, true);
            bg1[0].source = source(sim, "mixed", 6);
            RcQp[] bg2 = rcPair(sim, cm, a, b, true, true, false, false, 1_500, true);
            bg2[0].source = source(sim, "write", 4);
            UdQp ua = new UdQp(sim, a, sim.newQpn()), ub = new UdQp(sim, b, sim.newQpn());
            UdQp.pair(ua, ub);
            int[] udPsn = {sim.rng.nextInt(1 << 24)};
            ua.stream(3_000, 4, 40_000, 512, udPsn);

            // ---- frame rules
            RcQp[] c = conn(false, false, false, false, writes(3, 256));
            note("MR-FRAME-001", "ACK from the responder with a corrupted ICRC (the requester drops it; the next ACK covers it)");
            onNth(sim, c[1].flow, p -> p.opcode == 0x11, 1, p -> {
                p.badIcrc = true;
                p.violation = "MR-FRAME-001";
            });
            c = conn(false, false, false, false, writes(3, 256));
            note("MR-FRAME-002", "ACK whose UDP length is 4 bytes more than the IP payload");
            mutate(c[1].flow, p -> p.opcode == 0x11, 1, "MR-FRAME-002",
                    (l, s) -> Udp.length(s, l.udpOffset, Udp.length(s, l.udpOffset) + 4));
            c = conn(false, false, false, false, writes(3, 256));
            note("MR-FRAME-003", "ACK with a non-zero, wrong UDP checksum (0x1234)");
            mutate(c[1].flow, p -> p.opcode == 0x11, 1, "MR-FRAME-003", (l, s) -> Udp.checksum(s, l.udpOffset, 0x1234));
            c = conn(false, false, false, false, write(256), send(10), write(256));
            note("MR-FRAME-004", "SEND Only with 10 payload bytes and no pad (payload + pad not a multiple of 4)");
            onNth(sim, c[0].flow, p -> p.opcode == 0x04, 1, p -> {
                p.noPad = true;
                p.violation = "MR-FRAME-004";
            });

            // ---- header rules
            note("MR-HDR-001", "stand-alone RDMA WRITE Only with BTH tver 2");
            raw("MR-HDR-001", 0x0A, 32, (l, s) -> Bth.tver(s, l.bthOffset, 2));
            note("MR-HDR-002", "stand-alone packet with the reserved opcode 0xC0");
            raw("MR-HDR-002", 0x0A, 32, (l, s) -> Bth.opcode(s, l.bthOffset, 0xC0));
            c = conn(false, false, false, false, writes(2, 1024));
            note("MR-HDR-003", "WRITE packet with BTH resv7 = 0x2A");
            mutate(c[0].flow, Scenarios::isData, 2, "MR-HDR-003", (l, s) -> Bth.resv7(s, l.bthOffset, 0x2A));
            c = conn(true, true, false, false, writes(2, 1024));
            note("MR-HDR-004", "MetaRoCE WRITE packet with MRTH version 2");
            mutate(c[0].flow, Scenarios::isData, 2, "MR-HDR-004",
                    (l, s) -> Mrth.version(s, l.offset[Mrth.HEADER], 2));
            note("MR-HDR-005", "stand-alone RDMA WRITE Only with 8 bytes after the BTH: its 16-byte RETH is missing");
            raw("MR-HDR-005", 0x04, 8, (l, s) -> Bth.opcode(s, l.bthOffset, 0x0A));
            RcQp[] h6 = conn(true, true, false, false, send(1536), send(1536));
            note("MR-HDR-006", "MetaRoCE SEND on path 0 with MRTH spray = 0 in a QP direction that sprays");
            mutate(h6[0].flow, p -> isData(p) && p.pathId == 0 && p.psn != h6[0].startPsn, 1, "MR-HDR-006",
                    (l, s) -> Mrth.spray(s, l.offset[Mrth.HEADER], false));

            // ---- sequence rules
            c = conn(false, false, false, false, writes(3, 512));
            note("MR-SEQ-001", "the requester skips two PSNs between two new packets (the responder tolerates it)");
            c[0].skipPsnAtPacket = 3;
            c[0].skipViolation = "MR-SEQ-001";
            c[1].tolerant = true;
            RcQp.Msg abandoned = write(1536);
            abandoned.abandonAfterFirst = true;
            RcQp.Msg next = write(1024);
            next.violation = "MR-SEQ-002";
            next.violationIndex = 0;
            note("MR-SEQ-002", "WRITE First of a new message while the previous WRITE (First only) never ended");
            conn(false, false, false, false, write(512), abandoned, next);
            RcQp.Msg shrink = write(1400);
            shrink.middleShrink = 8;
            shrink.violation = "MR-SEQ-003";
            shrink.violationIndex = 1;
            note("MR-SEQ-003", "WRITE Middle carrying PMTU - 8 bytes (the Last carries 8 more)");
            conn(false, false, false, false, write(512), shrink);
            RcQp.Msg lying = write(400);
            lying.rethDelta = 100;
            lying.violation = "MR-SEQ-004";
            lying.violationIndex = 0;
            note("MR-SEQ-004", "WRITE Only whose RETH dma_length is 100 bytes more than its payload");
            conn(false, false, false, false, write(512), lying);
            RcQp.Msg skipId = write(1024);
            skipId.msgIdSkip = 1;
            skipId.violation = "MR-SEQ-005";
            skipId.violationIndex = 0;
            note("MR-SEQ-005", "MetaRoCE message whose msg_id is the previous one + 2");
            conn(true, true, false, false, write(1024), write(1024), skipId);

            // ---- acknowledgement rules
            RcQp[] ack1 = conn(false, false, false, false, writes(3, 256));
            note("MR-ACK-001", "extra ACK from the responder for a PSN 5 beyond the highest PSN sent");
            onNth(sim, ack1[1].flow, p -> p.opcode == 0x11, 1, p -> sim.after(300, () -> {
                Pkt x = ack1[1].newAck(RcQp.psn(ack1[0].sndNxt + 5), 0x1F);
                x.violation = "MR-ACK-001";
                ack1[1].inject(x);
            }));
            RcQp[] ack2 = conn(false, false, false, false, writes(3, 256));
            note("MR-ACK-002", "extra NAK PSN-sequence-error for a PSN the responder had already acknowledged");
            onNth(sim, ack2[1].flow, p -> p.opcode == 0x11, 1, p -> {
                int acked = p.psn;
                sim.after(300, () -> {
                    Pkt x = ack2[1].newAck(acked, 0x60);
                    x.violation = "MR-ACK-002";
                    ack2[1].inject(x);
                });
            });
            RcQp[] ack3 = conn(false, false, false, false, writes(4, 256));
            note("MR-ACK-003", "ACK whose AETH MSN is lower than the previous ACK's");
            int[] firstMsn = {-1};
            onNth(sim, ack3[1].flow, p -> p.opcode == 0x11 && p.msn > 0, 1, p -> firstMsn[0] = p.msn);
            onNth(sim, ack3[1].flow, p -> p.opcode == 0x11 && firstMsn[0] > 0 && p.msn > firstMsn[0], 1, p -> {
                p.msn = firstMsn[0] - 1;
                p.violation = "MR-ACK-003";
            });
            RcQp[] ack4 = conn(true, true, false, false, writes(3, 1024));
            note("MR-ACK-004", "extra MR-SACK whose cum_psn is 2 below the responder's previous MR-SACK");
            onNth(sim, ack4[1].flow, p -> p.opcode == 0xE0, 2, p -> {
                int cumAt = p.cumPsn;
                sim.after(300, () -> {
                    Pkt x = ack4[1].newControl(0xE0, 0);
                    x.cumPsn = RcQp.psn(cumAt - 2);
                    x.basePsn = RcQp.psn(cumAt - 1);
                    x.psn = RcQp.psn(cumAt - 3);
                    x.violation = "MR-ACK-004";
                    ack4[1].inject(x);
                });
            });

            // ---- retransmission rules
            RcQp[] r1 = conn(false, false, false, false, write(2048), write(256));
            note("MR-RTX-001", "after a NAK for PSN p the requester first resends p + 1, then goes back to p");
            onNth(sim, r1[0].flow, Scenarios::isData, 2, p -> p.forceDrop = true);
            r1[0].rtxWrongFirstViolation = "MR-RTX-001";
            RcQp[] r2 = conn(false, false, false, false, write(2048), write(256));
            note("MR-RTX-002", "retransmission whose payload differs from the original (one byte flipped)");
            onNth(sim, r2[0].flow, Scenarios::isData, 2, p -> p.forceDrop = true);
            onNth(sim, r2[0].flow, p -> isData(p) && p.isRetransmission(), 1, p -> {
                p.violation = "MR-RTX-002";
                p.mutation = (l, s) -> s.set(ValueLayout.JAVA_BYTE, l.payloadOffset,
                        (byte) ~s.get(ValueLayout.JAVA_BYTE, l.payloadOffset));
            });
            RcQp[] r3 = conn(true, true, false, false, write(3072), write(1024));
            note("MR-RTX-003", "MetaRoCE retransmission sent with rtx = 0 (two copies of the PSN with rtx = 0)");
            onNth(sim, r3[0].flow, Scenarios::isData, 2, p -> p.forceDrop = true);
            onNth(sim, r3[0].flow, p -> isData(p) && p.isRetransmission(), 1, p -> {
                p.rtx = false;
                p.violation = "MR-RTX-003";
            });
            RcQp[] r4 = conn(true, true, false, false, write(2048), write(1024));
            note("MR-RTX-004", "MetaRoCE sender resends a PSN 20 us after an MR-SACK covering it reached it");
            Pkt[] firstData = {null};
            onNth(sim, r4[0].flow, Scenarios::isData, 1, p -> firstData[0] = p);
            onNth(sim, r4[1].flow, p -> p.opcode == 0xE0, 1, p -> sim.after(20_000, () -> {
                Pkt x = firstData[0].copy();
                x.rtx = true;
                x.cause = Pkt.CAUSE_TIMEOUT;
                x.pathId = (firstData[0].pathId + 1) % r4[0].pathCount;
                x.sport = r4[0].basePort + x.pathId;
                x.txTs = r4[0].host.clock(sim.now);
                x.violation = "MR-RTX-004";
                sim.spurious(x);
                r4[0].inject(x);
            }));
            RcQp[] r5 = conn(false, false, false, false, write(512), write(256), write(256));
            note("MR-RTX-005", "RoCEv2 retransmission after a timeout (the last packet was lost, no NAK came): a note");
            onNth(sim, r5[0].flow, Scenarios::isData, 3, p -> p.forceDrop = true);
            onNth(sim, r5[0].flow, p -> isData(p) && p.isRetransmission(), 1, p -> p.violation = "MR-RTX-005");

            // ---- congestion rules (data b -> a so that the tap host a is the CNP sender)
            RcQp[] cc1 = conn(false, false, false, true, writes(3, 512));
            note("MR-CC-001", "second CNP 5 us after the first for the same QP (CNP interval 50 us)");
            onNth(sim, cc1[0].flow, Scenarios::isData, 1, p -> p.forceCe = true);
            cc1[1].extraCnpViolation = "MR-CC-001";
            RcQp[] cc2 = conn(false, false, false, true, writes(3, 512));
            note("MR-CC-002", "CE-marked packet that the receiver never answers with a CNP");
            onNth(sim, cc2[0].flow, Scenarios::isData, 2, p -> {
                p.forceCe = true;
                p.violation = "MR-CC-002";
            });
            cc2[1].suppressCnp = true;
            RcQp[] cc3 = conn(true, true, true, false, writes(2, 4096));
            note("MR-CC-003", "credit-mode sender sends a new packet at granted_psn (one past its credit)");
            cc3[0].creditOverrunViolation = "MR-CC-003";

            // ---- path rules
            RcQp[] p1 = conn(true, false, false, false, writes(2, 1024));
            note("MR-PATH-001", "QP direction with spray = 0 sends a packet on path 2 (source port base + 2)");
            mutate(p1[0].flow, Scenarios::isData, 2, "MR-PATH-001", (l, s) -> {
                Mrth.pathId(s, l.offset[Mrth.HEADER], 2);
                Udp.srcport(s, l.udpOffset, p1[0].basePort + 2);
            });
            RcQp[] p2 = conn(true, true, false, false, writes(2, 1024));
            note("MR-PATH-002", "packet whose UDP source port is 7 above base_port + path_id");
            mutate(p2[0].flow, Scenarios::isData, 3, "MR-PATH-002",
                    (l, s) -> Udp.srcport(s, l.udpOffset, Udp.srcport(s, l.udpOffset) + 7));

            // ---- control rules
            RcQp[] k1 = conn(true, true, false, false, writes(2, 1024));
            note("MR-CTL-001", "MR-PROBE with BTH ack_req = 1 (control packets carry flags 0)");
            sim.at(t - 6_000, () -> {
                Pkt x = k1[0].newControl(0xE4, 1);
                x.probeSeq = 7;
                x.ackReq = true;
                x.violation = "MR-CTL-001";
                k1[0].inject(x);
            });
            RcQp[] k2 = conn(true, true, false, false, writes(2, 1024));
            note("MR-CTL-002", "MR-PROBE-REPLY whose echo_timestamp is 1000 ns off the probe's tx_timestamp");
            sim.at(t - 6_000, () -> {
                Pkt x = k2[0].newControl(0xE4, 1);
                x.probeSeq = 9;
                k2[0].inject(x);
            });
            onNth(sim, k2[1].flow, p -> p.opcode == 0xE5, 1, p -> {
                p.echoTs = (p.echoTs + 1000) & 0xFFFF_FFFFL;
                p.violation = "MR-CTL-002";
            });
            RcQp[] k3 = conn(true, true, false, false, writes(3, 1024));
            note("MR-CTL-003", "extra MR-NACK for a PSN the responder's cum_psn already covers");
            onNth(sim, k3[1].flow, p -> p.opcode == 0xE0, 2, p -> {
                int cumAt = p.cumPsn;
                sim.after(300, () -> {
                    Pkt x = k3[1].newControl(0xE1, 0);
                    x.psn = RcQp.psn(cumAt - 2);
                    x.nackFirst = x.psn;
                    x.nackCount = 1;
                    x.violation = "MR-CTL-003";
                    k3[1].inject(x);
                });
            });

            // ---- UD rule
            note("MR-UD-001", "UD SEND Only carrying 4200 payload bytes (more than any PMTU)");
            long at = t;
            t += 4_000;
            sim.at(at, () -> {
                Pkt x = ua.datagram(udPsn[0], 4200, false);
                udPsn[0] = (udPsn[0] + 1) & 0xFFFFFF;
                x.violation = "MR-UD-001";
                ua.flow.messages++;
                sim.send(x);
            });
        }
    }

}
