package io.metaroce.analysis;

/**
 * Connection management frames (spec §4.1) applied to the flows: a CM REQ/REP pair (paired by
 * {@link CmPairing}) pairs the two data flows of the connection and gives each its start PSN, path MTU and the
 * MetaRoCE parameters its sender announced. Not thread-safe.
 */
final class ConnectionSetup {
    private final AnalysisSettings settings;
    private final FlowTable flows;
    private final CmPairing cmPairing = new CmPairing();
    /** CM frames seen. */
    long cmFrames;

    ConnectionSetup(AnalysisSettings settings, FlowTable flows) {
        this.settings = settings;
        this.flows = flows;
    }

    /** A judged frame carrying a CM MAD. */
    void accept(FrameFacts f) {
        cmFrames++;
        CmPairing.Connection c = cmPairing.accept(f);
        if (c == null) return;
        CmPairing.Side a = c.requester(), b = c.responder();
        Flow ab = flows.of(c.v6(), c.aHi(), c.aLo(), c.bHi(), c.bLo(), b.qpn());
        Flow ba = flows.of(c.v6(), c.bHi(), c.bLo(), c.aHi(), c.aLo(), a.qpn());
        flows.pair(ab, ba, "cm");
        if (!ab.started) ab.startPsn = a.startPsn();
        if (!ba.started) ba.startPsn = b.startPsn();
        ab.announced = a;
        ba.announced = b;
        ab.cmPathMtu = ba.cmPathMtu = c.pathMtu();
        if (c.pathMtu() > 0) {
            if (ab.pmtu == 0) ab.pmtu = c.pathMtu();
            if (ba.pmtu == 0) ba.pmtu = c.pathMtu();
        }
        params(ab, a);
        params(ba, b);
    }

    /** The MetaRoCE connection parameters a side announced for the flow it sends. */
    private void params(Flow fl, CmPairing.Side s) {
        if (!s.mrcm()) return;
        fl.spray = s.spray();
        fl.credit = s.credit();
        if (fl.pathCount == 0) fl.pathCount = s.pathCount();
        if (s.pmtu() > 0 && settings.pmtuOverrides().isEmpty()) fl.pmtu = s.pmtu();
    }
}
