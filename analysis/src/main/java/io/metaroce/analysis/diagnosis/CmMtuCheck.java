package io.metaroce.analysis.diagnosis;

import io.metaroce.analysis.CmPairing;
import io.metaroce.analysis.FrameFacts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * "Does the path MTU fit?" (issue 15, item 5), against the connection set-up: the path MTU a CM REQ negotiated
 * for a connection against the one each direction of its QP pair uses (the payload of its First and Middle
 * packets, always exactly one PMTU), with the IP length a full packet of that size needs on the links. A QP
 * above the negotiated MTU sends packets the path was not set up for (an application override; a black hole
 * where a link is smaller); below it, the QP wastes what the path allows.
 */
final class CmMtuCheck {
    /** Connections remembered at most (as {@link CmPairing#MAX_PENDING} bounds the unanswered REQs). */
    private static final int MAX_CONNECTIONS = 65536;

    private final CmPairing pairing = new CmPairing();
    /** REQ frame by (requester address, responder address, requester QPN) until its REP pairs it. */
    private final Map<ReqKey, Long> reqFrames = new HashMap<>();
    private final List<Object[]> connections = new ArrayList<>(); // {Connection, REQ frame}

    /** equals and hashCode written out: a record's generated ones are method handles spun at run time on first
     * use (about 16 classes the AOT cache does not hold), which every capture with a CM exchange paid at start. */
    private record ReqKey(long aHi, long aLo, long bHi, long bLo, int qpn) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ReqKey k && k.aHi == aHi && k.aLo == aLo && k.bHi == bHi && k.bLo == bLo && k.qpn == qpn;
        }

        @Override
        public int hashCode() {
            return (((Long.hashCode(aHi) * 31 + Long.hashCode(aLo)) * 31 + Long.hashCode(bHi)) * 31 + Long.hashCode(bLo)) * 31 + qpn;
        }
    }

    /** A CM MAD (a frame to QP 1 with {@link FrameFacts#cm} set). */
    void cm(FrameFacts f) {
        if (f.cm == FrameFacts.CM_REQ) {
            if (reqFrames.size() >= CmPairing.MAX_PENDING) reqFrames.clear();
            reqFrames.put(new ReqKey(f.srcHi, f.srcLo, f.dstHi, f.dstLo, f.cmLocalQpn), f.number);
        }
        CmPairing.Connection c = pairing.accept(f);
        if (c == null || c.pathMtu() <= 0 || connections.size() >= MAX_CONNECTIONS) return;
        Long req = reqFrames.remove(new ReqKey(c.aHi(), c.aLo(), c.bHi(), c.bLo(), c.requester().qpn()));
        if (req != null) connections.add(new Object[] {c, req});
    }

    List<Finding> check(List<QpDirection> all) {
        List<Finding> out = new ArrayList<>();
        for (Object[] e : connections) {
            CmPairing.Connection c = (CmPairing.Connection) e[0];
            long reqFrame = (Long) e[1];
            for (QpDirection d : all) {
                boolean forward = d.srcHi == c.aHi() && d.srcLo == c.aLo() && d.dstHi == c.bHi() && d.dstLo == c.bLo()
                        && d.destQp == c.responder().qpn();
                boolean back = d.srcHi == c.bHi() && d.srcLo == c.bLo() && d.dstHi == c.aHi() && d.dstLo == c.aLo()
                        && d.destQp == c.requester().qpn();
                if ((!forward && !back) || d.maxSegmentPayload <= 0 || d.maxSegmentPayload == c.pathMtu()) continue;
                // A Middle packet: IP, UDP, BTH, payload, ICRC.
                int ipLength = (d.v6 ? 40 : 20) + 8 + 12 + d.maxSegmentPayload + 4;
                Map<String, Object> det = new LinkedHashMap<>();
                det.put("cm_path_mtu", c.pathMtu());
                det.put("segment_payload", d.maxSegmentPayload);
                det.put("segment_ip_length", ipLength);
                det.put("cm_req_frame", reqFrame);
                boolean above = d.maxSegmentPayload > c.pathMtu();
                out.add(new Finding("mtu-cm-mismatch", d.id, "mtu_cm_mismatch", null,
                        "the QP's First/Middle packets carry " + d.maxSegmentPayload + " bytes (" + ipLength
                                + "-byte IP packets) while the connection's CM REQ negotiated path MTU " + c.pathMtu()
                                + (above ? ": the QP sends larger packets than its path was set up for (dropped where a link is smaller)"
                                        : ": the QP uses less than its path allows"),
                        reqFrame < d.segmentFrame ? List.of(reqFrame, d.segmentFrame) : List.of(d.segmentFrame, reqFrame), det));
            }
        }
        return out;
    }
}
