package io.metaroce.samples;

/**
 * A two-tier fabric: every host hangs off a leaf; between leaves there are {@code paths} parallel spine paths.
 * A packet crosses its source NIC, one spine path (chosen by the MetaRoCE path_id, or by an ECMP hash of the
 * UDP source port for RoCEv2), then the receiver's downlink. Each spine path has a propagation delay, jitter,
 * a loss rate, an optional failure time and an egress queue; the downlink has an egress queue too. Queues
 * mark ECN CE above a threshold and tail-drop beyond their buffer. Paths stay FIFO despite the jitter.
 * The switch mirror sits at the spine egress, between the fabric path and the receiver's downlink.
 */
final class Fabric {
    static final long HOST_TO_LEAF_NS = 400, LEAF_TO_HOST_NS = 300;

    static final class Path {
        final int index;
        long delayNs, jitterNs;
        double loss;
        long downAt = Long.MAX_VALUE;
        double rateGbps;
        long freeAt, lastExit;
        long packets, lost, ce, dropsCongestion;

        Path(int index) { this.index = index; }
    }

    static final class Port {
        double rateGbps;
        long freeAt;
        long packets, lost, ce;
    }

    private final Sim sim;
    final double lineRate;
    final Path[] paths;
    private Port[] downlinks = new Port[0];
    final long ecnThreshold, buffer;
    final double bottleneck;

    Fabric(Sim sim) {
        this.sim = sim;
        Params p = sim.params;
        this.lineRate = p.d("line-rate-gbps");
        this.ecnThreshold = p.l("ecn-threshold-bytes");
        this.buffer = p.l("buffer-bytes");
        this.bottleneck = p.d("bottleneck-gbps");
        int n = Math.max(1, p.i("paths"));
        paths = new Path[n];
        int lossy = p.i("lossy-path"), down = p.i("path-down"), slow = p.i("slow-path");
        for (int k = 0; k < n; k++) {
            Path path = new Path(k);
            path.delayNs = p.l("delay-ns") + k * p.l("delay-step-ns") + (k == slow ? p.l("slow-path-extra-ns") : 0);
            path.jitterNs = p.l("jitter-ns");
            path.loss = lossy < 0 || lossy == k ? p.d("loss") : 0;
            if (k == down) path.downAt = p.us("path-down-at-us");
            path.rateGbps = lineRate;
            paths[k] = path;
        }
    }

    private Port port(Host h) {
        if (h.index >= downlinks.length) {
            downlinks = java.util.Arrays.copyOf(downlinks, Math.max(h.index + 1, downlinks.length * 2));
        }
        Port port = downlinks[h.index];
        if (port == null) {
            port = new Port();
            port.rateGbps = bottleneck > 0 ? Math.min(bottleneck, lineRate) : lineRate;
            downlinks[h.index] = port;
        }
        return port;
    }

    /** The fabric path a packet takes. */
    int pathOf(Pkt p) {
        if (p.tver == 1) return p.pathId % paths.length;
        // ECMP: a hash of the 5-tuple; for one QP direction only the source port varies.
        long h = (p.sport * 0x9E3779B97F4A7C15L) ^ ((long) p.src.index << 32) ^ p.dst.index;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 32;
        return (int) Math.floorMod(h, (long) paths.length);
    }

    /** The fault parameters: a black-holed QP pair, a host whose link is down. */
    private java.util.Set<Flow> failFlows = java.util.Set.of();
    private long failAt = Long.MAX_VALUE, hostDownAt = Long.MAX_VALUE;
    private int hostDown = -1;

    void failFlows(java.util.Set<Flow> flows, long at) {
        failFlows = flows;
        failAt = at;
    }

    void hostDown(int host, long at) {
        hostDown = host;
        hostDownAt = at;
    }

    /** IP MTU of the links (0: none): a longer IP packet is dropped. */
    private int linkMtu;

    void linkMtu(int mtu) { linkMtu = mtu; }

