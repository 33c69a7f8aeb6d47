package io.metaroce.validate;

import io.metaroce.protocol.Severity;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;

/**
 * What the rules carry of one frame from the decoding thread to the analysis thread besides its
 * {@link io.metaroce.analysis.FrameFacts}: the findings of the frame rules, waiting for the engine's verdict on
 * the frame (a capture duplicate is not reported twice); where the bytes a retransmission keeps equal lie (a
 * slice of the capture mapping, valid while the capture is open). One per
 * session frame slot, reused. A frame the decoder's short cut takes leaves its slot alone: the analysis thread works
 * out what the slot would hold from the frame's facts (RuleEngine#fastAt, RuleEngine#extraOf).
 */
final class FrameExtra {
    /** A finding of the frame rules, before the flow is known. fold: one per flow ({@link Findings#fold}). */
    record Pending(String rule, Severity severity, String message, boolean fold, Anchor anchor) {}

    private final ValidateSettings settings;
    /** The frame holds a BTH (a RoCE frame, possibly with an unknown opcode). */
    boolean roce;
    /** The frame names its hosts (IP or GRH addresses): it belongs to a QP flow. */
    boolean addressed;
    boolean truncated;
    /** Findings of the frame rules, null when none (the common case: no allocation). */
    ArrayList<Pending> pending;
    /** The flow id of a frame the engine keeps no flow for (no known opcode), for its findings. */
    String flowId;
    /** Payload bytes of a complete UD packet (judged against its QP's PMTU), else -1. */
    int udPayload;
    /**
     * The ICRC to verify on the analysis thread (MR-FRAME-001): the frame's bytes, where the IP (or GRH) header
     * starts and how long it is (-2: a GRH), the BTH and the ICRC; icrcOffset -1 when there is none to check.
     */
    MemorySegment frame;
    int ipOffset, ipHeaderLength, bthOffset, icrcOffset;
    boolean ipv6;
    long icrcValue;
    /** The tap's view of a frame the engine keeps no flow for (no known opcode), for its ICRC verdict. */
    io.metaroce.analysis.View view;
    /** A request's bytes: the capture mapping (or the frame's slice of it) and where the frame starts in it. */
    MemorySegment seg;
    long segAt;
    int extOff, payOff, endOff, pad;

    FrameExtra(ValidateSettings settings) { this.settings = settings; }

    /** Clears the slot for a new frame (RuleEngine.decodedFast writes the same out in place: keep the two alike). */
    void reset() {
        roce = addressed = truncated = false;
        if (pending != null) pending.clear();
        flowId = null;
        udPayload = -1;
        seg = null;
        icrcOffset = -1;
        frame = null;
        view = null;
        next = null;
    }

    /** Records a finding; true when its rule is enabled (a disabled rule neither reports nor makes the frame unjudged). */
    /** The bytes the next {@link #add} or {@link #fold} concerns. */
    FrameExtra at(Anchor a) {
        next = a;
        return this;
    }

    /** Package-private: RuleEngine.decodedFast clears it in place of {@link #reset()}. */
    Anchor next;

    boolean add(String rule, Severity severity, String message) {
        Anchor anchor = next;
        next = null;
        if (!settings.enabled(rule)) return false;
        if (pending == null) pending = new ArrayList<>(2);
        pending.add(new Pending(rule, severity, message, false, anchor));
        return true;
    }

    /** A note that would repeat on every frame of a flow (offloaded checksums): folded into one per flow. */
    void fold(String rule, Severity severity, String message) {
        Anchor anchor = next;
        next = null;
        if (!settings.enabled(rule)) return;
        if (pending == null) pending = new ArrayList<>(2);
        pending.add(new Pending(rule, severity, message, true, anchor));
    }
}
