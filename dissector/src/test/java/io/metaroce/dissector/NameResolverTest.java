package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resolver on files written here (Wireshark's formats, not its data): manuf's OUIs and /28, /36 blocks, wka's
 * well-known addresses and ranges, ethers, hosts with comments, aliases, IPv6 and bad lines. tshark as the second
 * opinion on the same rules over the system's files is in the cli's NameResolutionTest.
 */
class NameResolverTest {
    @TempDir
    Path dir;

    private NameResolver macs() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data")), config = Files.createDirectories(dir.resolve("config"));
        Files.writeString(data.resolve("manuf"), String.join("\n",
                "# comment",
                "00:02:C9\tMellanox\tMellanox Technologies, Inc.",
                "B8:59:9F\tMellanox\tMellanox Technologies, Inc.",
                "00:55:DA\tIEEERegi\tIEEE Registration Authority",
                "00:55:DA:A0:00:00/28\tSpeechla\tSpeechlab",
                "00:55:DA:F0:00:00/28\tPrivate",
                "00:1B:C5:00:00:00/36\tConvergi\tConverging Systems Inc.",
                "zz:zz:zz\tBroken"));
        // The user's own manuf: read at the start, its bad lines reported; Wireshark's is read at the first lookup, quietly.
        Files.writeString(config.resolve("manuf"), "zz:zz:zz\tBroken\n00:11:22\nB8:59:9F\tMyNics\n");
        Files.writeString(data.resolve("wka"), String.join("\n",
                "01-80-C2-00-00-01\tMAC-specific-ctrl-proto-01",
                "00-00-0C-07-AC/40\tAll-HSRP-routers",
                "FF-FF-FF-FF-FF-FF\tBroadcast"));
        Files.writeString(config.resolve("ethers"), "00:02:c9:12:34:56 my-nic\n00-02-c9-00-00-07\tother-nic # comment\n");
        return NameResolver.load("m", List.of(), data, config, null);
    }

    private static long mac(String s) {
        return NameResolver.macAddress(s)[0];
    }

    @Test
    void macNamesFollowWiresharksLookupOrder() throws Exception {
        NameResolver r = macs();
        assertEquals(List.of(), r.warnings().stream().filter(w -> w.contains("data")).toList(), "Wireshark's files not read yet");
        assertEquals("my-nic", r.mac(mac("00:02:c9:12:34:56")), "ethers first");
        assertEquals("other-nic", r.mac(mac("00:02:c9:00:00:07")), "ethers with '-' separators and a comment");
        assertEquals("Mellanox_ab:cd:ef", r.mac(mac("00:02:c9:ab:cd:ef")), "an OUI: its short name and the last three bytes");
        assertEquals("Mellanox_00:00:01", r.mac(mac("01:02:c9:00:00:01")), "a group address names its vendor (I/G bit cleared)");
        assertEquals("03:02:c9:00:00:02", r.mac(mac("03:02:c9:00:00:02")), "the U/L bit is kept: a local address has no vendor");
        assertEquals("Speechla_01:23:45", r.mac(mac("00:55:da:a1:23:45")), "a /28 block: the 20 bits after it");
        assertEquals("Convergi_01:23", r.mac(mac("00:1b:c5:00:01:23")), "a /36 block: the 12 bits after it");
        assertEquals("Convergi_05", r.mac(mac("00:1b:c5:00:00:05")), "tshark's longest prefix first: a zero 5th byte matches at 40 bits");
        assertEquals("Private_01", r.mac(mac("00:55:da:f0:00:01")));
        assertEquals("IEEERegi_01:23:45", r.mac(mac("00:55:da:01:23:45")), "outside the /28 blocks read, the OUI");
        assertEquals("MAC-specific-ctrl-proto-01", r.mac(mac("01:80:c2:00:00:01")), "a well-known address, whole");
        assertEquals("All-HSRP-routers_07", r.mac(mac("00:00:0c:07:ac:07")), "a well-known /40 range");
        assertEquals("Broadcast", r.mac(mac("ff:ff:ff:ff:ff:ff")));
        assertEquals("02:00:00:00:01:10", r.mac(mac("02:00:00:00:01:10")), "no name: the digits");
        assertEquals(r.mac(mac("00:02:c9:ab:cd:ef")), r.mac(mac("00:02:c9:ab:cd:ef")), "cached, the same");
        assertEquals("MyNics_ab:cd:ef", r.mac(mac("b8:59:9f:ab:cd:ef")), "the personal manuf wins over Wireshark's");
        assertEquals(List.of(dir.resolve("config").resolve("manuf") + ": 2 lines skipped (not ADDRESS NAME), the first line 1"), r.warnings());
        assertEquals("Mellanox_ab:cd:ef (00:02:c9:ab:cd:ef)", r.labelled("eth.src", "00:02:c9:ab:cd:ef"), "-V's line, as tshark's");
        assertEquals("02:00:00:00:01:10", r.labelled("eth.dst", "02:00:00:00:01:10"), "no name: no parentheses");
        assertEquals("x", r.labelled("bth.psn", "x"));

        NameResolver off = NameResolver.load("n", List.of(), dir.resolve("data"), dir.resolve("config"), null);
        assertEquals("00:02:c9:ab:cd:ef", off.mac(mac("00:02:c9:ab:cd:ef")), "without m, no MAC names");
        assertFalse(off.macResolved(mac("00:02:c9:ab:cd:ef")));
    }

    @Test
    void hostsFilesWithCommentsAliasesIpv6AndBadLines() throws Exception {
        Path hosts = dir.resolve("hosts"), later = dir.resolve("later");
        Files.writeString(hosts, String.join("\n",
                "# the fabric",
                "10.0.0.1 gpu-node-01 gpu01   # alias and comment",
                "10.0.0.2\tgpu-node-02",
                "",
                "fd00::10 v6-node-a",
                "FD00:0:0::20 v6-node-b",
                "::ffff:10.0.0.9 mapped",
                "10.0.0.300 bad-octet",
                "gpu-node-03 10.0.0.3",
                "10.0.0.4",
                "fe80::1%eth0 scoped"));
        Files.writeString(later, "10.0.0.2 renamed\n");
        NameResolver r = NameResolver.load("n", List.of(hosts, later), null, null, null);
        assertEquals("gpu-node-01", r.ipv4(0x0A000001), "the first name, not the alias");
        assertEquals("renamed", r.ipv4(0x0A000002), "a later file's entry wins, as in Wireshark");
        assertEquals("10.0.0.3", r.ipv4(0x0A000003), "a name before its address is no entry");
        assertEquals("v6-node-a", r.ipv6Name("fd00::10"));
        assertEquals("v6-node-b", r.ipv6Name("fd00::20"), "IPv6 normalised (RFC 5952)");
        assertEquals("mapped", r.ipv6Name("::ffff:10.0.0.9"));
        assertEquals("gpu-node-01 (10.0.0.1)", r.labelled("ip.src", "10.0.0.1"));
        assertEquals("v6-node-a (fd00::10)", r.labelled("ipv6.dst", "fd00::10"));
        assertEquals(List.of(hosts + ": 4 lines skipped (not ADDRESS NAME), the first line 8"), r.warnings());
        assertEquals("hosts: " + hosts, r.origin("gpu-node-01"));
        assertEquals("gpu-node-01", r.hostEntries().get("10.0.0.1"));

        NameResolver off = NameResolver.load("m", List.of(hosts), null, null, null);
        assertEquals("10.0.0.1", off.ipv4(0x0A000001), "-H without n: read, not shown (tshark's -H)");
        assertNull(off.ipv4Name(0x0A000001));
        assertThrows(NameResolver.UnreadableFile.class, () -> NameResolver.load("n", List.of(dir.resolve("none")), null, null, null));
        assertThrows(NameResolver.UnreadableFile.class, () -> NameResolver.load("n", List.of(dir), null, null, null), "a folder");
        assertEquals(Character.valueOf('x'), NameResolver.unknownFlag("mnx"));
        assertNull(NameResolver.unknownFlag("mntdNvgs"));
    }
}
