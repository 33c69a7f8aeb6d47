package io.metaroce.analysis;

import java.util.HashMap;

/**
 * ECN and CNP accounting (§12, MR-CC-002): CE marks, the CNPs the notification point is expected to send
 * (paced per QP, IP pair or destination), the CNPs seen, and CE marks without a CNP or rate reaction inside
 * the reaction window, judged where the receiver's reaction is visible. Not thread-safe.
 */
final class Congestion {
    private final AnalysisSettings settings;
    private final VerdictSink sink;
    private final FlowTable flows;
    /** [last expected CNP time, last actual CNP time] per pacing key (not used for per-QP pacing). */
    private final HashMap<Long, long[]> pacing = new HashMap<>();
    private final CeQueue ceQueue = new CeQueue();

    Congestion(AnalysisSettings settings, VerdictSink sink, FlowTable flows) {
        this.settings = settings;
        this.sink = sink;
        this.flows = flows;
    }

    /** A CNP or MR-CNP on flow g. */
    void cnp(Flow g, FrameFacts f) {
        boolean mr = f.hasMrCnp;
        Flow fl = flows.about(g, -1, false);
        if (fl == null) {
            g.unattributedControl++;
            if (mr) g.pendingMrCnps++;
            g.pendingCnps++;
        } else {
            fl.cnps++;
            if (mr) {
                fl.mrCnps++;
                fl.path(f.cnpPath).mrCnps++;
            }
            fl.lastCnpTime = f.timeNs;
            loop(fl, f.timeNs).cnp(f.timeNs, f.number, mr ? f.cnpPath : 0);
            fl.lastReactionTime = f.timeNs;
            long[] k = pacingSlot(fl);
            if (k != null) k[1] = f.timeNs;
        }
        sink.cnp(fl, g, f, mr);
    }

    /** A CE-marked request of fl (path: its MetaRoCE path, 0 for RoCEv2). */
    void ceMark(Flow fl, FrameFacts f, int path) {
        sink.ceMark(fl, f, path);
        loop(fl, f.timeNs).ce(f.timeNs, f.number, path);
        // Expected CNPs: the notification point sends at most one per interval per pacing key.
        long[] k = pacingSlot(fl);
        long lastExpected = k != null ? k[0] : fl.lastExpectedCnp;
        if (f.timeNs - lastExpected >= settings.cnpIntervalNs()) {
            fl.cnpExpected++;
            if (k != null) k[0] = f.timeNs;
            else fl.lastExpectedCnp = f.timeNs;
        }
        // CE without CNP is judged where the receiver's reaction is visible (§11 c, MR-CC-002: R).
        boolean judge = fl.view == View.RECEIVER || (fl.view == View.MIRROR && fl.peer != null && fl.peer.packets > 0);
        if (!judge) return;
        long lastCnp = k != null ? k[1] : fl.lastCnpTime;
        boolean paced = f.timeNs - lastCnp <= settings.cnpIntervalNs();
        if (paced) return;
        ceQueue.add(f.number, f.timeNs, fl, sink.ceWithoutCnpPending(fl, f, path));
    }

    /** The flow's congestion loop, made at its first CE mark or CNP (only such flows measure their rate). */
    private CongestionLoop loop(Flow fl, long t) {
        if (fl.loop == null) fl.loop = new CongestionLoop(settings.ccRateWindowNs(), settings.cnpIntervalNs(), t);
        return fl.loop;
    }

    /** [last expected CNP time, last actual CNP time] of the flow's pacing key, or null for per-QP pacing. */
    private long[] pacingSlot(Flow fl) {
        if (settings.cnpPacing() == AnalysisSettings.CnpPacing.QP) return null;
        FlowKey k = fl.key;
        long key = settings.cnpPacing() == AnalysisSettings.CnpPacing.IP_PAIR
                ? (k.srcHi * 31 + k.srcLo) * 0x9E3779B97F4A7C15L ^ (k.dstHi * 17 + k.dstLo)
                : (k.srcHi * 31 + k.srcLo) * 0xC2B2AE3D27D4EB4FL;
        return pacing.computeIfAbsent(key, x -> new long[] {Long.MIN_VALUE / 4, Long.MIN_VALUE / 4});
    }

    /**
     * Decides CE marks whose reaction window has passed by time t. Called for every frame: the test for an empty
     * queue (nearly always) is small enough for C1 to inline into the caller, the loop is a call only when a mark
     * waits.
     */
    void expire(long t) {
        if (!ceQueue.isEmpty()) expireDue(t);
    }

    private void expireDue(long t) {
        while (!ceQueue.isEmpty() && ceQueue.headTime() + settings.ceWindowNs() < t) {
            Flow fl = ceQueue.headFlow();
            long ceTime = ceQueue.headTime();
            long frame = ceQueue.headFrame();
            PendingEvent e = ceQueue.headEvent();
            ceQueue.poll();
            sink.ceDecided(fl, frame, e, fl.lastReactionTime >= ceTime);
        }
    }

    /** The end of the pass: CE marks still inside their window are not judged. */
    void finish() {
        while (!ceQueue.isEmpty()) {
            long frame = ceQueue.headFrame();
            PendingEvent e = ceQueue.headEvent();
            ceQueue.poll();
            sink.ceUndecidedAtEnd(frame, e);
        }
    }

    /** Primitive FIFO of CE marks waiting for their reaction window to pass. */
    private static final class CeQueue {
        private long[] frame = new long[64], time = new long[64];
        private Flow[] flow = new Flow[64];
        private PendingEvent[] ev = new PendingEvent[64];
        private int head, size;

        boolean isEmpty() { return size == 0; }

        void add(long fr, long t, Flow fl, PendingEvent e) {
            if (size == frame.length) grow();
            int i = (head + size++) & (frame.length - 1);
            frame[i] = fr;
            time[i] = t;
            flow[i] = fl;
            ev[i] = e;
        }

        long headTime() { return time[head]; }
        long headFrame() { return frame[head]; }
        Flow headFlow() { return flow[head]; }
        PendingEvent headEvent() { return ev[head]; }

        void poll() {
            flow[head] = null;
            ev[head] = null;
            head = (head + 1) & (frame.length - 1);
            size--;
        }

        private void grow() {
            int n = frame.length * 2;
            long[] a = new long[n], b = new long[n];
            Flow[] c = new Flow[n];
            PendingEvent[] d = new PendingEvent[n];
            for (int k = 0; k < size; k++) {
                int i = (head + k) & (frame.length - 1);
                a[k] = frame[i];
                b[k] = time[i];
                c[k] = flow[i];
                d[k] = ev[i];
            }
            frame = a;
            time = b;
            flow = c;
            ev = d;
            head = 0;
        }
    }
}
