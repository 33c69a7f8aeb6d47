package io.metaroce.gui.stats;

import io.metaroce.dissector.Addresses;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.NameResolver;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import java.util.Map;
import java.util.TreeMap;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;

/**
 * Statistics > Resolved Addresses, as Wireshark's: the addresses of this capture that have a name under View > Name
 * Resolution, with the name and where it came from (a hosts file, ethers, Wireshark's manuf or wka). One pass over
 * the capture (or the displayed frames) looks every frame's Ethernet and IP addresses up; nothing when resolution
 * is off or no name matches (the status says so).
 */
public final class ResolvedAddressesWindow implements GuiWindow {
    @Override
    public Place place() { return Place.STATISTICS; }

    @Override
    public String title() { return "Resolved Addresses"; }

    /** A resolved address: the type (Host, MAC), the address, its name and the name's source. */
    public record Entry(String type, String address, String name, String source) { }

    /** One pass thread's addresses, keyed by type and address (sorted: hosts first, then MACs). */
    static final class Found {
        final Map<String, Entry> entries = new TreeMap<>();
        private final NameResolver names;

        Found(NameResolver names) { this.names = names; }

        void add(Dissection d) {
            var s = d.data();
            int eth = d.offsetOf(Eth.HEADER);
            if (eth >= 0 && names.resolvesMac()) {
                mac(Eth.src(s, eth));
                mac(Eth.dst(s, eth));
            }
            int ip = d.offsetOf(Ip.HEADER);
            if (ip >= 0) {
                host(Addresses.ipv4(Ip.src(s, ip)), names.ipv4Name(Ip.src(s, ip)));
                host(Addresses.ipv4(Ip.dst(s, ip)), names.ipv4Name(Ip.dst(s, ip)));
            }
            int ip6 = d.offsetOf(Ipv6.HEADER);
            if (ip6 >= 0) {
                host(Addresses.ipv6(Ipv6.src(s, ip6)), names.ipv6Name(Ipv6.src(s, ip6)));
                host(Addresses.ipv6(Ipv6.dst(s, ip6)), names.ipv6Name(Ipv6.dst(s, ip6)));
            }
        }

        private void mac(long a) {
            String key = "2 " + Addresses.mac(a);
            if (entries.containsKey(key) || entries.size() >= NameResolver.CACHE_CAP) return;
            String n = names.mac(a);
            if (!n.equals(Addresses.mac(a))) entries.put(key, new Entry("MAC", Addresses.mac(a), n, source(n)));
        }

        private void host(String address, String name) {
            if (name == null || entries.size() >= NameResolver.CACHE_CAP) return;
            entries.putIfAbsent("1 " + address, new Entry("Host", address, name, names.origin(name)));
        }

        /** A vendor name's source is its prefix's ("Mellanox" of "Mellanox_12:34:56"). */
        private String source(String name) {
            String o = names.origin(name);
            int cut = name.lastIndexOf('_');
            return o.isEmpty() && cut > 0 ? names.origin(name.substring(0, cut)) : o;
        }

        void merge(Found other) {
            for (Map.Entry<String, Entry> e : other.entries.entrySet()) entries.putIfAbsent(e.getKey(), e.getValue());
        }
    }

    @Override
    public void open(GuiContext ctx) {
        TableView<Entry> table = new TableView<>();
        table.setId("resolved-table");
        table.getColumns().add(StatsTables.col("Type", Entry::type, 60));
        table.getColumns().add(StatsTables.col("Address", Entry::address, 260));
        table.getColumns().add(StatsTables.col("Name", Entry::name, 220));
        table.getColumns().add(StatsTables.col("Source", Entry::source, 320));
        Label status = new Label();
        status.setId("resolved-status");
        NameResolver names = ctx.namesProperty().get();
        StatsPass.window(ctx, "resolved-addresses", title(), table, 900, 500, "resolved-limit", status,
                () -> new Found(names), Found::add, Found::merge, found -> {
                    table.getItems().setAll(found.entries.values());
                    status.setText(found.entries.isEmpty()
                            ? "No address resolved (View > Name Resolution" + (names.resolvesNetwork() ? "" : "; hosts need Network Layer and a hosts file") + ")"
                            : found.entries.size() + " resolved address(es)");
                });
    }
}
