package io.metaroce.gui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Wireshark's configuration profiles: {@code Default} is the configuration folder itself (the one that held every
 * file before profiles existed: nothing moves), any other profile is the folder {@code profiles/NAME} under it, as
 * in Wireshark's layout. This class alone says which folder the current profile is: every store (coloring rules,
 * saved display and capture filters, capture settings, columns, Decode As, preferences, the zoom level and name
 * resolution, which Wireshark keeps in each profile's {@code recent} and {@code preferences}) asks {@link #file} for
 * its file. The recent files and the flow index searched last stay in the configuration folder for all profiles
 * (Wireshark's {@code recent_common}), and so does the profile used last, the one the next start opens.
 */
final class Profiles {
    static final String DEFAULT = "Default";
    /** The folder under the configuration folder that holds the other profiles (Wireshark's name). */
    static final String FOLDER = "profiles";
    /** The files a profile has of its own: what Copy copies (Default's folder also holds the shared files). */
    static final List<String> FILES = List.of("colorfilters", "dfilters", "cfilters", "capture", "columns",
            DecodeAsEntries.FILE_NAME, Preferences.FILE_NAME, "zoom", "name-resolution", EnabledProtocolsDialog.FILE_NAME);
    /** A name longer than this is refused (a file name, shown in the status bar). */
    static final int MAX_NAME = 64;
    /** At most this many profiles are listed (a folder of thousands is not a list to choose from). */
    static final int MAX_PROFILES = 500;
    private static final String LAST_USED = "gui.last_used_profile:";

    private final Path root;
    private String current = DEFAULT;

    /** @param root the configuration folder: Default's profile */
    Profiles(Path root) {
        this.root = root;
    }

    /** The configuration folder of a normal start: $XDG_CONFIG_HOME/metaroce or ~/.config/metaroce. */
    static Path defaultRoot() {
        return ColoringRules.defaultFile().getParent();
    }

    Path root() { return root; }

    String current() { return current; }

    /** The current profile's folder. */
    Path folder() { return folder(current); }

    Path folder(String name) {
        return DEFAULT.equals(name) ? root : root.resolve(FOLDER).resolve(name);
    }

    /** The current profile's file of that name (colorfilters, dfilters, ...). */
    Path file(String name) { return folder().resolve(name); }

    boolean exists(String name) {
        return DEFAULT.equals(name) || (checkName(name) == null && Files.isDirectory(folder(name)));
    }

    /** Default first, then the profiles' folders by name (at most {@link #MAX_PROFILES}). */
    List<String> list() {
        List<String> names = new ArrayList<>();
        Path dir = root.resolve(FOLDER);
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                for (Path p : ds) {
                    String n = p.getFileName().toString();
                    if (Files.isDirectory(p) && checkName(n) == null) names.add(n);
                    if (names.size() >= MAX_PROFILES) break;
                }
            } catch (IOException | RuntimeException e) {
                // An unreadable folder lists no profiles but Default: the analyzer still starts.
            }
        }
        names.sort(String.CASE_INSENSITIVE_ORDER);
        names.addFirst(DEFAULT);
        return names;
    }

    /** Why name cannot be a new profile's name, or null (Wireshark's checks, and those that keep it one folder). */
    static String checkName(String name) {
        if (name == null || name.isBlank()) return "A profile needs a name.";
        if (name.length() > MAX_NAME) return "A profile name has at most " + MAX_NAME + " characters.";
        if (name.equals(DEFAULT)) return "Default is the default profile's name.";
        if (name.equals(".") || name.equals("..") || name.startsWith(".")) return "A profile name cannot start with '.'.";
        if (!name.equals(name.strip())) return "A profile name cannot start or end with a space.";
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\') return "A profile name cannot contain '" + c + "'.";
            if (Character.isISOControl(c)) return "A profile name cannot contain control characters.";
        }
        return null;
    }

    /** Why name cannot be created now (a bad or taken name), or null. */
    String checkNew(String name) {
        String bad = checkName(name);
        if (bad != null) return bad;
        for (String n : list()) if (n.equalsIgnoreCase(name)) return "A profile named " + n + " exists already.";
        return null;
    }

    /** A new, empty profile (its stores start with their defaults); null, or why not. */
    String create(String name) {
        String bad = checkNew(name);
        if (bad != null) return bad;
        try {
            Files.createDirectories(folder(name));
            return null;
        } catch (IOException | RuntimeException e) {
            return "Cannot create the profile " + name + ": " + e.getMessage();
        }
    }

    /** A new profile holding a copy of from's files; null, or why not. */
    String copy(String from, String name) {
        if (!exists(from)) return "No profile named " + from + ".";
        String bad = create(name);
        if (bad != null) return bad;
        try {
            for (String f : FILES) {
                Path src = folder(from).resolve(f);
                if (Files.isRegularFile(src)) Files.copy(src, folder(name).resolve(f), StandardCopyOption.REPLACE_EXISTING);
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return "Cannot copy the profile " + from + ": " + e.getMessage();
        }
    }

    /** Renames a profile (not Default); the current one keeps being current under its new name. */
    String rename(String from, String name) {
        if (DEFAULT.equals(from)) return "The Default profile cannot be renamed.";
        if (!exists(from)) return "No profile named " + from + ".";
        String bad = from.equalsIgnoreCase(name) ? checkName(name) : checkNew(name);
        if (bad != null) return bad;
        try {
            Files.move(folder(from), folder(name));
        } catch (IOException | RuntimeException e) {
            return "Cannot rename the profile " + from + ": " + e.getMessage();
        }
        if (from.equals(current)) current = name;
        return null;
    }

    /** Deletes a profile's folder (not Default's); deleting the current one makes Default current. */
    String delete(String name) {
        if (DEFAULT.equals(name)) return "The Default profile cannot be deleted.";
        if (!exists(name)) return "No profile named " + name + ".";
        try (Stream<Path> paths = Files.walk(folder(name))) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException | RuntimeException e) {
            return "Cannot delete the profile " + name + ": " + e.getMessage();
        }
        if (name.equals(current)) current = DEFAULT;
        return null;
    }

    /** The profile a window starts in (name if it exists, else Default), not remembered: only a switch is. */
    void start(String name) {
        current = exists(name) ? name : DEFAULT;
    }

    /** Makes name the current profile and remembers it for the next start; null, or why not (then nothing changes). */
    String use(String name) {
        if (!exists(name)) return "No profile named " + name + ".";
        current = name;
        rememberLastUsed();
        return null;
    }

    /** The profile used last (when it still exists), else Default: where a start without -C begins. */
    String lastUsed() {
        Path f = root.resolve("recent_common");
        try {
            if (Files.isRegularFile(f)) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (line.startsWith(LAST_USED)) {
                        String n = line.substring(LAST_USED.length()).strip();
                        return exists(n) ? n : DEFAULT;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // Unreadable: Default, as on a first start.
        }
        return DEFAULT;
    }

    private void rememberLastUsed() {
        try {
            Files.createDirectories(root);
            Files.writeString(root.resolve("recent_common"), "# The MetaRoCE Analyzer's state shared by all profiles\n"
                    + LAST_USED + " " + current + "\n", StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            // Not remembered: the next start opens Default; this session goes on in the chosen profile.
        }
    }
}
