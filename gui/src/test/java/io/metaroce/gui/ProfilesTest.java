package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration profiles on disk (no window): Default is the configuration folder, the others profiles/NAME; names
 * checked; New, Copy, Rename, Delete; the profile used last; gui -C. And the preferences file and the Preferences
 * dialog's checks.
 */
class ProfilesTest {
    @TempDir
    Path root;

    @Test
    void createCopyRenameDeleteOnDisk() throws Exception {
        Profiles p = new Profiles(root);
        assertEquals(List.of("Default"), p.list());
        assertEquals(root, p.folder(), "Default is the configuration folder itself: nothing moves");
        Files.writeString(root.resolve("colorfilters"), "@Mine@frame@[0,0,0][1,1,1]\n");
        Files.writeString(root.resolve("recent"), "/a.pcapng\n");     // shared by all profiles: not copied

        assertNull(p.create("lab"));
        assertTrue(Files.isDirectory(root.resolve("profiles/lab")));
        assertNull(p.copy("Default", "fabric b"));
        assertEquals("@Mine@frame@[0,0,0][1,1,1]\n", Files.readString(root.resolve("profiles/fabric b/colorfilters")));
        assertFalse(Files.exists(root.resolve("profiles/fabric b/recent")));
        assertEquals(List.of("Default", "fabric b", "lab"), p.list());
        assertEquals("A profile named lab exists already.", p.create("LAB"));
        assertEquals("A profile named lab exists already.", p.copy("Default", "lab"));

        assertNull(p.use("fabric b"));
        assertEquals(root.resolve("profiles/fabric b/colorfilters"), p.file("colorfilters"));
        assertEquals("fabric b", new Profiles(root).lastUsed(), "remembered for the next start");
        assertNull(p.rename("fabric b", "fabric-b"));
        assertEquals("fabric-b", p.current(), "the current profile renamed stays current");
        assertTrue(Files.isRegularFile(root.resolve("profiles/fabric-b/colorfilters")));
        assertEquals("The Default profile cannot be renamed.", p.rename("Default", "x"));
        assertEquals("The Default profile cannot be deleted.", p.delete("Default"));
        assertNull(p.delete("fabric-b"));
        assertEquals("Default", p.current(), "deleting the current profile makes Default current");
        assertFalse(Files.exists(root.resolve("profiles/fabric-b")));
        assertEquals(List.of("Default", "lab"), p.list());
        assertEquals("No profile named gone.", p.use("gone"));
        assertEquals("Default", p.current());
        assertTrue(Files.isRegularFile(root.resolve("colorfilters")) && Files.isRegularFile(root.resolve("recent")),
                "Default's files untouched");

        // A remembered profile deleted behind our back: the next start opens Default.
        assertNull(p.use("lab"));
        Files.delete(root.resolve("profiles/lab"));
        assertEquals("Default", new Profiles(root).lastUsed());
        // An unreadable state file: Default too.
        Files.writeString(root.resolve("recent_common"), "gui.last_used_profile: ../../etc\n");
        assertEquals("Default", new Profiles(root).lastUsed());
    }

    @Test
    void namesAreCheckedAsOneFolderName() {
        assertEquals("A profile needs a name.", Profiles.checkName(" "));
        assertEquals("A profile name cannot contain '/'.", Profiles.checkName("a/b"));
        assertEquals("A profile name cannot contain '\\'.", Profiles.checkName("a\\b"));
        assertEquals("A profile name cannot start with '.'.", Profiles.checkName(".."));
        assertEquals("A profile name cannot start or end with a space.", Profiles.checkName("lab "));
        assertEquals("A profile name cannot contain control characters.", Profiles.checkName("a\tb"));
        assertEquals("Default is the default profile's name.", Profiles.checkName("Default"));
        assertEquals("A profile name has at most 64 characters.", Profiles.checkName("x".repeat(65)));
        assertNull(Profiles.checkName("RoCE fabric A (lab 2)"));
    }

    @Test
    void guiDashCStartsInAnExistingProfileOnly() throws Exception {
        assertEquals(null, GuiArgs.parse(new String[] {}, root).profile());
        assertEquals("Default", GuiArgs.parse(new String[] {"-C", "Default"}, root).profile());
        String missing = assertThrows(GuiArgs.UsageException.class, () -> GuiArgs.parse(new String[] {"-C", "lab"}, root)).getMessage();
        assertEquals("configuration profile \"lab\" does not exist (the profiles are the folders in " + root.resolve("profiles")
                + "; Default is " + root + ")", missing);
        assertNull(new Profiles(root).create("lab"));
        assertEquals("lab", GuiArgs.parse(new String[] {"-Clab", "x.pcapng"}, root).profile());
        assertEquals("one configuration profile at most (-C given twice)",
                assertThrows(GuiArgs.UsageException.class, () -> GuiArgs.parse(new String[] {"-C", "lab", "-C", "lab"}, root)).getMessage());
        assertEquals("-C needs a configuration profile's name (see 'metaroce gui --help')",
                assertThrows(GuiArgs.UsageException.class, () -> GuiArgs.parse(new String[] {"-C"}, root)).getMessage());
        assertEquals("configuration profile \"../x\" does not exist (the profiles are the folders in " + root.resolve("profiles")
                + "; Default is " + root + ")",
                assertThrows(GuiArgs.UsageException.class, () -> GuiArgs.parse(new String[] {"-C", "../x"}, root)).getMessage());
    }

    @Test
    void preferencesFileKeepsOtherLinesAndRefusesBadValues() throws Exception {
        Path f = root.resolve("preferences");
        assertEquals(Preferences.defaults(), Preferences.load(f));
        Files.writeString(f, "# Wireshark's\ngui.column.format: \"No.\", \"%m\"\ngui.packet_details_beside_list: maybe\n");
        Preferences read = Preferences.load(f);
        assertFalse(read.detailsBesideList());
        assertEquals(f + ": gui.packet_details_beside_list: maybe is not TRUE or FALSE; FALSE used", read.problem());
        assertNull(read.withDetailsBesideList(true).save(f));
        Preferences again = Preferences.load(f);
        assertTrue(again.detailsBesideList());
        assertNull(again.problem());
        assertEquals(List.of("gui.column.format: \"No.\", \"%m\""), again.others());
        Files.createDirectories(root.resolve("dir"));
        assertTrue(again.save(root.resolve("dir")).startsWith("Cannot save the preferences to "), "a folder in the way: a message");

        assertEquals(Set.of(4791, 4792, 4793), PreferencesDialog.parsePorts(" 4792, udp.port==4793,roce  "));
        assertEquals(Set.of(4791), PreferencesDialog.parsePorts(""));
        assertThrows(IllegalArgumentException.class, () -> PreferencesDialog.parsePorts("4792 x"));
        assertEquals("4791, 4792", PreferencesDialog.portsText(Set.of(4792, 4791)));
        assertEquals("-s x: not a number", PreferencesDialog.snapLengthProblem("x"));
        assertEquals("snap length must be at least 1, not 0", PreferencesDialog.snapLengthProblem("0"));
        assertNull(PreferencesDialog.snapLengthProblem("262144"));
    }
}