    private boolean faultDrops(Pkt p) {
        int vlan = p.src.vlan >= 0 ? 4 : 0;
        if (linkMtu > 0 && p.wireLength - 14 - vlan > linkMtu) return true;
        // Addressed to what the destination host no longer has (it was readdressed): no one takes it.
        if (p.flow != null && !p.dst.ipv6 && p.flow.dstIpv4 != p.dst.ipv4) return true;
        if (sim.now >= failAt && failFlows.contains(p.flow)) return true;
        return sim.now >= hostDownAt && (p.src.index == hostDown || p.dst.index == hostDown);
    }

    /** The packet leaves its host's NIC now. */
    void enter(Pkt p) {
        int k = pathOf(p);
        p.fabricPath = k;
        Path path = paths[k];
        path.packets++;
        long t = sim.now + sim.serializationNs(p.wireLength, lineRate) + HOST_TO_LEAF_NS;
        if (p.forceDrop || t >= path.downAt || faultDrops(p) || (!p.lossless && path.loss > 0 && sim.rng.nextDouble() < path.loss)) {
            path.lost++;
            sim.lost(p);
            return;
        }
        long start = Math.max(t, path.freeAt);
        long queued = Math.round((start - t) * path.rateGbps / 8);
        if (queued > buffer) {
            path.lost++;
            path.dropsCongestion++;
            sim.lost(p);
            return;
        }
        if (queued > ecnThreshold && p.ecn != 0) {
            sim.marked(p, 1);
            if (p.ceStage == 1) path.ce++;
        }
        path.freeAt = start + sim.serializationNs(p.wireLength, path.rateGbps);
        long exit = path.freeAt + path.delayNs + (path.jitterNs > 0 ? sim.rng.nextLong(path.jitterNs + 1) : 0);
        exit = Math.max(exit, path.lastExit);
        path.lastExit = exit;
        sim.at(exit, () -> spine(p, path));
    }

    /** The packet leaves the spine towards the receiver's leaf: the mirror point, then the downlink queue. */
    private void spine(Pkt p, Path path) {
        sim.tap.offerMirror(p, path.index);
        downlink(p);
    }

    /** The leaf's egress to the receiver: a frame of a PFC-paused class waits there (lossless: no drop). */
    private void downlink(Pkt p) {
        if (sim.pfc != null && sim.pfc.holdsAtDownlink(p)) {
            hold(p);
            return;
        }
        if (p.heldByPfc) {
            p.heldByPfc = false;
            p.flow.heldByPfc--;
        }
        Port port = port(p.dst);
        port.packets++;
        long start = Math.max(sim.now, port.freeAt);
        long queued = Math.round((start - sim.now) * port.rateGbps / 8);
        if (queued > buffer) {
            port.lost++;
            sim.lost(p);
            return;
        }
        if ((queued > ecnThreshold || p.forceCe) && p.ecn != 0) {
            sim.marked(p, 2);
            if (p.ceStage == 2) port.ce++;
        }
        long serialization = sim.serializationNs(p.wireLength, port.rateGbps);
        port.freeAt = start + serialization;
        if (start > sim.now && sim.pfc != null && sim.pfc.pausable(p)) {
            // PFC pauses the egress queue, not only what comes next: a frame of the class still queued when the
            // pause comes stays in the queue (its slot on the link goes unused).
            sim.at(start, () -> leavesQueue(p, serialization));
            return;
        }
        sim.at(port.freeAt + LEAF_TO_HOST_NS, () -> sim.arrived(p));
    }

    private void leavesQueue(Pkt p, long serialization) {
        if (sim.pfc.holdsAtDownlink(p)) {
            hold(p);
            return;
        }
        sim.at(sim.now + serialization + LEAF_TO_HOST_NS, () -> sim.arrived(p));
    }

    /** The frame waits in the paused queue and looks again when the pause may end (counted while it waits). */
    private void hold(Pkt p) {
        if (!p.heldByPfc) {
            p.heldByPfc = true;
            p.flow.heldByPfc++;
        }
        sim.at(sim.pfc.wakeAt(), () -> downlink(p));
    }
}
