package io.metaroce.validate;

import static io.metaroce.protocol.RuleIds.*;
import static io.metaroce.protocol.Severity.ERROR;
import static io.metaroce.protocol.Severity.NOTE;
import static io.metaroce.protocol.Severity.WARN;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.analysis.CmPairing;
import io.metaroce.analysis.FlowKey;
import io.metaroce.analysis.FrameFacts;
import io.metaroce.analysis.FrameOutcome;
import io.metaroce.analysis.OpcodeKinds;
import io.metaroce.analysis.QpFlow;
import io.metaroce.analysis.RequestWindow;
import io.metaroce.analysis.Psn;
import io.metaroce.analysis.StreamLimits;
import io.metaroce.analysis.View;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.IcrcStatus;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Grh;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.OpcodeRangeDef;
import io.metaroce.protocol.Nacketh;
import io.metaroce.protocol.Probeeth;
import io.metaroce.protocol.Reth;
import io.metaroce.protocol.Sacketh;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules of spec §11 over one capture, run as the {@link AnalysisSession.FrameStages} of the analysis pass:
 * each rule is implemented once, here, on the dissector's view of a frame ({@link Dissection},
 * {@link FrameFacts}) and on per-flow state, while the analysis engine makes the decisions it owns (capture
 * duplicates, timeout retransmissions, CE without CNP: see {@link FileValidator}). The header and frame rules
 * run on the decoding thread, with no flow state; their findings wait in the frame's {@link FrameExtra} until the
 * engine has judged the frame (a capture duplicate is not judged twice). The stream rules run on the analysis
 * thread, in capture order, on the engine's flows ({@link QpFlow}: one flow table, one pairing, one flow id,
 * the connection parameters the engine took from CM), with what the engine decided about each frame
 * ({@link FrameOutcome}: capture duplicate, the data flow a reply is about). Which tap saw a frame decides how much a rule may conclude (principles a-f): at the
 * sender's host (S) what the sender did is certain, at the receiver's host (R) and at a mirror (M) packets may
 * be missing or reordered by the network, so those verdicts are notes or wait for the evidence.
 *
 * <p>Memory: per flow its columns on the engine's PSN window ({@link FirstCopies}: one window per stream, sized,
 * slid and released by the engine, bounded by {@link StreamLimits#MAX_WINDOW}) and a few small histories. Not thread-safe: one instance per capture.
 */
final class RuleEngine implements AnalysisSession.FrameStages {
    private static final int MASK = Psn.MASK;
    private static final long ORIGIN = Psn.ORIGIN;
    private static final long MAX_JUMP = StreamLimits.NEW_STREAM_JUMP;
    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    final ValidateSettings settings;
    final Findings findings;
    // The resolved tap, set by begin() before the first frame.
    private Tap tap;
    private String tapHow;
    private boolean tapV6;
    private long tapHi, tapLo;
    private final boolean plots;

    // Analysis thread only (the stream stage), except byId and flowList, read after the pass.
    /** The rule state of each engine flow, by {@link QpFlow#index()}. */
    private FlowState[] states = new FlowState[64];
    final List<FlowState> flowList = new ArrayList<>();
    final Map<String, FlowState> byId = new HashMap<>();
    /** MR-PROBEs seen, by the hosts they went between (any QP): [probe_seq, path, tx_ts, time, frame, flow index]. */
    private final Map<FlowKey, java.util.ArrayDeque<long[]>> probesByHosts = new HashMap<>();
    /** The data flow the engine attributed the frame being judged to ({@link FrameOutcome#about()}). */
    private QpFlow about;
    /** Per-frame scratch between the two stages, by the session's frame slot. */
    private final FrameExtra[] extras = new FrameExtra[AnalysisSession.FRAME_SLOTS];
    /**
     * By slot: where a frame the short cut took ({@link Decoding#decodedFast}) starts in {@link #fastMapping}, or -1
     * when the slot's {@link FrameExtra} holds the frame (a dissected frame, or one read without the reader's window).
     * A taken frame leaves its FrameExtra as it was: the analysis thread works out what that slot would have held from
     * the frame's facts ({@link #extraOf}). Why: the slot's two cache lines, written by the decoding thread for every
     * frame and read by the analysis thread, crossed the cores per frame; this column crosses one line per 8 frames.
     */
    private final long[] fastAt = new long[AnalysisSession.FRAME_SLOTS];
    /** The capture mapping of the short cut's frames (set once by the decoding thread, before its first taken frame). */
    private MemorySegment fastMapping;
    /**
     * The analysis thread's stand-in for the FrameExtra of a frame taken by the short cut: as {@link
     * FrameExtra#reset()} and the short cut leave it (roce, addressed, no finding, ICRC verified), the request's
     * bytes and the UD payload set per frame by {@link #extraOf}.
     */
    private final FrameExtra fastExtra;

    long frames, roceFrames, duplicates, truncated, unjudged, firstTruncFrame = -1, firstNs = -1, lastNs;
    private long nextExpiry;

    RuleEngine(ValidateSettings settings, boolean plots) {
        this.settings = settings;
        this.findings = new Findings(settings);
        this.plots = plots;
        // Made here, right before the slots: the next object in memory is slot 0's, not one the analysis thread
        // writes for every frame (see Decoding).
        this.decoding = new Decoding();
        for (int i = 0; i < extras.length; i++) extras[i] = new FrameExtra(settings);
        fastExtra = new FrameExtra(settings);
        fastExtra.reset();
        fastExtra.roce = fastExtra.addressed = true;
    }

    @Override
    public void begin(Tap resolvedTap, String how) {
        tap = resolvedTap;
        tapHow = how;
        if (tap.kind() == Tap.Kind.HOST) {
            byte[] a = tap.host();
            long hi = 0, lo = 0;
            for (int i = 0; i < 8; i++) hi = (hi << 8) | (a[i] & 0xFF);
            for (int i = 8; i < 16; i++) lo = (lo << 8) | (a[i] & 0xFF);
            boolean v4 = hi == 0 && (lo >>> 32) == 0xFFFFL;
            tapV6 = !v4;
            tapHi = v4 ? 0 : hi;
            tapLo = v4 ? lo & 0xFFFFFFFFL : lo;
        } else {
            tapV6 = false;
            tapHi = tapLo = -1;
        }
    }

    Tap tap() { return tap; }

    String tapHow() { return tapHow; }

    // ================================================================== per frame

    /**
     * First stage (decoding thread): the frame and header rules, which need no flow state. Their findings wait
     * in the frame's slot for {@link #analyzed}; f.judgeable is cleared for a frame they find broken (principle
     * d) before the analysis engine sees it.
     */
    @Override
    public void decoded(Dissection d, FrameFacts f, int fcsLength, int slot) {
        fastAt[slot] = -1;
        FrameExtra x = extras[slot];
        x.reset();
        x.roce = d.isRoce();
        if (!x.roce) {
            noTransport(d, x);
            return;
        }
        // Native InfiniBand without a GRH names no hosts: no QP flow of §12, nothing the rules can judge.
        x.addressed = d.offsetOf(Ip.HEADER) >= 0 || d.offsetOf(Ipv6.HEADER) >= 0 || d.offsetOf(Grh.HEADER) >= 0;
        if (!x.addressed) return;
        x.truncated = d.truncated();
        anchors.record(d);
        boolean frameError = frameRules(d, f, x, fcsLength);
        boolean malformed = false;
        List<ExpertItem> expert = d.expert();
        for (int i = 0, n = expert.size(); i < n; i++) {
            ExpertItem e = expert.get(i);
            if (e.severity() == Severity.ERROR && e.group() != ExpertItem.Group.CHECKSUM) malformed = true;
        }
        // A finding on a frame that has no flow for the engine (no known opcode) names its flow here.
        if (!f.roce) {
            if (x.pending != null && !x.pending.isEmpty()) x.flowId = flowIdOf(d);
            return;
        }
        f.judgeable = !frameError && !malformed;
        if (!x.truncated && f.opcode.role() == OpcodeDef.Role.REQUEST) {
            int from = d.mrthOffset() >= 0 ? d.mrthOffset() + Mrth.SIZE : d.bthOffset() + Bth.SIZE;
            x.seg = d.data();
            x.segAt = 0;
            x.extOff = from;
            x.payOff = d.payloadOffset() >= 0 ? d.payloadOffset() : from;
            x.endOff = Math.min(transportEnd(d) - 4, d.capturedLength());
            x.pad = Bth.padCnt(d.data(), d.bthOffset());
        }
    }

    /** Whether the clean common frame skips its dissection ({@link #decodedFast}); off only to compare both paths. */
    boolean fast = true;
    /** Frames {@link #decodedFast} took (for the test that compares both paths: it must not be vacuous). */
    long fastTaken() { return decoding.taken; }

    /** The FrameExtra of a session slot (for the test that a taken frame leaves it alone). */
    FrameExtra slot(int k) { return extras[k]; }

    /** ICRCs {@link #decodedFast} verified in the reader's window, good or bad (for the same test). */
    long fastIcrcInWindow() { return decoding.icrcInWindow; }

    @Override
    public boolean fastFrames() { return fast; }

    /** The decoding thread's side of the first stage ({@link Decoding}). */
    private final Decoding decoding;

    @Override
    public AnalysisSession.FrameStages decodingSide() { return decoding; }

    /**
     * What {@link #decodedFast} needs of an opcode's header chain, worked out once per opcode instead of on every
     * frame (the walk along the chain and the reserved-bit check per layer were about a fifth of its own
     * work under C1: docs/benchmarks.md, helper val, twelfth session): the chain, its bytes, whether it holds a DETH,
     * and the bytes of the BTH, the MRTH (when present) and the chain that hold reserved bits, as offsets from the
     * BTH and masks. The BTH and what follows it are contiguous, so one list covers them all.
     */
    private static final class Shape {
        /**
         * Every opcode's shapes, made with this class (on the first short-cut frame, once the engine's reserved-bit
         * tables exist): tver 0 without an MRTH, tver 1 with one, sprayed or not (what the short cut takes). Made
         * here rather than on an opcode's first frame so that the per-frame method holds no construction code for
         * C2 to compile into it.
         */
        static final Shape[] TABLE = new Shape[2 * 256 * 4];

        static {
            for (OpcodeDef op : Spec.OPCODES_TVER0) if (op != null) TABLE[index(0, op.code(), false, false)] = new Shape(op, false, false);
            for (OpcodeDef op : Spec.OPCODES_TVER1) {
                if (op == null) continue;
                TABLE[index(1, op.code(), true, false)] = new Shape(op, false, true);
                TABLE[index(1, op.code(), true, true)] = new Shape(op, true, true);
            }
        }

        static int index(int tver, int code, boolean mrth, boolean spray) {
            return (((tver & 1) << 8 | code & 0xFF) << 2) | (mrth ? 2 : 0) | (spray ? 1 : 0);
        }

        final OpcodeDef op;
        final int[] chain;
        /** The chain's bytes after the BTH (and the MRTH). */
        final int bytes;
        final boolean deth;
        /** A header with reserved bits past its catalogue size: never taken (the full check reads those). */
        final boolean never;
        final int[] at;
        final byte[] bits;

        Shape(OpcodeDef op, boolean spray, boolean mrth) {
            this.op = op;
            chain = op.chain(spray);
            List<Integer> offs = new ArrayList<>();
            List<Byte> masks = new ArrayList<>();
            boolean none = !reservedBytes(Bth.HEADER, 0, offs, masks);
            int c = Bth.SIZE;
            if (mrth) {
                none |= !reservedBytes(Mrth.HEADER, c, offs, masks);
                c += Mrth.SIZE;
            }
            boolean d = false;
            int first = c;
            for (int h : chain) {
                none |= !reservedBytes(h, c, offs, masks);
                c += Spec.HEADER_SIZES[h];
                if (h == io.metaroce.protocol.Deth.HEADER) d = true;
            }
            bytes = c - first;
            deth = d;
            never = none;
            at = offs.stream().mapToInt(Integer::intValue).toArray();
            bits = bytes(masks);
        }

        /**
         * The reserved bytes of an IPv4 header without options and the UDP header after it (IPV4_*), and of an IPv6
         * header and the UDP header after it (IPV6_*), as offsets from the IP header and masks, so that the short cut
         * tests them in one loop instead of a call per header ({@link #reservedAllZero(int, byte[], int, int, int)});
         * null where a header's reserved bits cannot be read off the header bytes (those frames make that call).
         */
        static final int[] IPV4_AT, IPV6_AT;
        static final byte[] IPV4_BITS, IPV6_BITS;

        static {
            List<Integer> offs = new ArrayList<>();
            List<Byte> masks = new ArrayList<>();
            boolean ok = reservedBytes(Ip.HEADER, 0, offs, masks) && reservedBytes(Udp.HEADER, Ip.SIZE, offs, masks)
                    && RESERVED_END[Ip.HEADER] <= Ip.SIZE;
            IPV4_AT = ok ? offs.stream().mapToInt(Integer::intValue).toArray() : null;
            IPV4_BITS = ok ? bytes(masks) : null;
            offs.clear();
            masks.clear();
            ok = reservedBytes(Ipv6.HEADER, 0, offs, masks) && reservedBytes(Udp.HEADER, Ipv6.SIZE, offs, masks)
                    && RESERVED_END[Ipv6.HEADER] <= Ipv6.SIZE;
            IPV6_AT = ok ? offs.stream().mapToInt(Integer::intValue).toArray() : null;
            IPV6_BITS = ok ? bytes(masks) : null;
        }

        private static byte[] bytes(List<Byte> masks) {
            byte[] b = new byte[masks.size()];
            for (int k = 0; k < b.length; k++) b[k] = masks.get(k);
            return b;
        }

        /** Adds header h's reserved bytes at off; false when they cannot be read off the head copy. */
        private static boolean reservedBytes(int h, int off, List<Integer> offs, List<Byte> masks) {
            if (RESERVED_DEFS[h].length == 0) return true;
            int[] at = RESERVED_BYTES[h];
            if (at == null) return false;
            for (int k = 0; k < at.length; k++) {
                offs.add(off + at[k]);
                masks.add(RESERVED_MASKS[h][k]);
            }
            return true;
        }
    }


    /** As {@link Decoding#decodedFast}, on the decoding thread. */
    @Override
    public boolean decodedFast(io.metaroce.analysis.FastFrame l, FrameFacts f, int slot) {
        return decoding.decodedFast(l, f, slot);
    }

    /**
     * The first stage as the decoding thread calls it ({@link AnalysisSession.FrameStages#decodingSide}): the short
     * cut's frame rules ({@link #decodedFast}) with the fields they read for every frame in an object of their own,
     * and {@link #decoded} (the dissected frame, rare) passed on to the rule engine. Why: as fields of the rule engine
     * they lay beside the ones the analysis thread writes for every frame ({@link #about}, {@link #frames}, {@link
     * #lastNs}; the decoding thread also wrote its two counters there for every frame), so every frame made the two
     * cores hand those cache lines back and forth (docs/benchmarks.md, helper val, twentieth session). Fields only
     * this thread writes, after 64 bytes of padding (HotSpot lays out the longs first, references last, and the
     * object made after this one is slot 0's {@link FrameExtra}).
     */
    private final class Decoding implements AnalysisSession.FrameStages {
        @SuppressWarnings("unused")
        private long pad0, pad1, pad2, pad3, pad4, pad5, pad6, pad7;
        /** Takes the 4 bytes after the object's header, which HotSpot would fill with a reference below. */
        @SuppressWarnings("unused")
        private int padHeader;
        /** Frames {@link #decodedFast} took, ICRCs it verified in the reader's window (RuleEngine#fastTaken). */
        long taken, icrcInWindow;
        private final FrameExtra[] extras = RuleEngine.this.extras;
        private final FrameAnchors anchors = RuleEngine.this.anchors;
        /** The ICRC of the frames {@link #decodedFast} takes ({@link RuleEngine#icrc} is the analysis thread's). */
        private final io.metaroce.dissector.Icrc icrc = new io.metaroce.dissector.Icrc();
        private final long[] fastAt = RuleEngine.this.fastAt;
        /**
         * {@link RuleEngine#fastMapping} as this thread set it, kept here to be read per frame: RuleEngine's own fields
         * share cache lines with the counters the analysis thread writes per frame ({@link RuleEngine#frames}...).
         */
        private MemorySegment mapping;

        @Override
        public void decoded(Dissection d, FrameFacts f, int fcsLength, int slot) {
            RuleEngine.this.decoded(d, f, fcsLength, slot);
        }

        @Override
        public boolean fastFrames() { return RuleEngine.this.fast; }

        @Override
        public void analyzed(FrameFacts f, int slot, FrameOutcome outcome) {
            throw new IllegalStateException("the analysis thread's stage is the rule engine's");
        }

        /**
         * First stage for a frame the decoder's short cut accepted ({@link io.metaroce.analysis.FastFrame}: Ethernet,
         * VLAN tags, IP, UDP, BTH, MRTH and the opcode's whole chain captured, no expert item): what {@link #decoded}
         * does, without the frame's dissection. Takes only the frame on which no frame rule has anything to say and
         * leaves it as {@link #decoded} would (ICRC inputs, anchors, request bytes); declines, having written nothing,
         * every frame on which one of them could (a trailer after the datagram, a cut frame, a UDP checksum that does
         * not verify, a reserved bit set, a pad that disagrees, a control packet, a path id the rules judge), and the
         * frame then takes the dissection and {@link #decoded}. Why: the dissection, FrameFacts.from and the frame
         * rules were about a third of validate's decoding thread (docs/benchmarks.md, helper val, ninth session).
         * Which of {@link #frameRules}' checks the short cut already guarantees is said at each; FastFramesTest runs
         * both paths over every sample, external capture and damaged copies and requires the same findings.
         */
        @Override
        public boolean decodedFast(io.metaroce.analysis.FastFrame l, FrameFacts f, int slot) {
            int ip = l.ipOffset(), udp = l.udpOffset(), bth = l.bthOffset(), mrth = l.mrthOffset(), p = l.payloadOffset();
            int icrcOff = l.icrcOffset(), cap = (int) f.capLen;
            // MR-FRAME-002: the short cut has checked that UDP ends where IP does and that the datagram is captured;
            // a frame that is the datagram and nothing more (no padding, no FCS, not cut) leaves nothing unaccounted.
            if (icrcOff + 4 != cap || f.origLen != cap) return false;
            // The headers' bytes from the reader's window when the frame lies in it (the short cut read them there; the
            // head copy would be one more copy per frame), else from the head copy: hb[hbase + offset in the frame].
            byte[] buffer = l.buffer(), hb;
            int hbase;
            if (buffer != null) {
                hb = buffer;
                hbase = l.bufferOffset();
            } else {
                hb = l.head();
                hbase = 0;
            }
            // MR-FRAME-003: a checksum of 0 is not judged, any other must verify. The field from the header bytes: the
            // frame's slice (an object per frame) is made only where a frame's bytes are kept or read whole.
            if (Udp.checksum(hb, hbase + udp) != 0) {
                MemorySegment s = l.data();
                if (udpSum(s, udp, l.ipv6() ? -1 : ip, l.ipv6() ? ip : -1, Udp.length(s, udp)) != 0xFFFF) return false;
            }
            // MR-HDR-001/002/004 and 005: the short cut took tver 0 or 1, a defined opcode outside the RD/DC range, an
            // MRTH of version 1 and every header of the opcode's chain. MR-CTL-001 reads a control packet's fields.
            OpcodeDef op = f.opcode;
            if (op.role() == OpcodeDef.Role.CONTROL) return false;
            // The opcode's kinds as FastFacts worked them out (OpcodeKinds.isUd is two calls C1 does not inline).
            boolean ud = (f.opcodeKinds() & OpcodeKinds.UD) != 0;
            Shape shape = Shape.TABLE[Shape.index(f.tver, op.code(), mrth >= 0, f.spray)];
            // The chain ends where the payload starts; MR-UD-001 (per frame): the DETH. A shape not in the table (an
            // MRTH the version does not call for) takes the dissection.
            if (shape == null || shape.op != op || shape.never
                    || (mrth >= 0 ? mrth + Mrth.SIZE : bth + Bth.SIZE) + shape.bytes != p || ud && !shape.deth) return false;
            int[] chain = shape.chain;
            // MR-HDR-003: every reserved bit 0: the IP and UDP headers', then the BTH's, the MRTH's and the chain's
            // from the opcode's shape (Ethernet and VLAN tags are not judged).
            boolean v6 = l.ipv6();
            int ihl = l.ipHeaderLength();
            int[] iat = v6 ? Shape.IPV6_AT : Shape.IPV4_AT;
            if (iat != null && udp == ip + (v6 ? Ipv6.SIZE : Ip.SIZE) && ihl == (v6 ? Ipv6.SIZE : Ip.SIZE)) {
                // The frame holds its headers whole (the short cut took the chain after them).
                byte[] ibits = v6 ? Shape.IPV6_BITS : Shape.IPV4_BITS;
                int i0 = hbase + ip;
                for (int k = 0; k < iat.length; k++) if ((hb[i0 + iat[k]] & ibits[k]) != 0) return false;
            } else if (!reservedAllZero(v6 ? Ipv6.HEADER : Ip.HEADER, hb, hbase, ip, cap)
                    || !reservedAllZero(Udp.HEADER, hb, hbase, udp, cap)) return false;
            int[] rat = shape.at;
            byte[] rbits = shape.bits;
            int b0 = hbase + bth;
            for (int k = 0; k < rat.length; k++) if ((hb[b0 + rat[k]] & rbits[k]) != 0) return false;
            // MR-FRAME-004: payload + pad a multiple of 4, the pad within it, no pad on First and Middle.
            int wireBytes = icrcOff - p, pad = f.padCnt;
            if (wireBytes % 4 != 0 || pad > wireBytes || pad != 0 && (op.segment() == OpcodeDef.Segment.FIRST
                    || op.segment() == OpcodeDef.Segment.MIDDLE)) return false;
            // MR-PATH-001 (per frame).
            if (mrth >= 0 && (f.pathId > 1023 || op.role() == OpcodeDef.Role.REQUEST && !f.spray && f.pathId != 0))
                return false;
            // MR-FRAME-001: the ICRC, here where the frame's bytes are in the reader's window and in the caches (on the
            // analysis thread, from the mapping, it was that thread's largest cost under C1: docs/benchmarks.md, helper
            // val, eleventh and twelfth sessions). A frame whose ICRC does not verify is declined: the dissection's
            // path reports it, with the source-port search. Without the window, the analysis thread checks it.
            boolean icrcDone = buffer != null;
            if (icrcDone) icrcInWindow++;
            if (icrcDone && icrc.overIp(buffer, l.bufferOffset(), ip, l.ipHeaderLength(), l.ipv6(), bth, icrcOff)
                    != l.icrcValue()) return false;

            // Taken: as decoded and frameRules leave a frame without findings.
            taken++;
            anchors.recordFast(f.number, ip, l.ipv6(), bth, mrth, chain, p, f.payloadLength);
            f.judgeable = true;
            // The frame in the reader's window (its ICRC verified) and in the capture's mapping: its place in the mapping
            // is all the analysis thread needs beside the facts (RuleEngine#fastAt); its FrameExtra stays untouched.
            MemorySegment map = l.mapping();
            if (icrcDone && map != null) {
                if (mapping == null) {
                    mapping = map;
                    fastMapping = map;
                }
                long at = l.mappingOffset();
                if (map == mapping && at >= 0) {
                    fastAt[slot] = at;
                    return true;
                }
            }
            fastAt[slot] = -1;
            FrameExtra x = extras[slot];
            // FrameExtra.reset()'s work in place, as a short-cut frame leaves it (its roce and addressed set): a call
            // fewer per frame under C1. Keep the two alike.
            x.truncated = false;
            if (x.pending != null) x.pending.clear();
            x.flowId = null;
            x.udPayload = -1;
            x.seg = null;
            x.icrcOffset = -1;
            x.frame = null;
            x.view = null;
            x.next = null;
            x.roce = true;
            x.addressed = true;
            if (!icrcDone) {
                x.frame = l.data();
                x.ipOffset = ip;
                x.ipHeaderLength = l.ipHeaderLength();
                x.ipv6 = l.ipv6();
                x.bthOffset = bth;
                x.icrcOffset = icrcOff;
                x.icrcValue = l.icrcValue();
            }
            if (ud) x.udPayload = f.payloadLength;
            if (op.role() == OpcodeDef.Role.REQUEST) {
                // The mapping itself where the frame lies in it: no slice object per request.
                long at = map != null ? l.mappingOffset() : -1;
                x.seg = at >= 0 ? map : l.data();
                x.segAt = at >= 0 ? at : 0;
                x.extOff = mrth >= 0 ? mrth + Mrth.SIZE : bth + Bth.SIZE;
                x.payOff = p;
                x.endOff = icrcOff;
                x.pad = pad;
            }
            return true;
        }
    }

    /**
     * Second stage (analysis thread, capture order, after the engine judged f): the frame's waiting findings
     * (dropped with the frame when the engine took it for a capture duplicate) and the stream rules.
     */
    @Override
    public void analyzed(FrameFacts f, int slot, FrameOutcome outcome) {
        long at = fastAt[slot];
        FrameExtra x = at < 0 ? extras[slot] : extraOf(f, at);
        about = outcome.about();
        judge(f, x, outcome.flow(), outcome.duplicate());
        drainEvents();
        // Checked here: nearly every frame has no new finding, and the call was one more per frame under C1.
        if (findings.freshAdded) anchorFresh();
        if (evictedFlows != null) dropEvicted();
    }

    /**
     * What {@link Decoding#decodedFast} wrote into a taken frame's FrameExtra before it left the slot alone
     * ({@link #fastAt}), from the frame's facts: the frame ends with its ICRC (capLen - 4), the payload and pad before
     * it, the opcode's header chain (its shape's bytes) before those; at: where the frame starts in the mapping.
     */
    private FrameExtra extraOf(FrameFacts f, long at) {
        FrameExtra x = fastExtra;
        x.udPayload = (f.opcodeKinds() & OpcodeKinds.UD) != 0 ? f.payloadLength : -1;
        OpcodeDef op = f.opcode;
        if (op.role() != OpcodeDef.Role.REQUEST) {
            x.seg = null;
            return x;
        }
        int end = f.capLen - 4, pay = end - f.padCnt - f.payloadLength;
        x.seg = fastMapping;
        x.segAt = at;
        x.extOff = pay - Shape.TABLE[Shape.index(f.tver, op.code(), f.mrth, f.spray)].bytes;
        x.payOff = pay;
        x.endOff = end;
        x.pad = f.padCnt;
        return x;
    }

    /**
     * What the rules keep per flow beyond the engine's: the {@link FlowState} (about 400 bytes, its SACK history and
     * two queues) and its {@link FirstCopies} columns at the window's first size. Measured as for
     * {@link io.metaroce.analysis.FlowBudget#ENGINE_BYTES}: validate's pass grew by 9,748 bytes per flow held, analyze's
     * by 4,643.
     */
    static final int BYTES_PER_FLOW = 5_200;

    @Override
    public int bytesPerFlow() { return BYTES_PER_FLOW; }

    /** Flows the engine evicted while judging the current frame; their state goes once the frame was judged. */
    private List<QpFlow> evictedFlows;
    /** Rule states of flows the engine evicted, in all (reported beside the engine's count). */
    long evictedStates;

    @Override
    public void evicted(QpFlow flow) {
        // Not dropped here: the engine evicts inside its look at a frame, and this frame's stream rules and its events
        // (the bridge's MR-RTX-005, MR-CC-002) may still be about the flow.
        if (evictedFlows == null) evictedFlows = new ArrayList<>();
        evictedFlows.add(flow);
    }

    /**
     * The rule state of the flows the engine evicted goes with them (before, it stayed for the whole pass: 10^6
     * single-packet QPs kept 10^6 states, about 4 KB each with their columns, and validate ran out of memory under
     * -Xmx1g at any bound). Gaps still pending are judged as for a flow that idled ({@link #expireIdle}); the findings
     * already made stay.
     */
    private void dropEvicted() {
        List<QpFlow> gone = evictedFlows;
        evictedFlows = null;
        for (QpFlow q : gone) {
            int i = q.index();
            FlowState fl = i < states.length ? states[i] : null;
            if (fl == null) continue;
            finishGaps(fl, lastNs);
            fl.ring = null;
            fl.evicted = true;
            states[i] = null;
            byId.remove(fl.id, fl);
            evictedStates++;
        }
        flowList.removeIf(fl -> fl.evicted);
        for (FlowState fl : flowList) if (fl.peer != null && fl.peer.evicted) fl.peer = null;
    }

    /**
     * Points the findings decided since the last call at the bytes their rule is about, in their own frame
     * (the frame being judged, or an earlier one the rule judged late): the first of the rule's fields the frame
     * holds ({@link #STREAM_FIELDS}), or its payload. A finding that already has an anchor keeps it.
     */
    private void anchorFresh() {
        if (!findings.freshAdded) return;
        findings.freshAdded = false;
        List<Finding> fresh = findings.fresh();
        for (Finding k : fresh) if (k.anchor() == null) k.at(anchors.of(k.frame(), k.rule()));
        fresh.clear();
    }

    private static final int PAYLOAD = FrameAnchors.PAYLOAD;

    /** The fields each stream rule is about, in order of preference (a frame holds one of them). */
    private static final Map<String, int[]> STREAM_FIELDS = Map.ofEntries(
            Map.entry(MR_HDR_006, new int[] {Bth.F_TVER}),
            Map.entry(MR_SEQ_001, new int[] {Bth.F_PSN}),
            Map.entry(MR_SEQ_002, new int[] {Bth.F_OPCODE}),
            Map.entry(MR_SEQ_003, new int[] {PAYLOAD, Bth.F_OPCODE}),
            Map.entry(MR_SEQ_004, new int[] {Reth.F_DMA_LENGTH, PAYLOAD}),
            Map.entry(MR_SEQ_005, new int[] {Mrth.F_MSG_ID}),
            Map.entry(MR_RTX_001, new int[] {Bth.F_PSN}),
            Map.entry(MR_RTX_002, new int[] {Bth.F_PSN}),
            Map.entry(MR_RTX_003, new int[] {Mrth.F_RTX}),
            Map.entry(MR_RTX_004, new int[] {Bth.F_PSN}),
            Map.entry(MR_RTX_005, new int[] {Bth.F_PSN}),
            Map.entry(MR_ACK_001, new int[] {Sacketh.F_CUM_PSN, Nacketh.F_FIRST_PSN, Bth.F_PSN}),
            Map.entry(MR_ACK_002, new int[] {Bth.F_PSN}),
            Map.entry(MR_ACK_003, new int[] {Aeth.F_MSN}),
            Map.entry(MR_ACK_004, new int[] {Sacketh.F_BASE_PSN}),
            Map.entry(MR_PATH_001, new int[] {Mrth.F_PATH_ID}),
            Map.entry(MR_PATH_002, new int[] {Udp.F_SRCPORT}),
            Map.entry(MR_CC_001, new int[] {Bth.F_OPCODE}),
            Map.entry(MR_CC_002, new int[] {Ip.F_ECN, Ipv6.F_ECN}),
            Map.entry(MR_CC_003, new int[] {Bth.F_PSN}),
            Map.entry(MR_CTL_002, new int[] {Probeeth.F_ECHO_TIMESTAMP}),
            Map.entry(MR_CTL_003, new int[] {Nacketh.F_COUNT}),
            Map.entry(MR_UD_001, new int[] {PAYLOAD}));

    /** Where the stream rules' fields lie in the recent frames (written by the first stage, read by the second). */
    private final FrameAnchors anchors = new FrameAnchors(STREAM_FIELDS);

    /** Runs after the rules judged each frame (the engine's events of that frame, see {@link FileValidator}). */
    void afterFrame(Runnable r) { afterFrame = r; }

    private Runnable afterFrame;
    /**
     * Set when the engine held an event for {@link #afterFrame} (FileValidator's bridge, on this thread): most frames
     * have none, and the run through the lambda, the bridge and its queue was three calls a frame under C1.
     */
    boolean eventsHeld;

    void drainEvents() {
        if (!eventsHeld) return;
        eventsHeld = false;
        if (afterFrame != null) afterFrame.run();
    }

    private void judge(FrameFacts f, FrameExtra x, QpFlow flow, boolean duplicate) {
        frames++;
        long t = f.timeNs, n = f.number;
        if (!heldAcks.isEmpty()) releaseHeldAcks(t);
        if (firstNs < 0) firstNs = t;
        lastNs = Math.max(lastNs, t);
        if (!x.roce) {
            report(x, null, n, t);
            return;
        }
        roceFrames++;
        if (!x.addressed) return;
        if (!f.roce) {
            report(x, x.flowId, n, t);
            return;
        }
        FlowState fl = stateOf(flow);
        fl.packets++;
        fl.lastActivity = t;
        if (duplicate) {
            duplicates++;
            return;
        }
        if (x.truncated) {
            truncated++;
            if (firstTruncFrame < 0) firstTruncFrame = n;
        }
        if (x.pending != null) report(x, fl.id, n, t);
        boolean judged = f.judgeable;
        if (!judged) unjudged++;
        if ((f.opcodeKinds() & OpcodeKinds.UD) != 0) {
            fl.ud = true;
            if (x.udPayload >= 0) udPmtu(f, fl, x.udPayload);
            return;
        }
        // The stateful rules of the QP streams: here, not in a method of their own (a call per frame under C1).
        if (t >= nextExpiry) {
            expireIdle(t);
            nextExpiry = t + 1_000_000_000L;
        }
        OpcodeDef op = f.opcode;
        headerConstancy(f, fl);
        if (!judged) {
            if (op.role() == OpcodeDef.Role.REQUEST) advanceOnly(fl, f);
            return;
        }
        if (f.mrth) paths(f, fl);
        switch (op.role()) {
            case REQUEST -> request(x, f, fl);
            case RESPONSE -> response(f, fl);
            case ACK -> ack(f, fl);
            case CONTROL -> control(f, fl);
        }
    }

    /** The findings the first stage left in the frame's slot. */
    private void report(FrameExtra x, String flow, long n, long t) {
        if (x.pending == null) return;
        for (FrameExtra.Pending p : x.pending) {
            Finding k = p.fold() ? findings.fold(p.rule(), p.severity(), flow, n, t, p.message())
                    : findings.add(p.rule(), p.severity(), flow, n, t, p.message());
            if (k != null && p.anchor() != null) k.at(p.anchor());
        }
    }

    /** A UDP datagram to a RoCE port that holds no BTH at all. */
    private void noTransport(Dissection d, FrameExtra x) {
        int udp = d.offsetOf(Udp.HEADER);
        if (udp < 0 || d.truncated()) return;
        int port = Udp.dstport(d.data(), udp);
        if (!settings.analysis.rocePorts().contains(port)) return;
        int len = Udp.length(d.data(), udp);
        x.at(field(d, Udp.F_LENGTH)).add(MR_HDR_005, ERROR, "UDP datagram to RoCE port " + port + " of " + len + " bytes cannot hold a BTH and an ICRC");
    }

    // ================================================================== flows

    /**
     * Where the tap sees a frame's direction from, read off its addresses (the first stage has no flow state;
     * it asks only for the few frames whose verdict depends on it). Matches {@link FlowState#view}.
     */
    private View viewOf(Dissection d) {
        long[] a = addresses(d);
        return a == null ? View.MIRROR : viewOf(a[0] == 1, a[1], a[2], a[3], a[4]);
    }

    private View viewOf(boolean v6, long sHi, long sLo, long dHi, long dLo) {
        if (tap.kind() == Tap.Kind.HOST && v6 == tapV6) {
            if (sHi == tapHi && sLo == tapLo) return View.SENDER;
            if (dHi == tapHi && dLo == tapLo) return View.RECEIVER;
        }
        return View.MIRROR;
    }

    /** The flow id of a frame the engine keeps no flow for (no known opcode), or null without addresses. */
    private static String flowIdOf(Dissection d) {
        long[] a = addresses(d);
        return a == null ? null : FlowKey.id(a[0] == 1, a[1], a[2], a[3], a[4], (int) d.destQp());
    }

    /** {v6 ? 1 : 0, srcHi, srcLo, dstHi, dstLo} of a RoCE frame (IPv4 in the low 32 bits), or null. */
    private static long[] addresses(Dissection d) {
        MemorySegment s = d.data();
        boolean v6;
        long sHi = 0, sLo, dHi = 0, dLo;
        int ip = d.offsetOf(Ip.HEADER);
        if (ip >= 0) {
            v6 = false;
            sLo = Ip.src(s, ip) & 0xFFFFFFFFL;
            dLo = Ip.dst(s, ip) & 0xFFFFFFFFL;
        } else {
            int a = d.offsetOf(Ipv6.HEADER);
            if (a >= 0) a += 8;
            else {
                a = d.offsetOf(Grh.HEADER);
                if (a < 0) return null;
                a += 8;
            }
            v6 = true;
            sHi = s.get(BE_LONG, a);
            sLo = s.get(BE_LONG, a + 8);
            dHi = s.get(BE_LONG, a + 16);
            dLo = s.get(BE_LONG, a + 24);
        }
        return new long[] {v6 ? 1 : 0, sHi, sLo, dHi, dLo};
    }

    /**
     * The rule state of an engine flow, created on its first frame; its pairing and its connection parameters
     * follow the engine's (the engine has already judged the frame: a CM exchange or a reply that paired the
     * flow shows here).
     */
    private FlowState stateOf(QpFlow q) {
        if (q == null) return null;
        // The flow's state looked up here, existing() only for a new flow: a call fewer per frame under C1.
        int qi = q.index();
        FlowState[] st = states;
        FlowState fl = qi < st.length ? st[qi] : null;
        if (fl == null) fl = existing(q);
        QpFlow p = q.peer();
        // A flow's state is made once and never replaced: the peer's found last stands while the engine's pairing
        // does (one look-up per frame instead of two).
        if (p == null) fl.peer = null;
        else if (fl.peer == null || fl.peer.flow != p) fl.peer = existing(p);
        if (q.announced() != fl.announced) connection(fl, q);
        return fl;
    }

    private FlowState existing(QpFlow q) {
        int i = q.index();
        if (i >= states.length) states = java.util.Arrays.copyOf(states, Math.max(i + 1, states.length * 2));
        FlowState fl = states[i];
        return fl != null ? fl : (states[i] = create(q));
    }

    private FlowState create(QpFlow q) {
        FlowState fl = new FlowState(q);
        if (plots) fl.plot = new Plot();
        int pm = settings.pmtuFor(fl.id, q.key().destQp());
        if (pm > 0) {
            fl.pmtu = pm;
            fl.pmtuSource = "user";
        }
        fl.pathCount = settings.pathCountFor(fl.id, q.key().destQp());
        flowList.add(fl);
        byId.put(fl.id, fl);
        return fl;
    }

    /** The data flow the engine attributed the frame being judged to (an acknowledgement's, a response's), or null. */
    private FlowState about() { return stateOf(about); }

    // ================================================================== connection management (§4.1)

    /** What the CM exchange that set up x's connection announced (the engine paired the REQ and REP). */
    private static void connection(FlowState x, QpFlow q) {
        CmPairing.Side s = q.announced();
        x.announced = s;
        if (s == null) return;
        if (!x.started) x.cmStartPsn = s.startPsn();
        if (q.cmPathMtu() > 0 && !"user".equals(x.pmtuSource)) {
            x.pmtu = q.cmPathMtu();
            x.pmtuSource = "cm";
        }
        cmParams(x, s);
    }

    private static void cmParams(FlowState x, CmPairing.Side s) {
        if (!s.mrcm()) return;
        x.cmSpray = s.spray() ? 1 : 0;
        x.credit = s.credit();
        if (x.pathCount == 0 && s.pathCount() > 0) x.pathCount = s.pathCount();
        if (s.pmtu() > 0 && !"user".equals(x.pmtuSource)) {
            x.pmtu = s.pmtu();
            x.pmtuSource = "cm";
        }
        if (s.basePort() > 0) {
            x.basePort = s.basePort();
            x.basePortCm = true;
        }
    }

    // ================================================================== stateless rules: MR-FRAME, MR-HDR-001..005, CTL-001, UD, PATH-001

    /** Runs the per-frame rules; true when one of them found an MR-FRAME or MR-HDR error (principle d). */
    private boolean frameRules(Dissection d, FrameFacts f, FrameExtra x, int fcsLength) {
        boolean error = false;
        MemorySegment s = d.data();
        icrcInputs(d, f, x);
        error |= lengths(d, x, fcsLength);
        udpChecksum(d, x);
        int tver = d.tver();
        if (tver != 0 && tver != 1) {
            x.at(field(d, Bth.F_TVER)).add(MR_HDR_001, ERROR, "BTH tver " + tver + " is neither 0 (RoCEv2) nor 1 (MetaRoCE v1)");
            return true;
        }
        OpcodeDef op = d.opcode();
        int opv = d.opcodeValue();
        if (op == null) {
            Severity sev = ERROR;
            String why = "opcode 0x" + hex2(opv) + " is not defined for " + (tver == 0 ? "RoCEv2 (tver 0)" : "MetaRoCE v1 (tver 1)");
            for (OpcodeRangeDef r : Spec.OPCODE_RANGES) {
                if (r.contains(opv, tver)) {
                    sev = r.severity();
                    why = "opcode 0x" + hex2(opv) + ": " + r.message();
                    break;
                }
            }
            if (tver == 1 && opv >= 0xE0 && sev == NOTE) sev = ERROR;
            x.at(field(d, Bth.F_OPCODE)).add(MR_HDR_002, sev, why);
            return true;
        }
        int mrth = d.mrthOffset();
        if (mrth >= 0 && Mrth.version(s, mrth) != 1) {
            x.at(field(d, Mrth.F_VERSION)).add(MR_HDR_004, ERROR, "MRTH version " + Mrth.version(s, mrth) + ", expected 1");
            error = true;
        }
        boolean ud = OpcodeKinds.isUd(op);
        // MR-HDR-005: every header of the opcode's chain (truncated frames: not judged, principle d).
        if (!ud && !d.truncated()) {
            // Mellanox DC (RD opcodes with a DC header) has its own chain (the dissector's, as tshark's).
            int[] chain = d.hasLayer(io.metaroce.protocol.Dceth.HEADER) ? io.metaroce.dissector.Dissector.dcChain(op) : op.chain(d.spray());
            for (int h : chain) {
                if (!d.hasLayer(h)) {
                    HeaderDef hd = Spec.HEADERS.get(h);
                    x.at(field(d, Bth.F_OPCODE)).add(MR_HDR_005, ERROR, op.label() + " lacks its " + hd.origId() + " ("
                            + hd.size() + " bytes)" + (d.mrthOffset() >= 0 && d.spray() && op.sprayChain() != null
                            ? " (sprayed MetaRoCE form)" : ""));
                    error = true;
                    break;
                }
            }
        }
        reserved(d, x);
        boolean complete = d.payloadOffset() >= 0;
        // MR-FRAME-004: payload + pad a multiple of 4; pad_cnt 0 on First and Middle.
        if (complete) {
            int bytes = d.payloadLength() + d.padCount();
            int wireBytes = transportEnd(d) - 4 - d.payloadOffset();
            if (wireBytes >= 0 && (wireBytes % 4 != 0 || d.padCount() > wireBytes)) {
                x.at(field(d, Bth.F_PAD_CNT)).add(MR_FRAME_004, ERROR, wireBytes % 4 != 0
                        ? "payload + pad is " + wireBytes + " bytes, not a multiple of 4 (pad_cnt " + d.padCount() + ")"
                        : "pad_cnt " + d.padCount() + " exceeds the " + wireBytes + " bytes after the headers");
                error = true;
            } else if (d.padCount() != 0 && (op.segment() == OpcodeDef.Segment.FIRST || op.segment() == OpcodeDef.Segment.MIDDLE)) {
                x.at(field(d, Bth.F_PAD_CNT)).add(MR_FRAME_004, ERROR, op.label() + " with pad_cnt " + d.padCount()
                        + " (First and Middle packets carry whole PMTUs, no pad)");
                error = true;
            }
            if (bytes < 0) error = true;
        }
        if (ud) {
            // MR-UD-001: DETH and at most PMTU bytes.
            if (!d.hasLayer(io.metaroce.protocol.Deth.HEADER) && !d.truncated()) {
                x.at(field(d, Bth.F_OPCODE)).add(MR_UD_001, ERROR, op.label() + " without its DETH");
                error = true;
            } else if (complete) {
                x.udPayload = d.payloadLength(); // against the QP's PMTU, which the stream stage knows
            }
        }
        // MR-CTL-001: fields §7 fixes on control packets (and the RoCEv2 CNP of §5).
        if (op.role() == OpcodeDef.Role.CONTROL) controlFields(d, op, x);
        // MR-PATH-001 (per frame): path_id range; a non-spraying request uses path 0.
        if (mrth >= 0) {
            int path = Mrth.pathId(s, mrth);
            if (path > 1023) {
                x.at(field(d, Mrth.F_PATH_ID)).add(MR_PATH_001, ERROR, "path_id " + path + " exceeds 1023");
            } else if (op.role() == OpcodeDef.Role.REQUEST && !Mrth.spray(s, mrth) && path != 0) {
                x.at(field(d, Mrth.F_PATH_ID)).add(MR_PATH_001, ERROR, "path_id " + path + " on a request with spray = 0 "
                        + "(a QP direction that does not spray uses path 0)");
            }
        }
        return error;
    }

    /** MR-UD-001: a UD packet carries at most the PMTU. */
    private void udPmtu(FrameFacts f, FlowState fl, int payload) {
        int pm = fl.pmtu > 0 ? fl.pmtu : ValidateSettings.MAX_PMTU;
        if (payload > pm) {
            findings.add(MR_UD_001, ERROR, fl.id, f.number, f.timeNs, f.opcode.label() + " carries " + payload
                    + " payload bytes, more than the PMTU of " + pm + (fl.pmtu > 0 ? " (" + fl.pmtuSource + ")"
                    : " (the largest IBTA MTU; give --pmtu for this QP)"));
        }
    }

    /**
     * Where the ICRC of the frame lies and what it covers (MR-FRAME-001, verified on the analysis thread by
     * {@link #handedOver}: the decoding thread is the busier one). The same inputs as the dissector's own check:
     * the IP header before the UDP header (IPv6 without extension headers; with them the masking is undefined and
     * the ICRC unchecked), or the GRH of RoCEv1; an ICRC cut by the snap length is not checked.
     */
    private void icrcInputs(Dissection d, FrameFacts f, FrameExtra x) {
        int icrcOff = d.icrcOffset();
        if (icrcOff < 0 || d.icrcValue() < 0) return;
        int udp = -1, ip = -1, hl = -1;
        boolean v6 = false;
        for (int i = 0, n = d.layerCount(); i < n; i++) {
            int h = d.layerHeader(i);
            if (h == Udp.HEADER) {
                udp = d.layerOffset(i);
                break;
            }
            if (h == Ip.HEADER) {
                ip = d.layerOffset(i);
                v6 = false;
            } else if (h == Ipv6.HEADER) {
                ip = d.layerOffset(i);
                v6 = true;
            } else if (h == Grh.HEADER) {
                ip = d.layerOffset(i);
                hl = -2;
            }
        }
        if (udp >= 0 && ip >= 0) {
            hl = v6 ? (udp == ip + Ipv6.SIZE ? Ipv6.SIZE : -1) : Ip.hdrLen(d.data(), ip) * 4;
        } else if (hl != -2) {
            return; // native InfiniBand (no IP, no GRH): the LRH's variant fields are not in the capture
        }
        if (hl == -1) return;
        x.frame = d.data();
        x.ipOffset = ip;
        x.ipHeaderLength = hl;
        x.ipv6 = v6;
        x.bthOffset = d.bthOffset();
        x.icrcOffset = icrcOff;
        x.icrcValue = d.icrcValue();
        if (!f.roce) x.view = viewOf(d);
    }

    private final io.metaroce.dissector.Icrc icrc = new io.metaroce.dissector.Icrc();

    /**
     * MR-FRAME-001 (analysis thread, before the engine): the ICRC. A sender-side tap sees frames before the NIC
     * computes the ICRC (offload): a note there. A bad ICRC leaves the frame unjudged (principle d).
     */
    @Override
    public void handedOver(FrameFacts f, int slot) {
        // Small enough for C1 to inline into the session's call: most frames had their ICRC verified on the decoding
        // thread (decodedFast) and have nothing to check here.
        if (fastAt[slot] >= 0) return; // taken by the short cut, its ICRC verified there
        FrameExtra x = extras[slot];
        if (x.icrcOffset >= 0) icrcHere(f, x);
    }

    /** MR-FRAME-001 of a frame whose ICRC the decoding thread did not verify. */
    private void icrcHere(FrameFacts f, FrameExtra x) {
        MemorySegment s = x.frame;
        long computed = x.ipHeaderLength == -2 ? icrc.overGrh(s, x.ipOffset, x.bthOffset, x.icrcOffset)
                : icrc.overIp(s, x.ipOffset, x.ipHeaderLength, x.ipv6, x.bthOffset, x.icrcOffset);
        if (computed == x.icrcValue) return;
        String msg = String.format("bad ICRC 0x%08x (computed 0x%08x)", x.icrcValue, computed);
        int port = x.ipHeaderLength >= 0
                ? icrc.matchingSourcePort(s, x.ipOffset, x.ipHeaderLength, x.ipv6, x.bthOffset, x.icrcOffset, x.icrcValue) : -1;
        if (port >= 0) msg += String.format("; ICRC matches with UDP source port 0x%04x: the port was "
                + "rewritten after the sender", port);
        View view = x.view != null ? x.view : viewOf(f.v6, f.srcHi, f.srcLo, f.dstHi, f.dstLo);
        Anchor at = new Anchor("icrc", "icrc.value", x.icrcOffset, 4);
        if (settings.offloaded && view == View.SENDER) {
            x.at(at).fold(MR_FRAME_001, NOTE, msg + " at the sender's tap: the NIC computes the "
                    + "ICRC after the capture point (offload); set offloaded: false to judge it");
        } else if (x.at(at).add(MR_FRAME_001, ERROR, msg) && f.roce) {
            f.judgeable = false;
        }
    }

    /** The bytes of a catalogue field in this frame (its header's first occurrence), or null without the header. */
    private static Anchor field(Dissection d, int fieldId) {
        int off = d.offsetOf(Spec.FIELDS.get(fieldId).header());
        return off < 0 ? null : Anchor.field(fieldId, off);
    }

    private static int transportEnd(Dissection d) {
        int udp = d.offsetOf(Udp.HEADER);
        if (udp >= 0) return udp + Udp.length(d.data(), udp);
        int grh = d.offsetOf(Grh.HEADER);
        return grh >= 0 ? grh + Grh.SIZE + Grh.paylen(d.data(), grh) : (int) d.originalLength();
    }

    /** MR-FRAME-002: IP and UDP lengths against the frame's original length. */
    private boolean lengths(Dissection d, FrameExtra x, int fcsLength) {
        MemorySegment s = d.data();
        int udp = d.offsetOf(Udp.HEADER);
        int ip = d.offsetOf(Ip.HEADER), ip6 = d.offsetOf(Ipv6.HEADER);
        int ipOff = ip >= 0 ? ip : ip6;
        if (ipOff < 0) return false;
        long total = ip >= 0 ? Ip.len(s, ip) : Ipv6.SIZE + Ipv6.plen(s, ip6);
        int fcs = fcsLength > 0 ? fcsLength : d.fcsStatus() != null ? 4 : 0;
        long available = d.originalLength() - ipOff - fcs;
        String what = ip >= 0 ? "IPv4 total length " : "IPv6 payload length ";
        long shown = ip >= 0 ? total : total - Ipv6.SIZE;
        String msg = null;
        if (total > available) {
            msg = what + shown + " exceeds the " + (available - (ip >= 0 ? 0 : Ipv6.SIZE)) + " bytes the frame holds";
        } else if (total < available) {
            long excess = available - total;
            boolean padding = d.linkType() == 1 && d.originalLength() - fcs <= 60;
            if (!padding && excess != 4) {
                msg = what + shown + " leaves " + excess + " bytes of the frame unaccounted for";
            }
        }
        if (msg == null && udp >= 0) {
            long ipEnd = ipOff + total;
            long udpLen = Udp.length(s, udp);
            if (udp + udpLen != ipEnd) {
                msg = "UDP length " + udpLen + (udp + udpLen > ipEnd ? " exceeds" : " is shorter than") + " the IP payload ("
                        + (ipEnd - udp) + " bytes)";
            }
        }
        if (msg == null) return false;
        Anchor at = msg.startsWith("UDP") ? field(d, Udp.F_LENGTH) : ip >= 0 ? field(d, Ip.F_LEN) : field(d, Ipv6.F_PLEN);
        return x.at(at).add(MR_FRAME_002, ERROR, msg);
    }

    /** MR-FRAME-003: a non-zero UDP checksum must verify. At the sender's tap the NIC may fill it in later. */
    private void udpChecksum(Dissection d, FrameExtra x) {
        int udp = d.offsetOf(Udp.HEADER);
        if (udp < 0 || d.truncated()) return;
        MemorySegment s = d.data();
        int ck = Udp.checksum(s, udp);
        if (ck == 0) return;
        int len = Udp.length(s, udp);
        if (udp + len > d.capturedLength() || len < Udp.SIZE) return;
        int ip = d.offsetOf(Ip.HEADER), ip6 = ip >= 0 ? -1 : d.offsetOf(Ipv6.HEADER);
        if (ip < 0 && ip6 < 0) return;
        long sum = udpSum(s, udp, ip, ip6, len);
        if (sum == 0xFFFF) return;
        int computed;
        {
            long c = sum - ck;
            while (c < 0) c += 0xFFFF;
            while ((c >>> 16) != 0) c = (c & 0xFFFF) + (c >>> 16);
            computed = (int) (~c & 0xFFFF);
        }
        String msg = String.format("bad UDP checksum 0x%04x (computed 0x%04x)", ck, computed);
        if (settings.offloaded && viewOf(d) == View.SENDER) {
            x.at(field(d, Udp.F_CHECKSUM)).fold(MR_FRAME_003, NOTE, msg
                    + " at the sender's tap: the NIC may fill it in after the capture point (offload)");
        } else {
            x.at(field(d, Udp.F_CHECKSUM)).add(MR_FRAME_003, ERROR, msg);
        }
    }

    /** The folded one's-complement sum over the pseudo header (ip: IPv4 header, else ip6) and the datagram: 0xFFFF when it verifies. */
    private static long udpSum(MemorySegment s, int udp, int ip, int ip6, int len) {
        long sum = ip >= 0 ? words(s, ip + 12, 8) : words(s, ip6 + 8, 32);
        sum += 17 + len;
        sum += words(s, udp, len);
        while ((sum >>> 16) != 0) sum = (sum & 0xFFFF) + (sum >>> 16);
        return sum;
    }

    private static long words(MemorySegment s, int off, int len) {
        long sum = 0;
        int i = 0;
        for (; i + 1 < len; i += 2) sum += s.get(BE_SHORT, off + i) & 0xFFFF;
        if (i < len) sum += (s.get(ValueLayout.JAVA_BYTE, off + i) & 0xFF) << 8;
        return sum;
    }

    /**
     * Per header: its fields the catalogue marks reserved (must be 0); none for pseudo headers and the link
     * layers before IP, which MR-HDR-003 does not judge.
     */
    private static final int[][] RESERVED = new int[Spec.HEADERS.size()][];
    /** The same fields' definitions, so that the per-frame loop does no catalogue lookup. */
    private static final FieldDef[][] RESERVED_DEFS = new FieldDef[Spec.HEADERS.size()][];

    static {
        for (HeaderDef h : Spec.HEADERS) {
            RESERVED[h.index()] = h.pseudo() || h.index() < Ip.HEADER ? new int[0]
                    : java.util.stream.IntStream.range(h.firstField(), h.firstField() + h.fieldCount())
                            .filter(k -> Spec.FIELDS.get(k).reserved()).toArray();
            RESERVED_DEFS[h.index()] = java.util.Arrays.stream(RESERVED[h.index()]).mapToObj(Spec.FIELDS::get).toArray(FieldDef[]::new);
        }
    }

    /**
     * Per header: the bytes (offsets in the header) that hold a reserved field's bits, with the bits that belong
     * to reserved fields ({@link #RESERVED_MASKS}), so that a frame whose reserved bits are all 0 (nearly every
     * frame) costs a few byte tests on the decoder's header copy and nothing else; null for headers without
     * reserved fields, and for headers whose reserved bits lie past the header's catalogue size (never in the
     * copy: those always take the full check).
     */
    private static final int[][] RESERVED_BYTES = new int[Spec.HEADERS.size()][];
    private static final byte[][] RESERVED_MASKS = new byte[Spec.HEADERS.size()][];
    /** The header bytes the reserved fields reach into (their last byte + 1): the frame must hold them all. */
    private static final int[] RESERVED_END = new int[Spec.HEADERS.size()];

    static {
        for (HeaderDef h : Spec.HEADERS) {
            FieldDef[] defs = RESERVED_DEFS[h.index()];
            if (defs.length == 0) continue;
            int end = 0;
            for (FieldDef fd : defs) end = Math.max(end, (fd.bitOffset() + fd.bitWidth() + 7) / 8);
            RESERVED_END[h.index()] = end;
            if (end > h.size()) continue;
            byte[] mask = new byte[end];
            MemorySegment m = MemorySegment.ofArray(mask);
            for (FieldDef fd : defs) {
                if (fd.bitWidth() > 64 || fd.type() == io.metaroce.protocol.ValueType.BYTES) {
                    java.util.Arrays.fill(mask, fd.bitOffset() / 8, fd.bitOffset() / 8 + fd.bitWidth() / 8, (byte) 0xFF);
                } else {
                    // The field's own bits, as the full check reads them (a subfield's mask included).
                    MemorySegment one = MemorySegment.ofArray(new byte[end]);
                    fd.writeLong(one, 0, -1L);
                    for (int b = 0; b < end; b++) mask[b] |= one.get(ValueLayout.JAVA_BYTE, b);
                }
            }
            int n = 0;
            for (byte b : mask) if (b != 0) n++;
            int[] at = new int[n];
            byte[] bits = new byte[n];
            for (int b = 0, k = 0; b < end; b++) {
                if (mask[b] == 0) continue;
                at[k] = b;
                bits[k++] = mask[b];
            }
            RESERVED_BYTES[h.index()] = at;
            RESERVED_MASKS[h.index()] = bits;
        }
    }

    /**
     * True when every reserved field of every layer from IP on is present and 0, read off the decoder's copy of
     * the headers; false when one is not, or may not be (a header cut by the snap length, reserved bits past the
     * header's catalogue size): {@link #reserved} then reads each field as before.
     */
    private static boolean reservedAllZero(Dissection d) {
        byte[] head = d.head();
        int captured = d.capturedLength();
        for (int i = 0, n = d.layerCount(); i < n; i++) {
            int h = d.layerHeader(i);
            if (RESERVED_DEFS[h].length == 0) continue;
            int[] at = RESERVED_BYTES[h];
            int off = d.layerOffset(i);
            if (at == null || off + RESERVED_END[h] > captured) return false;
            byte[] bits = RESERVED_MASKS[h];
            for (int k = 0; k < at.length; k++) if ((head[off + at[k]] & bits[k]) != 0) return false;
        }
        return true;
    }

    /** As {@link #reservedAllZero(Dissection)}, for one layer of a short-cut frame: header h at off, frame at b[base]. */
    private static boolean reservedAllZero(int h, byte[] b, int base, int off, int captured) {
        if (RESERVED_DEFS[h].length == 0) return true;
        int[] at = RESERVED_BYTES[h];
        if (at == null || off + RESERVED_END[h] > captured) return false;
        byte[] bits = RESERVED_MASKS[h];
        int o = base + off;
        for (int k = 0; k < at.length; k++) if ((b[o + at[k]] & bits[k]) != 0) return false;
        return true;
    }

    /** MR-HDR-003: reserved fields (the catalogue's reserved flag) of every header from IP on. */
    private void reserved(Dissection d, FrameExtra x) {
        if (reservedAllZero(d)) return;
        MemorySegment s = d.data();
        StringBuilder bad = null;
        Anchor first = null;
        for (int i = 0, n = d.layerCount(); i < n; i++) {
            int[] reserved = RESERVED[d.layerHeader(i)];
            if (reserved.length == 0) continue;
            FieldDef[] defs = RESERVED_DEFS[d.layerHeader(i)];
            int off = d.layerOffset(i);
            for (int j = 0; j < reserved.length; j++) {
                int k = reserved[j];
                FieldDef fd = defs[j];
                if (off + (fd.bitOffset() + fd.bitWidth() + 7) / 8 > d.capturedLength()) continue;
                long v;
                if (fd.bitWidth() > 64 || fd.type() == io.metaroce.protocol.ValueType.BYTES) {
                    MemorySegment sl = fd.slice(s, off);
                    v = 0;
                    for (long b = 0; b < sl.byteSize(); b++) v |= sl.get(ValueLayout.JAVA_BYTE, b);
                } else {
                    v = fd.readLong(s, off);
                }
                if (v != 0) {
                    if (bad == null) {
                        bad = new StringBuilder();
                        first = Anchor.field(k, off);
                    }
                    else bad.append(", ");
                    bad.append(fd.name()).append(" = 0x").append(Long.toHexString(v));
                }
            }
        }
        if (bad != null) x.at(first).add(MR_HDR_003, WARN, "reserved field"
                + (bad.indexOf(",") > 0 ? "s" : "") + " not 0: " + bad);
    }

    /** MR-CTL-001: what §7 fixes in MR-SACK .. MR-PROBE-REPLY, and §5 in the RoCEv2 CNP. */
    private void controlFields(Dissection d, OpcodeDef op, FrameExtra x) {
        MemorySegment s = d.data();
        int bth = d.bthOffset(), m = d.mrthOffset();
        List<String> bad = new ArrayList<>();
        int psn = Bth.psn(s, bth);
        if (op.code() == 0x81 && d.tver() == 0) {
            if (!Bth.becn(s, bth)) bad.add("becn 0 (a CNP sets becn)");
            if (psn != 0) bad.add("psn " + psn + " (a CNP carries psn 0)");
        } else if (m >= 0) {
            if (Bth.se(s, bth)) bad.add("se 1");
            if (Bth.ackReq(s, bth)) bad.add("ack_req 1");
            if (Bth.padCnt(s, bth) != 0) bad.add("pad_cnt " + Bth.padCnt(s, bth));
            if (Mrth.rtx(s, m)) bad.add("rtx 1");
            if (Mrth.spray(s, m)) bad.add("spray 1");
            if (Mrth.sackReq(s, m)) bad.add("sack_req 1");
            if (!Mrth.tsValid(s, m)) bad.add("ts_valid 0");
            if (Mrth.msgId(s, m) != 0) bad.add("msg_id " + Mrth.msgId(s, m));
            if (Mrth.msgOffset(s, m) != 0) bad.add("msg_offset " + Mrth.msgOffset(s, m));
            String rule = op.psnRule();
            if ("zero".equals(rule) && psn != 0) bad.add("psn " + psn + " (must be 0)");
            if ("first_psn".equals(rule) && d.hasLayer(io.metaroce.protocol.Nacketh.HEADER)) {
                int fp = io.metaroce.protocol.Nacketh.firstPsn(s, d.offsetOf(io.metaroce.protocol.Nacketh.HEADER));
                if (fp != psn) bad.add("psn " + psn + " != first_psn " + fp);
            }
            if (op.code() == 0xE4 && d.hasLayer(Probeeth.HEADER) && Probeeth.echoTimestamp(s, d.offsetOf(Probeeth.HEADER)) != 0)
                bad.add("echo_timestamp " + Probeeth.echoTimestamp(s, d.offsetOf(Probeeth.HEADER)) + " (an MR-PROBE carries 0)");
        }
        if (d.payloadOffset() >= 0 && !d.truncated() && transportEnd(d) - 4 - d.payloadOffset() > 0)
            bad.add((transportEnd(d) - 4 - d.payloadOffset()) + " bytes of payload");
        if (!bad.isEmpty()) x.at(Anchor.header(m >= 0 ? Mrth.HEADER : Bth.HEADER, m >= 0 ? m : bth)).add(MR_CTL_001, ERROR, op.label() + " with "
                + String.join(", ", bad));
    }

    // ================================================================== per-direction constants: MR-HDR-006, MR-PATH-*

    private void headerConstancy(FrameFacts f, FlowState fl) {
        long n = f.number;
        if (f.opcodeValue == 0x81) return; // a RoCEv2 CNP may tell a MetaRoCE QP to slow down
        if (fl.tver < 0) {
            fl.tver = f.tver;
            fl.tverFrame = n;
        } else if (fl.tver != f.tver) {
            Finding x = findings.add(MR_HDR_006, ERROR, fl.id, n, f.timeNs, "tver " + f.tver + " in a QP direction that "
                    + "carried tver " + fl.tver);
            if (x != null) x.also(fl.tverFrame);
        }
        if (f.mrth && f.opcode.role() == OpcodeDef.Role.REQUEST) {
            int sp = f.spray ? 1 : 0;
            int expect = fl.cmSpray >= 0 ? fl.cmSpray : fl.spray;
            if (expect < 0) {
                fl.spray = sp;
                fl.sprayFrame = n;
            } else if (expect != sp) {
                Finding x = findings.add(MR_HDR_006, ERROR, fl.id, n, f.timeNs, "MRTH spray = " + sp + " in a QP direction "
                        + (fl.cmSpray >= 0 ? "whose connection set spray = " + expect : "that sends with spray = " + expect));
                if (x != null && fl.cmSpray < 0) x.also(fl.sprayFrame);
            }
        }
    }

    private void paths(FrameFacts f, FlowState fl) {
        if (!f.mrth) return;
        long n = f.number;
        boolean reply = f.opcodeValue == 0xE5;
        if (fl.pathCount > 0 && f.pathId >= fl.pathCount && !reply) {
            findings.add(MR_PATH_001, ERROR, fl.id, n, f.timeNs, "path_id " + f.pathId + " is not below the path_count "
                    + fl.pathCount + " of this QP direction");
        } else if (!reply && f.pathId != 0 && (fl.cmSpray == 0 || (fl.cmSpray < 0 && fl.spray == 0))
                && f.opcode.role() != OpcodeDef.Role.REQUEST) {
            findings.add(MR_PATH_001, ERROR, fl.id, n, f.timeNs, "path_id " + f.pathId + " in a QP direction that does not "
                    + "spray (spray = 0 uses path 0)");
        } else if (f.opcode.role() == OpcodeDef.Role.RESPONSE && (f.opcodeKinds() & OpcodeKinds.READ) != 0 && f.pathId != 0) {
            findings.add(MR_PATH_001, ERROR, fl.id, n, f.timeNs, "READ response on path " + f.pathId
                    + " (READ responses are not sprayed: path 0 of the responder)");
        }
        if (reply || f.sport < 0) return;
        int base = f.sport - f.pathId;
        if (base < 0) {
            findings.add(MR_PATH_002, ERROR, fl.id, n, f.timeNs, "UDP source port " + f.sport + " is below path_id "
                    + f.pathId + ": no base_port fits");
            return;
        }
        if (fl.basePort < 0) {
            fl.basePort = base;
            fl.basePortFrame = n;
        } else if (fl.basePort != base) {
            Finding x = findings.add(MR_PATH_002, ERROR, fl.id, n, f.timeNs, "base_port = sport " + f.sport + " - path_id "
                    + f.pathId + " = " + base + ", but this QP direction uses base_port " + fl.basePort
                    + (fl.basePortCm ? " (from the connection setup)" : ""));
            if (x != null && !fl.basePortCm) x.also(fl.basePortFrame);
        }
        if (fl.pathCount > 0 && (long) fl.basePort + fl.pathCount - 1 > 65535) {
            findings.add(MR_PATH_002, ERROR, fl.id, n, f.timeNs, "base_port " + fl.basePort + " + path_count "
                    + fl.pathCount + " - 1 exceeds 65535");
        }
    }

    // ================================================================== request streams

    private static int diff(int a, int b) { return Psn.diff(a, b); }

    static long unwrap(long ref, int psn) { return Psn.unwrap(ref, psn); }

    private static int wrap(long u) { return Psn.wrap(u); }

    /**
     * The engine's request window of fl's flow for the frame being judged, starting the rules' stream state over
     * when the engine started a new stream (first request, a new window after idling, QPN reuse: its thresholds,
     * {@link StreamLimits}); null when the engine keeps no window for the flow.
     */
    private static FirstCopies window(FlowState fl) {
        RequestWindow w = fl.flow.requests();
        if (w == null) return null;
        if (!fl.started || fl.ring == null || fl.ring.w != w || fl.generation != w.generation()) start(fl, w);
        return fl.ring;
    }

    /** The rules' state of a new stream, at the origin the engine chose (its first PSN, or the CM start PSN). */
    private static void start(FlowState fl, RequestWindow w) {
        long origin = w.origin();
        fl.started = true;
        fl.generation = w.generation();
        fl.origin = origin;
        fl.maxU = origin - 1;
        fl.cumU = origin;
        fl.ePsnU = origin;
        fl.cursorU = origin;
        fl.cursorStuckSince = 0;
        fl.mState = FlowState.M_SYNC;
        fl.mPrevMsgId = -1;
        fl.mPrevEndU = Long.MIN_VALUE;
        fl.softEndU = fl.softMinU = Long.MIN_VALUE;
        fl.nakU = Long.MIN_VALUE;
        fl.ring = FirstCopies.of(w);
        fl.gaps.clear();
    }

    /** A frame the rules do not judge still advances its stream (principle d). */
    private void advanceOnly(FlowState fl, FrameFacts f) {
        if ((f.opcodeKinds() & OpcodeKinds.UD) != 0) return;
        if (window(fl) == null) return;
        long u = unwrap(fl.maxU, f.psn);
        if (u > fl.maxU && u - fl.maxU < MAX_JUMP && fl.ring.contains(u)) {
            for (long p = Math.max(fl.maxU + 1, fl.ring.base()); p < u; p++) fl.ring.st[fl.ring.idx(p)] |= FirstCopies.SKIP;
            fl.maxU = u;
        }
        if (fl.ring.contains(u)) {
            int i = fl.ring.idx(u);
            if ((fl.ring.st[i] & FirstCopies.SEEN) == 0) {
                fl.ring.st[i] |= FirstCopies.SEEN | FirstCopies.UNJUDGED;
                fl.ring.frame[i] = f.number;
                fl.ring.time[i] = f.timeNs;
                fl.ring.op[i] = (byte) f.opcodeValue;
            }
        }
        cursor(fl, f.timeNs);
    }

    private void request(FrameExtra d, FrameFacts f, FlowState fl) {
        OpcodeDef op = f.opcode;
        long n = f.number, t = f.timeNs;
        boolean meta = f.tver == 1;
        FirstCopies r = window(fl);
        if (r == null) return;
        long u = unwrap(fl.maxU, f.psn);
        if (fl.plot != null) fl.plot.point(t, u, n);
        boolean isRead = (f.opcodeKinds() & OpcodeKinds.READ) != 0;
        long idle = fl.lastReqTime > 0 ? t - fl.lastReqTime : -1;
        fl.lastReqTime = t;
        fl.lastReqFrame = n;
        if (u > fl.maxU) {
            long from = fl.maxU + 1;
            // A READ of unknown PMTU reserved between softMin and softEnd PSNs: the next request says how many.
            if (fl.softEndU != Long.MIN_VALUE && u >= fl.softMinU && u <= fl.softEndU + 1) {
                learnReadPmtu(fl, u - fl.softReadU);
                for (long p = Math.max(from, r.base()); p < u; p++) if (r.contains(p)) reserve(r, p, fl.softReadU);
                from = u;
            }
            fl.softEndU = fl.softMinU = Long.MIN_VALUE;
            if (!r.contains(u)) return; // the engine keeps no room for it (a new stream it did not start)
            if (u > from) gap(fl, f, from, u);
            // MR-CC-003: credit (new packets only; retransmissions need none).
            if (fl.credit && settings.creditChecks) credit(fl, f, u);
            // MR-RTX-003: rtx = 1 on a PSN never sent before: certain only at the sender's own tap.
            if (meta && f.rtx && fl.view == View.SENDER) {
                Finding x = findings.add(MR_RTX_003, ERROR, fl.id, n, t, "rtx = 1 on PSN " + f.psn + ", never sent before");
                if (x != null) x.dropSensitive = true;
            }
            record(d, f, fl, u);
            fl.maxU = u;
            if (isRead) reserveRead(fl, f, u);
            // arrived's first test here: only the receiver's tap moves its expected PSN (a call per request saved).
            if (fl.view == View.RECEIVER) arrived(fl, u);
        } else if (r.contains(u)) {
            int i = r.idx(u);
            int st = r.st[i];
            if ((st & FirstCopies.SEEN) != 0) {
                repeat(d, f, fl, u, i, idle);
            } else if ((st & FirstCopies.RESERVED) != 0) {
                // A READ Request re-issued inside the range its original reserved (§9.2).
                readRetry(f, fl, u, i);
                record(d, f, fl, u);
            } else {
                // First copy of a PSN the tap had not shown (reordered, or the original was lost before the tap).
                if (meta && f.rtx && fl.view == View.SENDER && (st & FirstCopies.SKIP) == 0) {
                    Finding x = findings.add(MR_RTX_003, ERROR, fl.id, n, t, "rtx = 1 on PSN " + f.psn + ", never sent before");
                    if (x != null) x.dropSensitive = true;
                }
                record(d, f, fl, u);
                if (meta && f.rtx) missingShown(fl, u, n);
                arrived(fl, u);
            }
        } else {
            return; // older than the window
        }
        if (f.timeNs > 0 && fl.ring == r) cursor(fl, t);
    }

    /** Go-back-N responder at the receiver's tap: the expected PSN moves on when it arrives (§9.2). */
    private static void arrived(FlowState fl, long u) {
        if (fl.view != View.RECEIVER || fl.tver == 1 || u != fl.ePsnU) return;
        FirstCopies r = fl.ring;
        fl.ePsnU++;
        while (fl.ePsnU <= fl.maxU && r.contains(fl.ePsnU) && (r.st[r.idx(fl.ePsnU)] & FirstCopies.RESERVED) != 0
                && (r.st[r.idx(fl.ePsnU)] & FirstCopies.SEEN) == 0) fl.ePsnU++;
    }

    private void record(FrameExtra d, FrameFacts f, FlowState fl, long u) {
        FirstCopies r = fl.ring;
        int i = r.idx(u);
        boolean wasReserved = (r.st[i] & FirstCopies.RESERVED) != 0;
        r.st[i] = (byte) ((r.st[i] & (FirstCopies.COVERED | FirstCopies.RESERVED)) | FirstCopies.SEEN | (f.rtx ? 0 : FirstCopies.RTX0)
                | (d.truncated ? FirstCopies.TRUNC : 0));
        r.op[i] = (byte) f.opcodeValue;
        r.payload[i] = f.payloadLength;
        r.msgId[i] = f.msgId;
        r.msgOff[i] = f.msgOffset;
        r.rethVa[i] = f.hasReth ? f.rethVa : 0;
        r.rethLen[i] = f.hasReth ? (int) f.rethLen : -1;
        r.frame[i] = f.number;
        r.time[i] = f.timeNs;
        if (!wasReserved) r.readBack[i] = 0;
        if (d.truncated || d.seg == null) {
            r.seg[i] = null;
            return;
        }
        // Where the bytes a retransmission keeps equal (§9.3) lie: extension headers, payload and pad (compared
        // later). Here rather than in a method of its own: once per request, a call C1 does not inline.
        r.seg[i] = d.seg;
        r.segAt[i] = d.segAt;
        r.extOff[i] = d.extOff;
        r.payOff[i] = d.payOff;
        r.endOff[i] = d.endOff;
        r.pad[i] = (byte) d.pad;
    }

    /** True when the ranges [a0, a1) of a and [b0, b1) of b hold the same bytes. */
    private static boolean same(MemorySegment a, long a0, long a1, MemorySegment b, long b0, long b1) {
        if (a1 - a0 != b1 - b0) return false;
        return MemorySegment.mismatch(a, a0, a1, b, b0, b1) < 0;
    }

    private static void reserve(FirstCopies r, long p, long readU) {
        int k = r.idx(p);
        if ((r.st[k] & FirstCopies.SEEN) != 0) return;
        r.st[k] |= FirstCopies.RESERVED;
        r.readBack[k] = (int) (p - readU);
    }

    /** PSNs a READ Request reserves for its responses (§9.2): known when the PMTU is, else a soft range. */
    private void reserveRead(FlowState fl, FrameFacts f, long u) {
        long len = f.hasReth ? f.rethLen : 0;
        FirstCopies r = fl.ring;
        // The reserved PSNs count as sent (MR-ACK-001); their marks go where the engine's window holds them.
        if (fl.pmtu > 0) {
            long nRes = Math.max(1, (len + fl.pmtu - 1) / fl.pmtu);
            long end = u + nRes - 1;
            if (end - u < StreamLimits.MAX_WINDOW / 2) {
                for (long p = u + 1; p <= end && r.contains(p); p++) reserve(r, p, u);
                if (end > fl.maxU) fl.maxU = end;
            }
        } else {
            long nMin = Math.max(1, (len + 4095) / 4096), nMax = Math.max(1, (len + 255) / 256);
            if (nMin > 1) {
                for (long p = u + 1; p <= u + nMin - 1 && r.contains(p); p++) reserve(r, p, u);
                fl.maxU = u + nMin - 1;
            }
            if (nMax > nMin) {
                fl.softReadU = u;
                fl.softReadLen = len;
                fl.softMinU = u + nMin;
                fl.softEndU = u + nMax - 1;
            }
        }
    }

    private void learnReadPmtu(FlowState fl, long n) {
        if (fl.pmtu > 0 || n <= 0) return;
        for (int pm = 256; pm <= 4096; pm <<= 1) {
            if (Math.max(1, (fl.softReadLen + pm - 1) / pm) == n && fl.softReadLen > pm) {
                // Several PMTUs can give the same count; the largest that does is only a guess, keep it soft.
                return;
            }
        }
    }

    /** MR-SEQ-001: a new PSN past the next expected one. */
    private void gap(FlowState fl, FrameFacts f, long from, long u) {
        FirstCopies r = fl.ring;
        long count = u - from;
        String psns = count == 1 ? "PSN " + wrap(from) : count + " PSNs " + wrap(from) + ".." + wrap(u - 1);
        if (fl.view == View.SENDER) {
            for (long p = Math.max(from, r.base()); p < u; p++) r.st[r.idx(p)] |= FirstCopies.SKIP;
            Finding x = findings.add(MR_SEQ_001, ERROR, fl.id, f.number, f.timeNs, "new PSN " + f.psn + " skips " + psns
                    + " (expected PSN " + wrap(from) + " next)");
            if (x != null) {
                x.dropSensitive = true;
                x.also(fl.lastReqFrame);
            }
            return;
        }
        if (f.tver == 0) {
            findings.add(MR_SEQ_001, NOTE, fl.id, f.number, f.timeNs, "missing: network or capture loss (" + psns + ")");
        } else {
            fl.gaps.add(new long[] {f.number, f.timeNs, from, count});
            if (fl.gaps.size() > 256) gapVerdict(fl, fl.gaps.poll(), true);
        }
    }

    /** MetaRoCE at R/M: a gap is loss once its PSNs stay missing past the reorder window, or come back as rtx. */
    private void gapVerdict(FlowState fl, long[] g, boolean force) {
        FirstCopies r = fl.ring;
        long missing = 0, first = -1;
        for (long p = g[2]; p < g[2] + g[3]; p++) {
            if (r == null || !r.contains(p)) continue;
            int i = r.idx(p);
            boolean arrivedOriginal = (r.st[i] & FirstCopies.RTX0) != 0;
            if (!arrivedOriginal) {
                missing++;
                if (first < 0) first = p;
            }
        }
        if (missing > 0 || force) {
            if (missing == 0) return;
            findings.add(MR_SEQ_001, NOTE, fl.id, g[0], g[1], "missing: network or capture loss (" + missing + " PSN"
                    + (missing == 1 ? " " : "s from ") + wrap(first) + ")");
        }
    }

    private void missingShown(FlowState fl, long u, long frame) {
        for (long[] g : fl.gaps) {
            if (u >= g[2] && u < g[2] + g[3]) {
                fl.gaps.remove(g);
                gapVerdict(fl, g, true);
                return;
            }
        }
    }

    private void checkGaps(FlowState fl, long now) {
        while (!fl.gaps.isEmpty() && now - fl.gaps.peek()[1] > settings.reorderWindowNs) gapVerdict(fl, fl.gaps.poll(), true);
    }

    /** MR-CC-003: a credit-mode sender's new request PSN must lie before the latest grant that reached it. */
    private void credit(FlowState fl, FrameFacts f, long u) {
        long limitTime = fl.view == View.SENDER ? f.timeNs : fl.view == View.RECEIVER
                ? f.timeNs - fl.rtt(settings.analysis.minRttNs()) : Long.MIN_VALUE;
        if (limitTime == Long.MIN_VALUE) return;
        long granted = Long.MIN_VALUE, grantFrame = 0;
        for (long[] g : fl.grants) {
            if (g[0] <= limitTime && g[1] > granted) {
                granted = g[1];
                grantFrame = g[2];
            }
        }
        String where = fl.view == View.SENDER ? "" : " (grants sent at least one minimum RTT before its arrival)";
        if (granted == Long.MIN_VALUE) {
            if (fl.creditSeen || !fl.grants.isEmpty() || fl.credit) {
                if (fl.grants.isEmpty() && !fl.creditSeen && fl.view != View.SENDER) return;
                findings.add(MR_CC_003, ERROR, fl.id, f.number, f.timeNs, "credit mode: new PSN " + f.psn
                        + " before the first MR-CREDIT reached the sender" + where);
            }
            return;
        }
        if (u >= granted) {
            Finding x = findings.add(MR_CC_003, ERROR, fl.id, f.number, f.timeNs, "credit mode: new PSN " + f.psn
                    + " at or after granted_psn " + wrap(granted) + where);
            if (x != null) x.also(grantFrame);
        }
    }

    /** A PSN sent again: MR-RTX-001, 002, 003, 004. */
    private void repeat(FrameExtra d, FrameFacts f, FlowState fl, long u, int i, long idle) {
        FirstCopies r = fl.ring;
        long n = f.number, t = f.timeNs;
        boolean meta = f.tver == 1;
        long orig = r.frame[i];
        boolean origJudged = (r.st[i] & FirstCopies.UNJUDGED) == 0;
        // MR-RTX-002: the fields §9.3 keeps equal.
        if (origJudged) {
            List<String> diffs = new ArrayList<>();
            if ((r.op[i] & 0xFF) != f.opcodeValue) diffs.add("opcode 0x" + hex2(r.op[i] & 0xFF) + " -> 0x" + hex2(f.opcodeValue));
            if (meta && r.msgId[i] != f.msgId) diffs.add("msg_id " + r.msgId[i] + " -> " + f.msgId);
            if (meta && r.msgOff[i] != f.msgOffset) diffs.add("msg_offset " + r.msgOff[i] + " -> " + f.msgOffset);
            if (r.payload[i] != f.payloadLength) diffs.add("payload length " + r.payload[i] + " -> " + f.payloadLength);
            boolean bytes = (r.st[i] & FirstCopies.TRUNC) == 0 && !d.truncated;
            if (bytes && diffs.isEmpty() && r.seg[i] != null && d.seg != null) {
                if (r.pad[i] != d.pad) diffs.add("pad_cnt " + r.pad[i] + " -> " + d.pad);
                MemorySegment a = (MemorySegment) r.seg[i], b = d.seg;
                long aAt = r.segAt[i], bAt = d.segAt;
                if (!same(a, aAt + r.extOff[i], aAt + r.payOff[i], b, bAt + d.extOff, bAt + d.payOff)) diffs.add("extension headers (RETH, ImmDt, IETH, ...)");
                if (!same(a, aAt + r.payOff[i], aAt + r.endOff[i], b, bAt + d.payOff, bAt + d.endOff)) diffs.add("payload bytes");
            }
            if (!diffs.isEmpty()) {
                Finding x = findings.add(MR_RTX_002, ERROR, fl.id, n, t, "PSN " + f.psn + " sent again with different "
                        + String.join(", ", diffs) + " than its first copy");
                if (x != null) x.also(orig);
            }
        }
        // MR-RTX-003: two copies with rtx = 0.
        if (meta && !f.rtx && (r.st[i] & FirstCopies.RTX0) != 0) {
            Finding x = findings.add(MR_RTX_003, ERROR, fl.id, n, t, "PSN " + f.psn + " sent again with rtx = 0 "
                    + "(its first copy had rtx = 0 too)");
            if (x != null) x.also(orig);
        }
        // MR-RTX-004: not later than one slack after a SACK / cum_psn covering it reached the sender.
        if (meta && r.coverTime[i] != 0 && fl.view != View.MIRROR) {
            long allowed = r.coverTime[i] + settings.analysis.slackNs()
                    + (fl.view == View.RECEIVER ? fl.rtt(settings.analysis.minRttNs()) : 0);
            if (t > allowed) {
                // At the receiver's tap the paths' one-way delays are unknown (a slow path makes a legal resend look
                // late): a note there; a warning at the sender's own tap.
                Finding x = findings.add(MR_RTX_004, fl.view == View.SENDER ? WARN : NOTE, fl.id, n, t, String.format("PSN %d resent %.1f us after an "
                        + "MR-SACK covering it %s", f.psn, (t - r.coverTime[i]) / 1000.0,
                        fl.view == View.SENDER ? "reached the sender" : "was sent (one minimum RTT allowed)"));
                if (x != null) x.also(r.coverFrame[i]).also(orig);
            }
        }
        // MR-RTX-001: after a NAK for p the first repeated PSN is p.
        boolean continuation = fl.lastRepeatU != Long.MIN_VALUE && u == fl.lastRepeatU + 1;
        boolean judgeNak = t >= fl.nakCausal || (fl.view == View.SENDER && t >= fl.nakFrameTime && u > fl.nakU && !continuation);
        fl.lastRepeatU = u;
        if (!meta && fl.nakU != Long.MIN_VALUE && judgeNak) {
            if (u != fl.nakU) {
                // Away from the requester's tap the resent p may have been lost before the tap: only a note then.
                Severity sev = fl.view == View.SENDER ? ERROR : u < fl.nakU ? WARN : NOTE;
                Finding x = findings.add(MR_RTX_001, sev, fl.id, n, t, "after a NAK PSN sequence error for "
                        + wrap(fl.nakU) + " the first PSN sent again is " + f.psn + (sev == NOTE ? " (PSN " + wrap(fl.nakU)
                        + " may have been resent and lost before this tap)" : ""));
                if (x != null) x.also(fl.nakFrame);
            }
            fl.nakU = Long.MIN_VALUE;
        }
        if ((r.st[i] & FirstCopies.UNJUDGED) != 0) {
            // The first copy was not judged: this copy stands for it.
            int keep = r.st[i] & (FirstCopies.COVERED | FirstCopies.RESERVED);
            record(d, f, fl, u);
            r.st[i] = (byte) (r.st[i] | keep);
        } else if (!f.rtx) {
            r.st[i] |= FirstCopies.RTX0;
        }
        if (idle >= 0 && !meta) idleBefore.put(n, idle);
        arrived(fl, u);
    }

    /** Idle time of the QP before each RoCEv2 retransmission (for MR-RTX-005's message). */
    final Map<Long, Long> idleBefore = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> e) { return size() > 65536; }
    });

    /** MR-RTX-002 for a READ Request re-issued at a reserved PSN q: RETH moved on by (q - p) * PMTU (§9.2). */
    private void readRetry(FrameFacts f, FlowState fl, long u, int i) {
        FirstCopies r = fl.ring;
        long p = u - r.readBack[i];
        if (!r.contains(p) || fl.pmtu <= 0 || !f.hasReth) return;
        int k = r.idx(p);
        if ((r.st[k] & FirstCopies.SEEN) == 0 || (r.st[k] & FirstCopies.UNJUDGED) != 0) return;
        long q = u - p;
        long va = r.rethVa[k] + q * fl.pmtu, len = (r.rethLen[k] & 0xFFFFFFFFL) - q * fl.pmtu;
        if (f.opcode.code() != (r.op[k] & 0xFF) || f.rethVa != va || f.rethLen != len) {
            Finding x = findings.add(MR_RTX_002, ERROR, fl.id, f.number, f.timeNs, String.format("READ Request re-issued "
                    + "at PSN %d (%d after the original) with virtual_address 0x%x and dma_length %d; §9.2 gives 0x%x and %d",
                    f.psn, q, f.rethVa, f.rethLen, va, len));
            if (x != null) x.also(r.frame[k]);
        }
    }

    // ------------------------------------------------------------------ ordered message checks (SEQ-002..005)

    private void cursor(FlowState fl, long now) {
        FirstCopies r = fl.ring;
        if (fl.cursorU < r.base()) {
            fl.cursorU = r.base();
            fl.mState = FlowState.M_SYNC;
        }
        while (fl.cursorU <= fl.maxU && r.contains(fl.cursorU)) {
            int i = r.idx(fl.cursorU);
            int st = r.st[i];
            if ((st & FirstCopies.SEEN) == 0) {
                if ((st & FirstCopies.RESERVED) != 0) {
                    fl.cursorU++;
                    continue;
                }
                if ((st & FirstCopies.SKIP) != 0 || fl.maxU - fl.cursorU > StreamLimits.MAX_WINDOW / 2) {
                    syncAfterGap(fl);
                    continue;
                }
                if (fl.cursorStuckSince == 0) fl.cursorStuckSince = now;
                if (now - fl.cursorStuckSince > settings.reorderWindowNs) {
                    syncAfterGap(fl);
                    continue;
                }
                break;
            }
            fl.cursorStuckSince = 0;
            ordered(fl, fl.cursorU, i);
            fl.cursorU++;
        }
        if (!fl.gaps.isEmpty()) checkGaps(fl, now);
    }

    private static void syncAfterGap(FlowState fl) {
        fl.cursorU++;
        fl.mState = FlowState.M_SYNC;
        fl.mPrevEndU = Long.MIN_VALUE;
        fl.cursorStuckSince = 0;
    }

    /**
     * The opcodes of both versions' tables by (tver == 1 ? 256 : 0) + code, as {@code Dissector.opcodeDef} finds them
     * (two list look-ups, calls under C1), and their families as numbers (the same string, the same number; 0 for
     * none): {@link #ordered} runs once per request PSN, and compared families with String.equals, which C1 does
     * not inline.
     */
    private static final OpcodeDef[] ORDERED_OPS = new OpcodeDef[512];
    private static final int[] FAMILY_IDS = new int[512];
    private static final int WRITE_FAMILY, READ_FAMILY;

    static {
        List<String> families = new ArrayList<>();
        families.add(null);
        for (int v = 0; v < 2; v++) {
            List<OpcodeDef> t = v == 1 ? Spec.OPCODES_TVER1 : Spec.OPCODES_TVER0;
            for (int c = 0; c < 256 && c < t.size(); c++) {
                OpcodeDef op = t.get(c);
                if (op == null) continue;
                ORDERED_OPS[v << 8 | c] = op;
                if (!families.contains(op.family())) families.add(op.family());
                FAMILY_IDS[v << 8 | c] = families.indexOf(op.family());
            }
        }
        WRITE_FAMILY = families.indexOf("write");
        READ_FAMILY = families.indexOf("read");
    }

    private void ordered(FlowState fl, long u, int i) {
        FirstCopies r = fl.ring;
        int tver = fl.tver < 0 ? 0 : fl.tver;
        int k = (tver == 1 ? 256 : 0) + (r.op[i] & 0xFF);
        OpcodeDef op = ORDERED_OPS[k];
        if (op == null || (r.st[i] & FirstCopies.UNJUDGED) != 0) {
            fl.mState = FlowState.M_SYNC;
            fl.mPrevEndU = Long.MIN_VALUE;
            return;
        }
        long frame = r.frame[i], time = r.time[i];
        OpcodeDef.Segment seg = op.segment();
        boolean firstOrOnly = seg == OpcodeDef.Segment.FIRST || seg == OpcodeDef.Segment.ONLY;
        String family = op.family();
        int familyId = FAMILY_IDS[k];
        int psn = wrap(u);
        if (fl.mState == FlowState.M_SYNC) {
            if (!firstOrOnly) return;
        } else if (fl.mState == FlowState.M_IN) {
            if (firstOrOnly) {
                Finding x = findings.add(MR_SEQ_002, ERROR, fl.id, frame, time, op.label() + " at PSN " + psn
                        + " while the " + fl.mFamily.toUpperCase() + " message started at PSN " + wrap(fl.mFirstU)
                        + " has not ended (no Last)");
                if (x != null) x.also(fl.mFirstFrame);
                fl.mPrevEndU = Long.MIN_VALUE;
            } else if (familyId != fl.mFamilyId) {
                Finding x = findings.add(MR_SEQ_002, ERROR, fl.id, frame, time, op.label() + " at PSN " + psn
                        + " inside the " + fl.mFamily.toUpperCase() + " message started at PSN " + wrap(fl.mFirstU));
                if (x != null) x.also(fl.mFirstFrame);
                fl.mState = FlowState.M_SYNC;
                return;
            }
        } else if (!firstOrOnly) {
            findings.add(MR_SEQ_002, ERROR, fl.id, frame, time, op.label() + " at PSN " + psn + " without a First"
                    + " (the previous message ended at PSN " + wrap(fl.mPrevEndU) + ")");
            fl.mState = FlowState.M_SYNC;
            return;
        }
        int payload = r.payload[i];
        // MR-SEQ-003: First/Middle carry exactly PMTU bytes, Last/Only at most PMTU.
        boolean sized = op.payload() && op.payloadBytes() < 0;
        // pmtuCheck's common verdict here (a known PMTU the packet fits): a call per request PSN saved.
        if (sized && (fl.pmtu <= 0 || (seg == OpcodeDef.Segment.FIRST || seg == OpcodeDef.Segment.MIDDLE
                ? payload != fl.pmtu : payload > fl.pmtu))) pmtuCheck(fl, op, seg, payload, frame, time, psn);
        if (firstOrOnly) {
            // MR-SEQ-005: msg_id + 1 between PSN-adjacent messages, msg_offset 0 on the first packet.
            if (tver == 1) {
                if (fl.mPrevMsgId >= 0 && fl.mPrevEndU == u - 1 && r.msgId[i] != ((fl.mPrevMsgId + 1) & 0xFFFFFFFFL)) {
                    findings.add(MR_SEQ_005, ERROR, fl.id, frame, time, "msg_id " + r.msgId[i] + " follows msg_id "
                            + fl.mPrevMsgId + " of the message just before (expected " + ((fl.mPrevMsgId + 1) & 0xFFFFFFFFL) + ")");
                }
                if (r.msgOff[i] != 0) findings.add(MR_SEQ_005, ERROR, fl.id, frame, time, op.label() + " with msg_offset "
                        + r.msgOff[i] + " (the first packet of a message carries 0)");
            }
            fl.mFirstU = u;
            fl.mFirstFrame = frame;
            fl.mFamily = family;
            fl.mFamilyId = familyId;
            fl.mMsgId = r.msgId[i];
            fl.mSum = payload;
            fl.mRethLen = r.rethLen[i];
            fl.mRethVa = r.rethVa[i];
            fl.mSprayed = false;
        } else {
            if (tver == 1) {
                long expect = fl.pmtu > 0 ? (u - fl.mFirstU) * fl.pmtu : fl.mSum;
                if (r.msgId[i] != fl.mMsgId) {
                    findings.add(MR_SEQ_005, ERROR, fl.id, frame, time, op.label() + " at PSN " + psn + " with msg_id "
                            + r.msgId[i] + " inside message " + fl.mMsgId);
                } else if (r.msgOff[i] != expect) {
                    findings.add(MR_SEQ_005, ERROR, fl.id, frame, time, op.label() + " at PSN " + psn + " with msg_offset "
                            + r.msgOff[i] + "; the message's earlier PSNs carry " + expect + " bytes");
                }
                if (r.rethLen[i] >= 0 && fl.mRethLen >= 0 && (r.rethLen[i] != fl.mRethLen || r.rethVa[i] != fl.mRethVa)) {
                    Finding x = findings.add(MR_SEQ_004, ERROR, fl.id, frame, time, op.label() + " at PSN " + psn
                            + " carries a RETH that differs from the message's first RETH (a sprayed WRITE repeats it byte for byte)");
                    if (x != null) x.also(fl.mFirstFrame);
                }
            }
            fl.mSum += payload;
        }
        fl.mState = FlowState.M_IN;
        if (seg == OpcodeDef.Segment.LAST || seg == OpcodeDef.Segment.ONLY) {
            // MR-SEQ-004: a WRITE's payload adds up to its RETH dma_length.
            if (familyId == WRITE_FAMILY && fl.mRethLen >= 0 && fl.mSum != (fl.mRethLen & 0xFFFFFFFFL)) {
                Finding x = findings.add(MR_SEQ_004, ERROR, fl.id, frame, time, "WRITE message PSN " + wrap(fl.mFirstU)
                        + ".." + psn + " carries " + fl.mSum + " payload bytes, its RETH dma_length says " + fl.mRethLen);
                if (x != null && fl.mFirstFrame != frame) x.also(fl.mFirstFrame);
            }
            fl.mState = FlowState.M_IDLE;
            fl.mPrevMsgId = r.msgId[i];
            long end = u;
            while (r.contains(end + 1) && (r.st[r.idx(end + 1)] & FirstCopies.RESERVED) != 0
                    && (r.st[r.idx(end + 1)] & FirstCopies.SEEN) == 0 && r.readBack[r.idx(end + 1)] == end + 1 - u) end++;
            fl.mPrevEndU = familyId == READ_FAMILY ? readEnd(fl, u, i) : end;
        }
    }

    private long readEnd(FlowState fl, long u, int i) {
        FirstCopies r = fl.ring;
        if (fl.pmtu > 0) return u + Math.max(1, ((r.rethLen[i] & 0xFFFFFFFFL) + fl.pmtu - 1) / fl.pmtu) - 1;
        return Long.MIN_VALUE;
    }

    private void pmtuCheck(FlowState fl, OpcodeDef op, OpcodeDef.Segment seg, int payload, long frame, long time, int psn) {
        boolean full = seg == OpcodeDef.Segment.FIRST || seg == OpcodeDef.Segment.MIDDLE;
        if (fl.pmtu <= 0 && full) {
            if (payload == 256 || payload == 512 || payload == 1024 || payload == 2048 || payload == 4096) {
                fl.pmtu = payload;
                fl.pmtuSource = "learned";
                fl.pmtuFrame = frame;
                if (fl.peer != null && fl.peer.pmtu <= 0) {
                    fl.peer.pmtu = payload;
                    fl.peer.pmtuSource = "learned";
                    fl.peer.pmtuFrame = frame;
                }
            } else {
                findings.add(MR_SEQ_003, ERROR, fl.id, frame, time, op.label() + " at PSN " + psn + " carries " + payload
                        + " bytes, which is no PMTU (256, 512, 1024, 2048 or 4096)");
            }
            return;
        }
        if (fl.pmtu <= 0) return;
        if (full ? payload == fl.pmtu : payload <= fl.pmtu) return;
        String src = "cm".equals(fl.pmtuSource) ? "from the connection setup" : "user".equals(fl.pmtuSource) ? "as given"
                : "learned from frame " + fl.pmtuFrame;
        if (full && payload != fl.pmtu) {
            Finding x = findings.add(MR_SEQ_003, ERROR, fl.id, frame, time, op.label() + " at PSN " + psn + " carries "
                    + payload + " bytes, not the PMTU of " + fl.pmtu + " (" + src + ")");
            if (x != null && "learned".equals(fl.pmtuSource)) x.also(fl.pmtuFrame);
        } else if (!full && payload > fl.pmtu) {
            findings.add(MR_SEQ_003, ERROR, fl.id, frame, time, op.label() + " at PSN " + psn + " carries " + payload
                    + " bytes, more than the PMTU of " + fl.pmtu + " (" + src + ")");
        }
    }

    // ================================================================== responses and acknowledgements

    private void response(FrameFacts f, FlowState g) {
        OpcodeDef op = f.opcode;
        boolean read = (f.opcodeKinds() & OpcodeKinds.READ) != 0;
        FlowState fl = about();
        if (read && op.payload()) {
            // MR-SEQ-003 on READ responses (the responder's PMTU is the connection's).
            FlowState pm = g.pmtu > 0 ? g : fl != null && fl.pmtu > 0 ? fl : g;
            pmtuCheck(pm, op, op.segment(), f.payloadLength, f.number, f.timeNs, f.psn);
        }
        if (fl == null || !fl.started) return;
        long u = unwrap(fl.maxU, f.psn);
        if (f.hasAeth) cover(fl, f, u + 1, g);
    }

    private void ack(FrameFacts f, FlowState g) {
        if (!f.hasAeth) return;
        FlowState fl = about();
        if (g.view != View.MIRROR) msn(f, g);
        if (fl == null || !fl.started) return;
        long u = unwrap(fl.maxU, f.psn);
        long n = f.number, t = f.timeNs;
        boolean acked1 = false;
        switch (f.aethKind) {
            case 0 -> {
                // ackBeyond's first test here: an ACK rarely covers a PSN beyond those sent (half the frames are ACKs).
                acked1 = u > fl.maxU && ackBeyond(fl, g, f, u, ACK_OF);
                cover(fl, f, u + 1, g);
            }
            case 1 -> {
                acked1 = ackBeyond(fl, g, f, u - 1, RNR_NAK_FOR);
                cover(fl, f, u, g);
            }
            case 3 -> {
                acked1 = ackBeyond(fl, g, f, u - 1, NAK_FOR);
                if (f.aethCode == 0) {
                    if (!acked1) nakPsn(fl, g, f, u);
                    fl.nakU = u;
                    fl.nakFrame = n;
                    fl.nakFrameTime = t;
                    fl.nakCausal = t + (fl.view == View.SENDER ? settings.analysis.slackNs() : fl.rtt(settings.analysis.minRttNs()));
                    if (fl.plot != null) fl.plot.mark(t, u, "nak", n, "NAK PSN sequence error, expected PSN " + f.psn);
                }
                cover(fl, f, u, g);
            }
            default -> { }
        }
    }

    /** MR-ACK-003: AETH msn never decreases in send order (ACK/NAK frames of the responder). */
    private void msn(FrameFacts f, FlowState g) {
        if (g.view == View.MIRROR) return;
        if (g.lastMsn >= 0 && diff(g.lastMsn, f.aethMsn) < 0) {
            Finding x = findings.add(MR_ACK_003, WARN, g.id, f.number, f.timeNs, "AETH msn " + f.aethMsn
                    + " after msn " + g.lastMsn);
            if (x != null) x.also(g.lastMsnFrame);
            return;
        }
        g.lastMsn = f.aethMsn;
        g.lastMsnFrame = f.number;
    }

    /**
     * MR-ACK-001: an acknowledgement covers only PSNs already sent (READ-reserved PSNs count). Judged at the
     * hosts of either end; at a mirror a note. lastU: the highest PSN it claims. Returns true if it fired.
     */
    private boolean ackBeyond(FlowState fl, FlowState g, FrameFacts f, long lastU, int kind) {
        if (lastU <= fl.maxU) return false;
        String what = ackWhat(kind, f, lastU); // built only when the acknowledgement does cover too much: ACKs are half the frames
        Severity sev = fl.view == View.MIRROR ? NOTE : ERROR;
        if (sev == ERROR) {
            // Held: a capture point merging both directions may write the PSNs just after their ACK.
            heldAcks.add(new HeldAck(fl, g.id, f.number, f.timeNs, lastU, anchors.of(f.number, MR_ACK_001), what + " covers PSN " + wrap(lastU)
                    + ", but the highest PSN " + (fl.view == View.RECEIVER ? "received" : "sent") + " so far is "
                    + wrap(fl.maxU) + " (data flow " + fl.id + ")", fl.lastReqFrame));
            return true;
        }
        Finding x = findings.add(MR_ACK_001, sev, g.id, f.number, f.timeNs, what + " covers PSN " + wrap(lastU)
                + ", but the highest PSN " + (fl.view == View.RECEIVER ? "received" : "sent") + " so far is " + wrap(fl.maxU)
                + " (data flow " + fl.id + ")");
        if (x != null) {
            x.dropSensitive = true;
            x.also(fl.lastReqFrame);
        }
        return x != null || sev == NOTE;
    }

    // What an acknowledgement is, for MR-ACK-001's message. A kind rather than a lambda that builds the text: the
    // capturing lambda was an object per ACK frame, made by a call into the VM (Unsafe.allocateInstance) from C1's code.
    private static final int ACK_OF = 0, RNR_NAK_FOR = 1, NAK_FOR = 2, SACK_CUM = 3, NACK_OF = 4;

    private static String ackWhat(int kind, FrameFacts f, long lastU) {
        return switch (kind) {
            case ACK_OF -> "ACK of PSN " + f.psn;
            case RNR_NAK_FOR -> "RNR NAK for PSN " + f.psn;
            case NAK_FOR -> "NAK for PSN " + f.psn;
            case SACK_CUM -> "MR-SACK (cum_psn " + f.sackCum + ")";
            default -> "MR-NACK of PSNs " + f.nackFirst + ".." + wrap(lastU);
        };
    }

    /** Capture points that merge two directions write a request up to this long after its ACK (ibdump). */
    static final long CAPTURE_REORDER_NS = 50_000;

    /** An MR-ACK-001 error waiting for the reordering tolerance: void if the PSNs appear in time. */
    private record HeldAck(FlowState fl, String flow, long frame, long time, long lastU, Anchor anchor, String message,
                           long also) {}

    private final java.util.ArrayDeque<HeldAck> heldAcks = new java.util.ArrayDeque<>();

    private void releaseHeldAcks(long t) {
        HeldAck h;
        while ((h = heldAcks.peek()) != null && t - h.time() > CAPTURE_REORDER_NS) {
            heldAcks.poll();
            if (h.fl().maxU >= h.lastU()) continue; // the requests were captured just after their ACK
            Finding x = findings.add(MR_ACK_001, ERROR, h.flow(), h.frame(), h.time(), h.message());
            if (x != null) {
                x.at(h.anchor());
                x.dropSensitive = true;
                x.also(h.also());
            }
        }
    }

    /** MR-ACK-002: a NAK PSN sequence error names the first PSN the responder had not received. */
    private void nakPsn(FlowState fl, FlowState g, FrameFacts f, long u) {
        if (fl.view == View.RECEIVER) {
            if (u != fl.ePsnU) {
                Finding x = findings.add(MR_ACK_002, ERROR, g.id, f.number, f.timeNs, "NAK PSN sequence error for PSN "
                        + f.psn + ", but the first PSN the responder had not received is " + wrap(fl.ePsnU));
                if (x != null) {
                    x.dropSensitive = true;
                    x.ifDrops = WARN;
                }
            }
            return;
        }
        if (u < fl.cumU) {
            findings.add(MR_ACK_002, ERROR, g.id, f.number, f.timeNs, "NAK PSN sequence error for PSN " + f.psn
                    + ", which was already acknowledged (acknowledged up to PSN " + wrap(fl.cumU - 1) + ")");
        }
    }

    /** Everything before toU is acknowledged by this frame (cumulative). */
    private void cover(FlowState fl, FrameFacts f, long toU, FlowState g) {
        FirstCopies r = fl.ring;
        if (toU > fl.maxU + 1) toU = fl.maxU + 1;
        if (toU <= fl.cumU) return;
        for (long p = Math.max(fl.cumU, r.base()); p < toU && r.contains(p); p++) coverOne(fl, r, p, f);
        fl.cumU = toU;
        if (fl.view == View.RECEIVER && f.tver == 0 && toU > fl.ePsnU) fl.ePsnU = toU;
    }

    private void coverOne(FlowState fl, FirstCopies r, long p, FrameFacts f) {
        int i = r.idx(p);
        if ((r.st[i] & FirstCopies.COVERED) != 0) return;
        r.st[i] |= FirstCopies.COVERED;
        r.coverTime[i] = f.timeNs;
        r.coverFrame[i] = f.number;
        if ((r.st[i] & FirstCopies.SEEN) != 0 && fl.view == View.SENDER && r.time[i] > 0) {
            long rtt = f.timeNs - r.time[i];
            if (rtt > 0 && rtt < fl.minRtt) {
                fl.minRtt = rtt;
                if (fl.peer != null) fl.peer.minRtt = Math.min(fl.peer.minRtt, rtt);
            }
        }
    }

    // ================================================================== MetaRoCE control packets and CNPs

    private void control(FrameFacts f, FlowState g) {
        // Cut before its extended header: not judged on fields it does not have (FrameFacts#hasControlHeader).
        if (!f.hasControlHeader()) return;
        switch (f.opcode.family()) {
            case "cnp" -> cnp(f, g);
            case "sack" -> sack(f, g);
            case "nack" -> nack(f, g);
            case "credit" -> creditGrant(f, g);
            case "probe" -> probe(f, g);
            default -> { }
        }
    }

    /** MR-CC-001: CNPs per QP, MR-CNPs per QP and path, at least the CNP interval apart. */
    private void cnp(FrameFacts f, FlowState g) {
        long t = f.timeNs, n = f.number;
        long interval = settings.analysis.cnpIntervalNs();
        boolean atSender = g.view == View.SENDER;
        long limit = atSender ? interval : interval - 10_000;
        Severity sev = atSender ? WARN : NOTE;
        FlowState data = about();
        if (data != null && data.plot != null) data.plot.mark(t, Long.MIN_VALUE, "cnp", n, f.hasMrCnp ? "MR-CNP path " + f.cnpPath : "CNP");
        long[] last;
        String what;
        if (f.hasMrCnp) {
            if (g.mrCnp == null) g.mrCnp = new HashMap<>();
            last = g.mrCnp.computeIfAbsent(f.cnpPath, k -> new long[] {Long.MIN_VALUE / 4, 0});
            what = "MR-CNP for path " + f.cnpPath;
        } else {
            last = new long[] {g.lastCnpTime, g.lastCnpFrame};
            what = "CNP";
        }
        long gap = t - last[0];
        if (gap < limit) {
            Finding x = findings.add(MR_CC_001, sev, g.id, n, t, String.format("%s %.1f us after the previous one for this "
                    + "QP (CNP interval %.1f us%s)", what, gap / 1000.0, interval / 1000.0, atSender ? "" : ", 10 us jitter allowed"));
            if (x != null) x.also(last[1]);
        }
        if (f.hasMrCnp) {
            last[0] = t;
            last[1] = n;
        } else {
            g.lastCnpTime = t;
            g.lastCnpFrame = n;
        }
    }

    /** MR-ACK-001 and MR-ACK-004 on an MR-SACK, and the coverage MR-RTX-004 and MR-CTL-003 use. */
    private void sack(FrameFacts f, FlowState g) {
        long n = f.number, t = f.timeNs;
        // MR-ACK-004: base_psn within its range.
        int dist = (f.sackBase - f.sackCum) & MASK;
        if (dist < 1 || dist > (1 << 23) - 64) {
            findings.add(MR_ACK_004, ERROR, g.id, n, t, "base_psn " + f.sackBase + " is " + diff(f.sackCum, f.sackBase)
                    + " from cum_psn " + f.sackCum + " (must be 1 .. 2^23 - 64 after it)");
        }
        FlowState fl = about();
        long txTs = f.tsValid ? f.txTs : -1;
        if (fl == null || !fl.started) {
            return;
        }
        long cum = unwrap(fl.maxU, f.sackCum);
        long base = unwrap(cum, f.sackBase);
        // MR-ACK-001: cum_psn - 1 and the bitmap's set bits were sent.
        long highest = cum - 1;
        for (int b = 63; b >= 0; b--) {
            if ((f.sackBitmap >>> b & 1) != 0) {
                highest = Math.max(highest, base + b);
                break;
            }
        }
        boolean beyond = ackBeyond(fl, g, f, highest, SACK_CUM);
        // MR-ACK-004: in send order (tx_timestamp) cum_psn never goes back, a received bit is never cleared.
        long[] mine = {txTs, cum, base, f.sackBitmap, n, t};
        for (int k = 0; k < Math.min(g.sackCount, g.sackHist.length); k++) {
            long[] o = g.sackHist[k];
            if (o == null) continue;
            boolean oBefore = txTs >= 0 && o[0] >= 0 ? tsBefore(o[0], txTs) : true;
            long[] early = oBefore ? o : mine, late = oBefore ? mine : o;
            if (early[0] == late[0] && early[0] >= 0) continue;
            String problem = null;
            if (late[1] < early[1]) {
                problem = "cum_psn " + wrap(late[1]) + " is behind cum_psn " + wrap(early[1]) + " of an MR-SACK sent before it";
            } else {
                long cleared = clearedBit(early, late);
                if (cleared != Long.MIN_VALUE) problem = "PSN " + wrap(cleared) + " is reported missing after an MR-SACK sent "
                        + "before it reported it received";
            }
            if (problem != null) {
                // The finding belongs to the SACK that was sent later (by tx_timestamp), whichever arrived first.
                Finding x = findings.add(MR_ACK_004, ERROR, g.id, late[4], late[5], problem + " (frame " + early[4]
                        + " was sent first, by tx_timestamp)");
                if (x != null) x.also(early[4]);
                break;
            }
        }
        g.addSack(mine);
        if (beyond) return;
        // Coverage for MR-RTX-004 (cum and bitmap) and the sender's view of acknowledged PSNs.
        cover(fl, f, cum, g);
        FirstCopies r = fl.ring;
        for (int b = 0; b < 64; b++) {
            if ((f.sackBitmap >>> b & 1) == 0) continue;
            long p = base + b;
            if (r.contains(p) && p <= fl.maxU) coverOne(fl, r, p, f);
        }
        if (fl.plot != null && fl.view != View.SENDER) fl.plot.mark(t, cum, "sack", n, "MR-SACK cum_psn " + f.sackCum);
    }

    private static boolean tsBefore(long a, long b) {
        long d = (b - a) & 0xFFFFFFFFL;
        return d != 0 && d < 0x80000000L;
    }

    /** A PSN the early SACK reported received that the late one reports missing, or Long.MIN_VALUE. */
    private static long clearedBit(long[] early, long[] late) {
        long lCum = late[1], lBase = late[2], lBm = late[3];
        // PSNs before early's cum are received; late reports missing: lCum itself, and zero bits of its window.
        if (lCum < early[1]) return lCum;
        for (int b = 0; b < 64; b++) {
            if ((lBm >>> b & 1) != 0) continue;
            long p = lBase + b;
            if (p < lCum) continue;
            if (p < early[1]) return p;
            long eb = p - early[2];
            if (eb >= 0 && eb < 64 && (early[3] >>> eb & 1) != 0) return p;
        }
        // lCum itself is "not received": was it reported received before?
        long eb = lCum - early[2];
        if (eb >= 0 && eb < 64 && (early[3] >>> eb & 1) != 0) return lCum;
        return Long.MIN_VALUE;
    }

    /** MR-CTL-003 and MR-ACK-001 on an MR-NACK. */
    private void nack(FrameFacts f, FlowState g) {
        long n = f.number, t = f.timeNs;
        if (f.nackCount == 0) findings.add(MR_CTL_003, ERROR, g.id, n, t, "MR-NACK with count 0 (it names at least one PSN)");
        FlowState fl = about();
        if (fl == null || !fl.started) return;
        long first = unwrap(fl.maxU, f.nackFirst);
        long count = Math.max(1, f.nackCount);
        if (fl.plot != null) fl.plot.mark(t, first, "nak", n, "MR-NACK " + f.nackFirst + " x" + f.nackCount);
        if (fl.view == View.SENDER && ackBeyond(fl, g, f, first + count - 1, NACK_OF)) return;
        // Not yet covered by the cum_psn of the SACKs its sender sent before it (send order: tx_timestamp).
        long txTs = f.tsValid ? f.txTs : -1;
        long covered = Long.MIN_VALUE, frame = 0;
        for (int k = 0; k < Math.min(g.sackCount, g.sackHist.length); k++) {
            long[] o = g.sackHist[k];
            if (o == null) continue;
            boolean before = txTs >= 0 && o[0] >= 0 ? tsBefore(o[0], txTs) : o[5] <= t;
            if (before && o[1] > covered) {
                covered = o[1];
                frame = o[4];
            }
        }
        if (covered != Long.MIN_VALUE && first < covered) {
            Finding x = findings.add(MR_CTL_003, ERROR, g.id, n, t, "MR-NACK for PSN " + f.nackFirst + (count > 1 ? ".."
                    + wrap(first + count - 1) : "") + ", already covered by cum_psn " + wrap(covered) + " of an earlier MR-SACK");
            if (x != null) x.also(frame);
        }
    }

    private void creditGrant(FrameFacts f, FlowState g) {
        FlowState fl = about();
        if (fl == null) return;
        fl.creditSeen = true;
        fl.credit = true;
        if (!fl.started) {
            // Grants before the first request: keep them relative to the PSN they name.
            fl.grants.add(new long[] {f.timeNs, ORIGIN + (f.creditPsn & MASK), f.number});
        } else {
            fl.grants.add(new long[] {f.timeNs, unwrap(fl.maxU, f.creditPsn), f.number});
        }
        while (fl.grants.size() > 64) fl.grants.poll();
    }

    /** MR-CTL-002: an MR-PROBE-REPLY answers a probe the tap saw. */
    private void probe(FrameFacts f, FlowState g) {
        if (f.opcodeValue == 0xE4) {
            java.util.ArrayDeque<long[]> h = probesByHosts.computeIfAbsent(g.flow.key().hosts(), k -> new java.util.ArrayDeque<>());
            h.add(new long[] {f.probeSeq, f.pathId, f.txTs, f.timeNs, f.number, g.flow.index()});
            if (h.size() > 32) h.poll();
            return;
        }
        // The probe went the other way: from this reply's destination to its source (its peer's, once paired).
        java.util.ArrayDeque<long[]> h = probesByHosts.get(g.flow.key().reverseHosts());
        if (h == null) return;
        long[] sameSeq = null;
        for (long[] p : h) {
            if (g.peer != null && p[5] != g.peer.flow.index()) continue;
            if (p[0] != f.probeSeq || p[3] > f.timeNs) continue;
            if (p[1] == f.pathId && p[2] == f.probeEcho) return;
            if (sameSeq == null || p[1] == f.pathId) sameSeq = p;
        }
        if (sameSeq == null) return; // the tap did not see the probe
        List<String> bad = new ArrayList<>();
        if (sameSeq[1] != f.pathId) bad.add("path_id " + f.pathId + " (the probe's is " + sameSeq[1] + ")");
        if (sameSeq[2] != f.probeEcho) bad.add("echo_timestamp " + f.probeEcho + " (the probe's tx_timestamp is " + sameSeq[2] + ")");
        Finding x = findings.add(MR_CTL_002, ERROR, g.id, f.number, f.timeNs, "MR-PROBE-REPLY to probe_seq " + f.probeSeq
                + " with " + String.join(", ", bad));
        if (x != null) x.also(sameSeq[4]);
    }

    // ================================================================== expiry and end

    private void expireIdle(long t) {
        long idle = settings.analysis.idleExpiryNs();
        for (FlowState fl : flowList) {
            if (fl.ring != null && t - fl.lastActivity > idle && (fl.peer == null || t - fl.peer.lastActivity > idle)) {
                // The engine releases its window of an idle flow too; a new request starts a new one.
                finishGaps(fl, t);
                fl.ring = null;
                fl.started = false;
            }
        }
    }

    private void finishGaps(FlowState fl, long now) {
        // Principle (e): gaps still inside their window when the stream ends are not judged.
        while (!fl.gaps.isEmpty()) {
            long[] g = fl.gaps.poll();
            if (now - g[1] > settings.reorderWindowNs) gapVerdict(fl, g, true);
        }
    }

    void finish(long captureDrops) {
        // The report pictures show each flow with its peer: the engine's final pairing.
        for (int i = 0, n = flowList.size(); i < n; i++) {
            FlowState fl = flowList.get(i);
            QpFlow p = fl.flow.peer();
            fl.peer = p == null ? null : existing(p);
        }
        releaseHeldAcks(Long.MAX_VALUE);
        for (FlowState fl : flowList) finishGaps(fl, lastNs);
        if (truncated > 0) {
            findings.add(MR_FRAME_001, NOTE, null, firstTruncFrame, 0, truncated + " frame" + (truncated == 1 ? " was" : "s were")
                    + " cut by the snap length: their ICRC, UDP checksum and retransmission byte checks were skipped "
                    + "(lengths are judged from the original length)");
        }
        anchorFresh();
        findings.captureDrops(captureDrops);
        findings.finishFolded();
    }

    static String hex2(int v) { return String.format("%02x", v); }
}
