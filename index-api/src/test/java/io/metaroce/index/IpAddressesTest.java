package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link IpAddresses#parse} picks the address family by the text before parsing (no exception per IPv6
 * literal): it must accept and refuse exactly what {@link InetAddress#ofLiteral} does, for both families.
 */
class IpAddressesTest {
    @Test
    void parsesWhatTheJdkParsesAndNothingElse() {
        List<String> valid = List.of("10.0.0.1", "0.0.0.0", "255.255.255.255", "192.168.1.200", "fd00::1", "fd00::107", "::",
                "::1", "2001:db8::8:800:200c:417a", "fe80::1:2:3:4", "::ffff:10.1.2.3", "::10.1.2.3", "1:2:3:4:5:6:7:8",
                "10.0.0" /* the JDK's d.d.d form: 10.0.0.0 */);
        for (String s : valid) assertEquals(InetAddress.ofLiteral(s), IpAddresses.parse(s), s);
        // An IPv4-mapped IPv6 literal is the IPv4 address, as InetAddress.ofLiteral gives it.
        assertEquals(4, IpAddresses.parse("::ffff:10.1.2.3").getAddress().length);
        List<String> invalid = List.of("10.0.0.256", "10.0.0.1.2", "1:2:3:4:5:6:7:8:9", "fd00:::1", "10.0.0.1:80", "::g",
                "host", "", "-1.0.0.0", ":", "1.2.3.4/24");
        for (String s : invalid) assertNull(IpAddresses.parse(s), s);
        assertNull(IpAddresses.parse(null));
    }
}
