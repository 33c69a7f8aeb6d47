package io.metaroce.samples;

/**
 * 802.1Qbb priority flow control from one host's NIC (pfc-host): it pauses its switch port for one priority class
 * with PFC frames, from pfc-at-us on, either without end (pfc-run-us=0: a NIC stuck paused, a PFC storm) or in runs of
 * pfc-run-us every pfc-every-us (a slow receiver). An XOFF asks for 65535 quanta and is refreshed every pfc-refresh-us
 * while the run lasts; an XON (quanta 0) ends a run. While the class is paused the leaf holds that priority's frames
 * to the host (its downlink), and the other hosts' NICs hold theirs on it (the leaf's ingress buffers fill and it
 * pauses its other ports: the storm spreads upstream). The host itself keeps sending (ACKs, CNPs). Only a mirror of
 * the host's switch port (tap=port) shows the PFC frames. State: a few longs; the held frames are events.
 */
final class Pfc {
    static final int QUANTA = 0xFFFF;

    private final Sim sim;
    final Host host;
    final int priority;
    private final long at, run, every, refresh, quantaNs;
    /** Until when the class is paused: the last XOFF's quanta run out, or the XON came. */
    private long pausedUntil = Long.MIN_VALUE;
    /** When the current run's XON comes (Long.MAX_VALUE in a storm), so held frames wake at it. */
    private long runEnd = Long.MIN_VALUE;
    long xoffFrames, xonFrames;

    Pfc(Sim sim, Host host) {
        this.sim = sim;
        this.host = host;
        Params p = sim.params;
        this.priority = p.i("pfc-priority");
        this.at = p.us("pfc-at-us");
        this.run = p.us("pfc-run-us");
        this.every = p.us("pfc-every-us");
        this.refresh = p.us("pfc-refresh-us");
        // A quantum is 512 bit times on the host's link.
        this.quantaNs = Math.round(QUANTA * 512 / sim.fabric.lineRate);
    }

    void start() { sim.at(at, this::runStarts); }

    /** First instant of the pauses (the first XOFF). */
    long startNs() { return at; }

    long runNs() { return run; }

    long everyNs() { return every; }

    private void runStarts() {
        if (!sim.running()) return;
        runEnd = run > 0 ? sim.now + run : Long.MAX_VALUE;
        xoff();
        if (run > 0) sim.at(runEnd, this::xon);
        if (every > 0) sim.after(every, this::runStarts);
    }

    private void xoff() {
        send(QUANTA);
        xoffFrames++;
        pausedUntil = sim.now + quantaNs;
        long next = sim.now + refresh;
        if (next < runEnd) sim.at(next, this::refreshes);
    }

    private void refreshes() {
        if (sim.running() && sim.now < runEnd) xoff();
    }

    private void xon() {
        send(0);
        xonFrames++;
        pausedUntil = sim.now;
    }

    private void send(int quanta) {
        Pkt p = new Pkt();
        p.src = host;
        p.pfcClasses = 1 << priority;
        p.pfcQuanta = quanta;
        sim.tap.offerPfc(p, host);
    }

    private boolean paused() { return sim.now < pausedUntil; }

    /** Whether a NIC must hold a frame of this flow now (another host's NIC, on the paused class). */
    boolean holdsAtNic(Host src, Flow flow) {
        return src != host && flow != null && flow.pcp == priority && paused();
    }

    /** Whether the frame goes to the host on the class it pauses (its downlink queue may hold it). */
    boolean pausable(Pkt p) {
        return p.dst == host && p.flow != null && p.flow.pcp == priority;
    }

    /** Whether the leaf must hold this frame to the host now (the paused class on its downlink). */
    boolean holdsAtDownlink(Pkt p) { return pausable(p) && paused(); }

    /** When a held frame looks again: the run's XON, or where the pause runs out unless refreshed. */
    long wakeAt() { return Math.min(pausedUntil, runEnd); }
}
