package io.metaroce.gui;

import io.metaroce.dissector.NameResolver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Menu;

/**
 * View > Name Resolution, as Wireshark's: Enable for Physical Layer (MAC vendors from Wireshark's manuf and wka
 * files, names from ethers), for Network Layer (host names from the hosts files and {@code gui -H}), for Transport
 * Layer (kept and persisted; ports have no names here yet). Wireshark's defaults (physical on, the others off)
 * until the user changes them; the choice is kept beside the zoom level, as Wireshark keeps it in its preferences,
 * and {@code gui -N FLAGS} / {@code -n} set it for the run. The packet list's Source and Destination follow at once.
 * The tables are read off the JavaFX thread (Wireshark's manuf is some 50,000 lines).
 */
final class NameResolution {
    final BooleanProperty physical = new SimpleBooleanProperty(true), network = new SimpleBooleanProperty(false),
            transport = new SimpleBooleanProperty(false);
    private final GuiContext ctx;
    /** The current profile's choice (Wireshark keeps name resolution in each profile's preferences). */
    private Path store;
    private List<Path> hosts = List.of();
    /** Changes from the command line are for this run only: not written over the user's saved choice. */
    private boolean save = true;
    private int generation;
    /** While another profile's choice is set: one reload at the end, nothing written back. */
    private boolean switching;

    NameResolution(GuiContext ctx, Path store) {
        this.ctx = ctx;
        this.store = store;
        String saved = read();
        if (saved != null) set(saved);
        physical.addListener((o, a, b) -> changed());
        network.addListener((o, a, b) -> changed());
        transport.addListener((o, a, b) -> changed());
        load();
    }

    /** gui -N FLAGS (or -n: "") and -H FILE...: flags null keeps the saved choice. */
    void commandLine(String flags, List<Path> hostsFiles) {
        hosts = List.copyOf(hostsFiles);
        if (flags != null) {
            save = false;
            set(flags);
        }
        load();
    }

    /** Another profile's saved choice (Edit > Configuration Profiles); -N/-n on the command line still win. */
    void useStore(Path file) {
        store = file;
        if (!save) return;
        String saved = read();
        switching = true;
        try {
            set(saved != null ? saved : "m");        // none saved in that profile: Wireshark's defaults
        } finally {
            switching = false;
        }
        load();
    }

    /** The submenu, in the View menu after Time Display Format. */
    Menu menu() {
        Menu m = new Menu("Name Resolution", null,
                check("Enable for Physical Layer", "view-resolve-physical", physical),
                check("Enable for Network Layer", "view-resolve-network", network),
                check("Enable for Transport Layer", "view-resolve-transport", transport));
        m.setId("menu-name-resolution");
        return m;
    }

    /** -N's letters for the current choice ("m", "mn", ...). */
    String flags() {
        return (physical.get() ? "m" : "") + (network.get() ? "n" : "") + (transport.get() ? "t" : "");
    }

    private void set(String flags) {
        physical.set(flags.indexOf('m') >= 0);
        network.set(flags.indexOf('n') >= 0);
        transport.set(flags.indexOf('t') >= 0);
    }

    private void changed() {
        if (switching) return;
        if (save) write();
        load();
    }

    /** Reads the tables for the flags off the JavaFX thread; the newest choice wins when several are on their way. */
    private void load() {
        String flags = flags();
        List<Path> files = hosts;
        int mine = ++generation;
        Thread.ofPlatform().daemon().name("metaroce-names").start(() -> {
            NameResolver r;
            String problem = null;
            try {
                r = NameResolver.system(flags, files).recording();
                if (!r.warnings().isEmpty()) problem = String.join("; ", r.warnings());
            } catch (IOException e) {
                r = NameResolver.NONE;
                problem = e.getMessage();
            }
            NameResolver done = r;
            String said = problem;
            Platform.runLater(() -> {
                if (mine != generation) return;
                ctx.namesProperty().set(done);
                if (said != null) ctx.status("Name resolution: " + said);
            });
        });
    }

    private String read() {
        if (store == null) return null;
        try {
            return Files.readString(store).strip();
        } catch (IOException e) {
            return null;        // none saved yet: Wireshark's defaults
        }
    }

    private void write() {
        if (store == null) return;
        try {
            Files.createDirectories(store.getParent());
            Files.writeString(store, flags() + "\n");
        } catch (IOException e) {
            ctx.status("Name resolution not saved: " + e.getMessage());
        }
    }

    private static CheckMenuItem check(String text, String id, BooleanProperty p) {
        CheckMenuItem c = new CheckMenuItem(text);
        c.setId(id);
        c.selectedProperty().bindBidirectional(p);
        return c;
    }
}
