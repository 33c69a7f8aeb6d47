package io.metaroce.cli;

import java.util.List;
import java.util.Set;

/**
 * tshark's {@code -d udp.port==N,roce} for the commands' options: the parser is the dissector's
 * {@link io.metaroce.dissector.DecodeAs}, which {@code metaroce gui -d} reads too.
 */
final class DecodeAs {
    static final String LABEL = io.metaroce.dissector.DecodeAs.LABEL;
    static final String HELP = io.metaroce.dissector.DecodeAs.HELP;

    private DecodeAs() {}

    /** 4791 plus every port the specs name. */
    static Set<Integer> ports(List<String> specs) { return io.metaroce.dissector.DecodeAs.ports(specs); }

    static int port(String d) { return io.metaroce.dissector.DecodeAs.port(d); }
}
