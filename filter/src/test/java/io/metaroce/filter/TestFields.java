package io.metaroce.filter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An in-test field table (resolver) and a frame made of explicit values (accessor). */
final class TestFields {
    private TestFields() {
    }

    static final FilterField BTH_PSN = new FilterField("bth.psn", FieldType.UNSIGNED, 1);
    static final FilterField BTH_OPCODE = new FilterField("bth.opcode", FieldType.UNSIGNED, 2,
            Map.of("RC_SEND_ONLY", 4L, "RC_RDMA_WRITE_ONLY", 10L, "RC_ACK", 17L, "UD_SEND_ONLY", 100L));
    static final FilterField BTH_SE = new FilterField("bth.se", FieldType.BOOLEAN, 3);
    static final FilterField BTH_FLAGS = new FilterField("bth.flags", FieldType.UNSIGNED, 4);
    static final FilterField BTH_DESTQP = new FilterField("bth.destqp", FieldType.UNSIGNED, 5);
    static final FilterField AETH_MSN = new FilterField("aeth.msn", FieldType.UNSIGNED, 6);
    static final FilterField AETH_SYNDROME = new FilterField("aeth.syndrome", FieldType.UNSIGNED, 7);
    static final FilterField AETH_TYPE = new FilterField("aeth.type", FieldType.UNSIGNED, 8,
            Map.of("ack", 0L, "rnr", 1L, "nak", 3L));
    static final FilterField IP_SRC = new FilterField("ip.src", FieldType.IPV4, 9);
    static final FilterField IP_DST = new FilterField("ip.dst", FieldType.IPV4, 10);
    static final FilterField IPV6_SRC = new FilterField("ipv6.src", FieldType.IPV6, 11);
    static final FilterField IPV6_DST = new FilterField("ipv6.dst", FieldType.IPV6, 12);
    static final FilterField ETH_SRC = new FilterField("eth.src", FieldType.ETHER, 13);
    static final FilterField ETH_DST = new FilterField("eth.dst", FieldType.ETHER, 14);
    static final FilterField VLAN_ID = new FilterField("vlan.id", FieldType.UNSIGNED, 15);
    static final FilterField CAUSE = new FilterField("analysis.retransmission_cause", FieldType.STRING, 16);
    static final FilterField ICRC_STATUS = new FilterField("icrc.status", FieldType.STRING, 17);
    static final FilterField PAYLOAD = new FilterField("payload", FieldType.BYTES, 18);
    static final FilterField MRTH = new FilterField("mrth", FieldType.PROTOCOL, 19);
    static final FilterField BTH = new FilterField("bth", FieldType.PROTOCOL, 20);
    static final FilterField DELTA = new FilterField("analysis.delta", FieldType.SIGNED, 21);
    static final FilterField RTT = new FilterField("analysis.ack_rtt_ns", FieldType.UNSIGNED, 22);
    static final FilterField FRAME_NUMBER = new FilterField("frame.number", FieldType.UNSIGNED, 23);
    static final FilterField MRTH_TAG = new FilterField("mrth.tag", FieldType.BYTES, 24);
    static final FilterField HOST = new FilterField("analysis.peer", FieldType.STRING, 25);
    static final FilterField NAK = new FilterField("analysis.nak", FieldType.PROTOCOL, 26);
    static final FilterField WEIRD = new FilterField("mac-lte.x-y", FieldType.UNSIGNED, 27);

    static final Map<String, FilterField> BY_NAME = new LinkedHashMap<>();

    static {
        for (FilterField f : List.of(BTH_PSN, BTH_OPCODE, BTH_SE, BTH_FLAGS, BTH_DESTQP, AETH_MSN, AETH_SYNDROME,
                AETH_TYPE, IP_SRC, IP_DST, IPV6_SRC, IPV6_DST, ETH_SRC, ETH_DST, VLAN_ID, CAUSE, ICRC_STATUS, PAYLOAD,
                MRTH, BTH, DELTA, RTT, FRAME_NUMBER, MRTH_TAG, HOST, NAK, WEIRD)) {
            BY_NAME.put(f.name(), f);
        }
    }

    /** Resolves canonical names and the Wireshark InfiniBand aliases "infiniband.bth.*". */
    static final FieldResolver RESOLVER = name -> {
        FilterField f = BY_NAME.get(name);
        if (f == null && name.startsWith("infiniband.")) {
            f = BY_NAME.get(name.substring("infiniband.".length()));
        }
        return f;
    };

    static DisplayFilter compile(String text) {
        try {
            return DisplayFilter.compile(text, RESOLVER);
        } catch (FilterException e) {
            throw new AssertionError("unexpected FilterException for [" + text + "]:\n" + e.formatted(), e);
        }
    }

    static FilterException compileError(String text) {
        try {
            DisplayFilter f = DisplayFilter.compile(text, RESOLVER);
            throw new AssertionError("expected a FilterException for [" + text + "], compiled to [" + f + "]");
        } catch (FilterException e) {
            return e;
        }
    }

    static Frame frame() {
        return new Frame();
    }

    static long ip(String dotted) {
        Long v = Literals.parseIPv4(dotted);
        if (v == null) {
            throw new IllegalArgumentException(dotted);
        }
        return v;
    }

    static byte[] ip6(String text) {
        byte[] b = Literals.parseIPv6(text);
        if (b == null) {
            throw new IllegalArgumentException(text);
        }
        return b;
    }

    static long mac(String text) {
        Long v = Literals.parseMac(text);
        if (v == null) {
            throw new IllegalArgumentException(text);
        }
        return v;
    }

    static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    /** A frame: each field maps to its occurrences (Long, byte[] or String). Reading does not allocate. */
    static final class Frame implements FieldAccessor {
        private final Map<String, List<Object>> values = new HashMap<>();
        Frame add(FilterField f, Object... occurrences) {
            List<Object> list = values.computeIfAbsent(f.name(), k -> new ArrayList<>());
            for (Object o : occurrences) {
                list.add(o instanceof Integer i ? Long.valueOf(i) : o);
            }
            return this;
        }

        Frame present(FilterField protocol) {
            return add(protocol, Boolean.TRUE);
        }

        @Override
        public int count(FilterField f) {
            List<Object> l = values.get(f.name());
            return l == null ? 0 : l.size();
        }

        @Override
        public long asLong(FilterField f, int i) {
            return Long.class.cast(values.get(f.name()).get(i));
        }

        @Override
        public byte[] asBytes(FilterField f, int i) {
            return byte[].class.cast(values.get(f.name()).get(i));
        }

        @Override
        public String asString(FilterField f, int i) {
            return String.class.cast(values.get(f.name()).get(i));
        }
    }
}
