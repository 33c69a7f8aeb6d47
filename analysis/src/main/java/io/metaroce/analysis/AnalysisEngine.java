package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.dissector.Dissection;
import io.metaroce.protocol.OpcodeDef;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The streaming analysis of RoCEv2 and MetaRoCE v1 captures (spec §12): one sequential pass over the frames,
 * like Wireshark's TCP analysis. Feed frames in capture order with {@link #accept(Dissection)} (or
 * {@link #accept(FrameFacts)} from a decode thread), then call {@link #finish}. It
 *
 * <ul>
 *   <li>keys QP flows by (src IP, dst IP, dest_qp) and pairs the two directions of an RC connection from CM
 *       REQ/REP, else from the PSNs that ACKs, NAKs, SACKs and READ responses refer to;</li>
 *   <li>labels frames (retransmission and its cause, spurious, out of order, duplicate, PSN gap, ACK of unseen
 *       PSNs, CE without CNP, latencies, message completion) into a {@link VerdictStore} that
 *       {@link AnalysisFrameFields} renders as {@code analysis.*} fields;</li>
 *   <li>emits {@link AnalysisEvent}s to a listener in frame order (events whose verdict waits for a later
 *       frame are held until decided, at most {@link #MAX_HOLD_NS} of capture time);</li>
 *   <li>accumulates per-flow and per-path results, returned by {@link #finish}.</li>
 * </ul>
 *
 * <p>What a verdict may use depends on where the capture was taken (§11): at the sender's host (S) a PSN
 * skipped is capture loss and spuriousness shows only through later acknowledgements; at the receiver's host
 * (R) the responder's state is visible; a mirror (M) is judged like R without claiming capture loss. Memory is
 * per live flow (its PSN window and open messages); idle flows release their state. Not thread-safe.
 *
 * <p>The engine is the coordinator: it keeps the capture counters and hands each frame to the part that judges
 * it ({@link FlowTable}, {@link ConnectionSetup}, {@link RequestStream}, {@link Acknowledgements},
 * {@link SelectiveAcks}, {@link MetaRoceControl}, {@link Congestion}); every decision they take goes through
 * one {@link VerdictSink}, which updates counters, stored verdicts and events together.
 */
public final class AnalysisEngine {
    /** Receives events in frame order. */
    public interface EventListener {
        void event(AnalysisEvent e);
    }

    /** Longest a pending event is held back waiting for the frame that decides it (capture time). */
    public static final long MAX_HOLD_NS = 1_000_000_000L;
    /**
     * Capture points that merge two directions (ibdump, mirror ports) can write a request a few microseconds
     * after the acknowledgement that covers it. A first copy this close behind its acknowledgement is the
     * original, reordered by the capture; a resend after a lost acknowledgement comes a timeout later.
     */
    static final long CAPTURE_REORDER_NS = 50_000;

    private final AnalysisSettings settings;
    private final VerdictSink sink;
    private final FlowTable flows;
    private final ConnectionSetup cm;
    private final Congestion congestion;
    /** PAUSE/PFC frames (analyze's "Flow control" section); only frames that are not RoCE reach it. */
    private final FlowControl flowControl;
    private final MetaRoceControl control;
    private final RetransmissionVerdicts retxVerdicts;
    private final UnseenAcks unseen;
    private final RequestStream stream;
    private final Acknowledgements acks;
    private final SelectiveAcks sacks;
    /** The RC message bursts (analyze's "Steps"): fed by the request stream's first copies. */
    private final Steps steps = new Steps();
    private FlowFrameRecorder flowFrames;
    /** The messages of the request streams (analyze --messages, the GUI's Messages window), or null: not asked. */
    private MessageTracker messages;
    private String tapNote;

    // Capture-level counters.
    long frames, roceFrames, bytes, firstNs = -1, lastNs, truncatedFrames, unjudgedFrames;
    private long nextExpiryCheck;
    private boolean finished;

    /** An engine that records per-frame verdicts (for {@link AnalysisFrameFields}) and sends events to listener. */
    public AnalysisEngine(AnalysisSettings settings, boolean recordVerdicts, EventListener listener) {
        this.settings = settings;
        sink = new VerdictSink(recordVerdicts ? new VerdictStore() : null, listener);
        flows = new FlowTable(settings);
        cm = new ConnectionSetup(settings, flows);
        congestion = new Congestion(settings, sink, flows);
        flowControl = new FlowControl(settings.quantumNs());
        control = new MetaRoceControl(settings, sink, flows);
        retxVerdicts = new RetransmissionVerdicts(settings, sink, control);
        unseen = new UnseenAcks(sink);
        RetransmissionCauses causes = new RetransmissionCauses();
        stream = new RequestStream(settings, sink, causes, retxVerdicts, unseen, congestion, control);
        acks = new Acknowledgements(settings, sink, flows, stream, causes, retxVerdicts, unseen);
        sacks = new SelectiveAcks(settings, sink, flows, acks, retxVerdicts, unseen);
        stream.steps = steps;
        setTap(settings.tap(), null);
    }

    public AnalysisEngine(AnalysisSettings settings) { this(settings, true, null); }

    public AnalysisSettings settings() { return settings; }

    /** The verdict store (null when not recording). */
    VerdictStore verdicts() { return sink.store(); }

    /**
     * Sets the tap this capture was taken at (a resolved auto setting); must be called before the first frame.
     * note: how an auto setting was resolved, for the report.
     */
    public void setTap(Tap t, String note) {
        flows.setTap(t);
        tapNote = note;
    }

    public Tap tap() { return flows.tap(); }

    /**
     * Records each flow's frame numbers and file offsets ({@link FrameFacts#fileOffset}) from now on; call
     * before the first frame. Off by default: 2-3 bytes per frame (varint deltas).
     */
    public void recordFlowFrames() {
        if (flowFrames == null) flowFrames = new FlowFrameRecorder();
    }

    /**
     * Hands each message of the request streams to l as it is decided ({@link MessageTracker}); call before the
     * first frame. Off by default: then a frame costs one null check more.
     */
    public void onMessages(RdmaMessage.Listener l) {
        messages = l == null ? null : new MessageTracker(l);
    }

    /**
     * No open messages per request stream and no ACK round-trip or message-completion distributions from now on
     * (call before the first frame): see {@link AnalysisSession#withoutStatistics}. The flow results then count
     * no messages and report no such latencies; events and other verdicts are unchanged.
     */
    void withoutStatistics() {
        stream.statistics = false;
        acks.statistics = false;
    }

    /** Told of each flow the bound evicts, with its result as it stood and its recorded frames. */
    @FunctionalInterface
    public interface EvictionListener {
        /**
         * On the analysis thread, as the flow leaves the table (its pending verdicts decided, as for an idle
         * flow). Events about it that were held back may still follow.
         *
         * @param frames the flow's frames ({@link #recordFlowFrames}; empty when not recording)
         */
        void evicted(FlowSummary flow, FrameList frames);
    }

    private EvictionListener evictionListener;

    /**
     * Hands out each evicted flow that carried packets (more QPs than {@link AnalysisSettings#maxFlows}): without
     * it, only its totals stay. Call before the first frame.
     */
    public void onEviction(EvictionListener l) { evictionListener = l; }

    /** Told of each flow the bound evicts, after its result went to the eviction listener (the frame stages' state). */
    private java.util.function.Consumer<QpFlow> dropped;

    /** The frame stages' hook: their per-flow state of an evicted flow goes with it ({@link AnalysisSession.FrameStages#evicted}). */
    void onDropped(java.util.function.Consumer<QpFlow> d) { dropped = d; }

    /** The heap (MiB) the flow bound was lowered for ({@link FlowBudget}), or 0: the settings' bound. */
    long boundHeapMib;

    /** The recorded frames of every flow by flow id (empty when not recording); call once, after the pass. */
    Map<String, FrameList> flowFrames() {
        Map<String, FrameList> m = new HashMap<>();
        if (flowFrames != null) for (Flow f : flows.all()) m.put(f.id, flowFrames.of(f.index));
        return m;
    }

    // ------------------------------------------------------------------ input

    private final FrameFacts scratch = new FrameFacts();

    /** Analyzes one dissected frame (frames must come in capture order). */
    public void accept(Dissection d) { accept(scratch.from(d)); }

    private final FrameOutcome outcome = new FrameOutcome();

    /** What the engine decided about the frame it accepted last (overwritten by the next one). */
    public FrameOutcome outcome() { return outcome; }

    /** Analyzes the facts of one frame (frames must come in capture order). */
    public void accept(FrameFacts f) {
        if (finished) throw new IllegalStateException("finish() was called");
        outcome.reset();
        frames++;
        bytes += f.origLen;
        if (firstNs < 0) firstNs = f.timeNs;
        if (f.timeNs > lastNs) lastNs = f.timeNs;
        if (f.truncated) truncatedFrames++;
        long now = f.timeNs;
        congestion.expire(now);
        unseen.release(now);
        if (!f.roce) {
            if (f.macc != FrameFacts.MACC_NONE) flowControl.accept(f);
            sink.flush(false, now);
            return;
        }
        roceFrames++;
        // The recent-flow cache of FlowTable.of tried here first: of is a call per frame that C1 does not inline.
        Flow flow = flows.recent[FlowTable.recentSlot(f)];
        FlowKey k;
        if (flow == null || (k = flow.key).qp != f.destQp || k.srcLo != f.srcLo || k.dstLo != f.dstLo || k.srcHi != f.srcHi
                || k.dstHi != f.dstHi || k.v6 != f.v6) flow = flows.of(f);
        outcome.flow = flow;
        flows.lastAbout = null;
        if (flowFrames != null) flowFrames.add(flow.index, f.number, f.fileOffset);
        flow.packets++;
        flow.bytes += f.origLen;
        if (flow.firstNs < 0) flow.firstNs = f.timeNs;
        flow.lastNs = f.timeNs;
        flow.lastActivity = f.timeNs;
        if (f.truncated) flow.truncated++;
        if (flow.tver < 0 || (f.tver == 1 && flow.tver != 1)) flow.tver = f.tver;
        flow.rocev1 |= f.rocev1;
        OpcodeDef op = f.opcode;
        if (flow.service == null && op.service() != null) flow.service = op.service();
        if (flow.service == null && f.tver == 1) flow.service = "rc";
        sink.beginFrame(f.number);
        if (stream.isDuplicate(flow, f)) {
            outcome.duplicate = true;
            sink.duplicate(flow, f, flow.lastFpFrame);
        } else if (!f.judgeable) {
            flow.unjudged++;
            unjudgedFrames++;
            if (op.role() == OpcodeDef.Role.REQUEST && (f.opcodeKinds() & OpcodeKinds.UD) == 0) stream.advanceOnly(flow, f);
        } else {
            if (f.cm != FrameFacts.CM_NONE) cm.accept(f);
            flow.lastFpFrame = f.number;
            switch (op.role()) {
                case REQUEST -> stream.request(flow, f);
                case RESPONSE -> acks.response(flow, f);
                case ACK -> acks.ack(flow, f);
                case CONTROL -> control(flow, f);
            }
            if (messages != null) messages.frame(flow, flows.lastAbout, f, firstNs);
        }
        outcome.about = flows.lastAbout;
        sink.endFrame();
        sink.flush(false, now);
        if (f.timeNs >= nextExpiryCheck) {
            expireIdle(f.timeNs);
            nextExpiryCheck = f.timeNs + Math.max(1_000_000L, settings.idleExpiryNs() / 8);
        }
        if (flows.overBound()) evictIdlest();
    }

    private void control(Flow g, FrameFacts f) {
        // Cut before its extended header: not judged on another frame's cum_psn or first_psn (FrameFacts#hasControlHeader).
        if (!f.hasControlHeader()) return;
        switch (f.opcodeKinds() & OpcodeKinds.CONTROL_MASK) {
            case OpcodeKinds.CNP -> congestion.cnp(g, f);
            case OpcodeKinds.SACK -> sacks.sack(g, f);
            case OpcodeKinds.NACK -> sacks.nack(g, f);
            case OpcodeKinds.CREDIT -> control.credit(g, f);
            case OpcodeKinds.PROBE -> control.probe(g, f);
            default -> { }
        }
    }

    // ------------------------------------------------------------------ expiry and end

    /** Releases the sequence state of flows idle for longer than the expiry (their counters stay). */
    private void expireIdle(long t) {
        for (Flow fl : flows.all()) {
            if (fl.w != null && t - fl.lastActivity > settings.idleExpiryNs()
                    && (fl.peer == null || t - fl.peer.lastActivity > settings.idleExpiryNs())) {
                stream.release(fl);
            }
        }
    }

    /**
     * More flows than the bound: the least recently active go, after their pending verdicts are decided as for
     * an idle flow; their totals stay in the capture summary.
     */
    private void evictIdlest() {
        List<Flow> victims = flows.idlest();
        for (Flow fl : victims) stream.release(fl);
        if (messages != null) for (Flow fl : victims) messages.flush(fl);
        for (Flow fl : victims) {
            // The recorded frames go with the flow (before, they stayed in the recorder until the end of the pass).
            FrameList frames = flowFrames == null ? FrameList.EMPTY : flowFrames.of(fl.index);
            if (flowFrames != null) flowFrames.release(fl.index);
            if (evictionListener != null && fl.packets > 0) evictionListener.evicted(AnalysisResult.summaryOf(fl), frames);
            if (dropped != null) dropped.accept(fl);
        }
        flows.remove(victims);
    }

    /** The steps report, or null when the capture shows no periodic pattern. */
    java.util.Map<String, Object> steps() { return steps.report(flows.all()); }

    /** The flow-control report, or null when no PAUSE/PFC frame came. */
    java.util.Map<String, Object> flowControl() { return flowControl.finish(settings.linkSpeedGbps(), firstNs, lastNs); }

    /** The paused runs of the PAUSE/PFC frames (after {@link #flowControl()}, which closes the open ones). */
    java.util.List<long[]> pauseRuns() { return flowControl.runs(); }

    /**
     * Ends the pass: decides what is still pending (as far as the capture allows: §11 e) and returns the results.
     *
     * @param ifDropped capture drops the file reports (pcapng ISB ifdrop sum), -1 if unknown
     * @param osDropped OS drops the file reports, -1 if unknown
     */
    public AnalysisResult finish(long ifDropped, long osDropped) {
        if (!finished) {
            finished = true;
            congestion.finish();
            for (Flow fl : flows.all()) {
                control.finish(fl);
                retxVerdicts.finish(fl);
            }
            sink.flush(true, lastNs);
            if (messages != null) messages.finish(flows.all());
        }
        return new AnalysisResult(this, ifDropped, osDropped);
    }

    // ------------------------------------------------------------------ access for results and providers

    List<Flow> flowList() { return flows.all(); }

    String tapNote() { return tapNote; }

    /** Capture duplicates over all flows. */
    long duplicates() { return sink.duplicates; }

    /** CM frames seen. */
    long cmFrames() { return cm.cmFrames; }

    /** The flow with this key, or null (never seen, or evicted). */
    Flow flow(FlowKey k) { return flows.get(k); }

    /** What evicted flows added to the capture's totals. */
    EvictedFlows evictedFlows() { return flows.evicted(); }
}
