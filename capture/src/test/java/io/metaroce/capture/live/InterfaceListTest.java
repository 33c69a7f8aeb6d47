package io.metaroce.capture.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class InterfaceListTest {
    @Test
    void addressesAreShownAsUsersWriteThem() throws Exception {
        assertEquals("fd00::2", InterfaceList.text(InetAddress.getByName("fd00:0:0:0:0:0:0:2")));
        assertEquals("fe80::fc:ff:fe00:1", InterfaceList.text(InetAddress.getByName("fe80:0:0:0:fc:ff:fe00:1")));
        assertEquals("::1", InterfaceList.text(InetAddress.getByName("::1")));
        assertEquals("1:0:2::3", InterfaceList.text(InetAddress.getByName("1:0:2:0:0:0:0:3")));
        assertEquals("10.0.0.1", InterfaceList.text(InetAddress.getByName("10.0.0.1")));
    }

    @Test
    void filterForExtraRocePorts() {
        assertEquals("udp port 4791", LiveSettings.roceFilter(java.util.List.of(4791)));
        assertEquals("udp port 4791 or udp port 4792", LiveSettings.roceFilter(java.util.List.of(4791, 4792)));
    }
}
