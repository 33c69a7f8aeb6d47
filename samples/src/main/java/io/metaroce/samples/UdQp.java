package io.metaroce.samples;

/** A UD QP pair: datagrams (UD SEND Only, with and without immediate) with a DETH, no acknowledgements. */
final class UdQp implements Endpoint {
    static final long QKEY = 0x11111111L;
    final Sim sim;
    final Host host;
    final int qpn;
    UdQp peer;
    Flow flow;
    long received;

    UdQp(Sim sim, Host host, int qpn) {
        this.sim = sim;
        this.host = host;
        this.qpn = qpn;
        host.qps.put(qpn, this);
    }

    static void pair(UdQp a, UdQp b) {
        a.peer = b;
        b.peer = a;
        a.flow = a.sim.flow(a.host, b.host, b.qpn, "rocev2", "ud");
        a.flow.srcQp = a.qpn;
        b.flow = b.sim.flow(b.host, a.host, a.qpn, "rocev2", "ud");
        b.flow.srcQp = b.qpn;
        a.flow.peer = b.flow;
        b.flow.peer = a.flow;
    }

    /** Sends count datagrams of up to maxPayload bytes, every interval ns from start. */
    void stream(long start, int count, long interval, int maxPayload, int[] psn) {
        for (int i = 0; i < count; i++) {
            int k = i;
            sim.at(start + i * interval, () -> {
                if (!sim.running()) return;
                sim.send(datagram(psn[0], 16 + sim.rng.nextInt(Math.max(1, maxPayload - 15)), k % 3 == 2));
                psn[0] = (psn[0] + 1) & 0xFFFFFF;
                flow.messages++;
            });
        }
    }

    Pkt datagram(int psn, int payload, boolean imm) {
        Pkt p = new Pkt();
        p.src = host;
        p.dst = peer.host;
        p.destQp = peer.qpn;
        p.flow = flow;
        p.tver = 0;
        p.opcode = imm ? 0x65 : 0x64;
        p.imm = 0xC0FFEE00L | (psn & 0xFF);
        p.qKey = QKEY;
        p.srcQp = qpn;
        p.psn = psn;
        p.dscp = host.dscp;
        p.sport = 0xC000 | (qpn & 0x3FFF);
        p.payloadLen = payload;
        p.payloadSeed = psn * 131;
        return p;
    }

    @Override
    public void receive(Pkt p) { received++; }
}
