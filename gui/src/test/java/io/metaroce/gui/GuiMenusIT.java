package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped GUI driven the way a user drives it: the launcher ({@code metaroce gui FILE}, the jar this build
 * packaged) opens a capture in a real GTK window on the X display the tests run under (CI: xvfb-run), and every item
 * of the Statistics and Graphs menus, clicked with the mouse, opens its window with something drawn in it, while the
 * GUI writes nothing to stderr (no exception, no missing class) and keeps running. The headless TestFX tests call
 * the same windows in-process under Monocle; this one catches what only the shipped jar and a real display show.
 *
 * <p>xdotool gives the main window the X focus before each menu (no window manager runs under Xvfb, so a click does
 * not), moves the pointer and clicks; {@link Robot} only reads the screen.
 */
class GuiMenusIT {
    private static final Path ROOT = Samples.dir().getParent().getParent();
    private static final String CAPTURE = "rocev2-gbn-loss.pcapng";
    private static final Pattern POSITION = Pattern.compile("Position: (-?\\d+),(-?\\d+)");
    private static final Pattern SIZE = Pattern.compile("Geometry: (\\d+)x(\\d+)");

    @TempDir
    static Path home;
    private static Process gui;
    private static Path guiErr;
    private static String mainWindow;

    /** Never at the same time as CaptureToolbarTest in the other fork: see ExclusiveUse. */
    private static io.metaroce.testsupport.ExclusiveUse keys;

    @BeforeAll
    static void openTheCaptureWithTheLauncher() throws Exception {
        assumeTrue(System.getenv("DISPLAY") != null, "needs an X display: CI runs the tests under xvfb-run");
        keys = io.metaroce.testsupport.ExclusiveUse.acquire("gui-keys");
        assertTrue(run("xdotool", "version").startsWith("xdotool"), "xdotool is missing (.ci/run installs it)");
        ProcessBuilder pb = new ProcessBuilder(ROOT.resolve("metaroce").toString(), "gui",
                Samples.dir().resolve(CAPTURE).toString());
        pb.environment().put("METAROCE_NO_BUILD", "1");   // the jars this build made, never a rebuild
        pb.environment().put("HOME", home.toString());    // recent files and preferences of a first start
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectOutput(home.resolve("gui.out").toFile());
        guiErr = home.resolve("gui.err");
        pb.redirectError(guiErr.toFile());
        gui = pb.start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (mainWindow == null && System.nanoTime() < until && gui.isAlive()) {
            for (String id : windows()) if (name(id).equals(CAPTURE + " - MetaRoCE Analyzer")) mainWindow = id;
            Thread.sleep(250);
        }
        assertTrue(mainWindow != null, "the main window did not open in 90 s; stderr: " + Files.readString(guiErr));
        System.setProperty("java.awt.headless", "false");  // the surefire line sets it for the Monocle tests
    }

    @AfterAll
    static void quit() throws Exception {
        try {
            if (gui == null) return;
            gui.destroy();
            if (!gui.waitFor(10, TimeUnit.SECONDS)) gui.destroyForcibly();
        } finally {
            if (keys != null) keys.close();
        }
    }

    /**
     * The GUI keeps its settings (here the recent files) under $HOME/.config/metaroce, as Wireshark reads $HOME: with
     * Java's user.home (the password file's) this test's HOME was ignored and every run rewrote the real user's files.
     */
    @Test
    void theSettingsGoUnderTheHomeTheLauncherWasGiven() throws Exception {
        Path recent = home.resolve(".config/metaroce/recent");
        for (int i = 0; i < 100 && !Files.isRegularFile(recent); i++) Thread.sleep(100);
        assertTrue(Files.isRegularFile(recent), "no " + recent);
        assertTrue(Files.readString(recent).contains(CAPTURE), Files.readString(recent));
    }

    @Test
    void everyStatisticsAndGraphsItemOpensItsWindow() throws Exception {
        // Each item opens a new window (Graphs > Loss Timeline opens the Diagnosis window at that tab).
        Map<GuiWindow.Place, List<GuiWindow>> menus = new LinkedHashMap<>();
        for (GuiWindow w : GuiWindows.ALL) menus.computeIfAbsent(w.place(), p -> new ArrayList<>()).add(w);
        List<String> opened = new ArrayList<>();
        for (var menu : menus.entrySet()) {
            List<GuiWindow> items = menu.getValue();
            // Statistics ends with the stats trees' entries (StatsTreeWindow.menuItems: Packet Lengths, IPv4
            // Statistics, IPv6 Statistics, RoCE Operations); the first of them is opened too.
            List<javafx.scene.control.MenuItem> trees = menu.getKey() == GuiWindow.Place.STATISTICS
                    ? io.metaroce.gui.stats.StatsTreeWindow.menuItems(new io.metaroce.gui.GuiContext(null)) : List.of();
            // ... and then Service Response Time (its submenu, one row).
            int rows = items.size() + trees.size() + (trees.isEmpty() ? 0 : 1);
            for (int i = 0; i < items.size() + (trees.isEmpty() ? 0 : 1); i++) {
                String title = i < items.size() ? items.get(i).title() : trees.getFirst().getText();
                Set<String> before = new HashSet<>(windows());
                Rectangle popup = openMenu(menu.getKey(), before);
                // The item's row: the popup's rows are of equal height.
                click(popup.x + popup.width / 2, popup.y + popup.height * (2 * i + 1) / (2 * rows));
                String window = newWindow(before, " - " + CAPTURE, title);
                int colours = drawnColours(window);
                assertTrue(colours >= 8, "'" + title + "' opened '" + name(window) + "' with " + colours
                        + " colours in it: nothing drawn");
                opened.add(name(window));
            }
        }
        assertEquals(GuiWindows.ALL.size() + 1, opened.size(), opened.toString());
        Thread.sleep(1000);   // time for a late failure of the last window's work to reach stderr
        assertTrue(gui.isAlive(), "the GUI exited; stderr: " + Files.readString(guiErr));
        assertEquals("", Files.readString(guiErr), "the GUI wrote to stderr while its windows opened");
    }

    /**
     * Where each menu's title was found on the menu bar (x on the screen): the first opening of a menu walks the
     * bar with the keyboard and notes it, the next ones click the title as a user does (a walk costs ~2 s per item).
     */
    private static final Map<GuiWindow.Place, Integer> TITLE_X = new java.util.EnumMap<>(GuiWindow.Place.class);

    /**
     * Opens a menu of the main window's menu bar, as the X focus allows: the first time with the keyboard, then by a
     * click on its title; its popup's bounds.
     */
    private static Rectangle openMenu(GuiWindow.Place place, Set<String> before) throws Exception {
        run("xdotool", "windowfocus", "--sync", mainWindow);
        Rectangle main = geometry(mainWindow);
        Integer titleX = TITLE_X.get(place);
        if (titleX != null) {
            run("xdotool", "windowraise", mainWindow);   // above the windows opened so far (no window manager raises it)
            click(titleX, main.y + 12);
            return popup(before, place + " menu (a click on its title at x " + titleX + ")");
        }
        click(main.x + 18, main.y + 12);   // File, the first menu: then the arrows walk the bar
        // File, Edit, View, Go, Capture, Analyze, Statistics, Graphs; Down opens the menu the arrows reached.
        Rectangle popup = openMenu(place == GuiWindow.Place.STATISTICS ? 6 : 7, place.toString(), before);
        // The popup opens under its title, its left edge at the title's (less the shadow's few pixels).
        TITLE_X.put(place, popup.x + 25);
        return popup;
    }

    /** Opens the menu that many Rights from File; its popup's bounds. */
    private static Rectangle openMenu(int rights, String what, Set<String> before) throws Exception {
        List<String> keys = new ArrayList<>(List.of("xdotool", "key", "--delay", "250"));
        for (int i = 0; i < rights; i++) keys.add("Right");
        keys.add("Down");
        run(keys.toArray(String[]::new));
        return popup(before, what + " menu");
    }

    /** The popup window that appeared since before (menus' popups have no name); fails after 10 s. */
    private static Rectangle popup(Set<String> before, String what) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            for (String id : windows()) {
                if (!before.contains(id) && name(id).isEmpty()) return geometry(id);
            }
            Thread.sleep(100);
        }
        return fail("the " + what + " did not open");
    }

    @Test
    void theCaptureMenuOpensTheCaptureOptions() throws Exception {
        // Capture, between Go and Analyze (four Rights from File): its first item, Options..., opens the dialog.
        Set<String> before = new HashSet<>(windows());
        run("xdotool", "windowfocus", "--sync", mainWindow);
        Rectangle main = geometry(mainWindow);
        click(main.x + 18, main.y + 12);
        Rectangle popup = openMenu(4, "Capture", before);
        click(popup.x + popup.width / 2, popup.y + 14);
        String dialog = null;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (dialog == null && System.nanoTime() < until) {
            for (String id : windows()) if (!before.contains(id) && name(id).equals("Capture Options")) dialog = id;
            Thread.sleep(100);
        }
        assertTrue(dialog != null, "Capture > Options... opened no 'Capture Options' window; stderr: " + Files.readString(guiErr));
        int colours = drawnColours(dialog);
        assertTrue(colours >= 8, "the Capture Options window has " + colours + " colours in it: nothing drawn");
        run("xdotool", "windowfocus", "--sync", dialog);
        run("xdotool", "key", "Escape");
        Thread.sleep(500);
        assertTrue(gui.isAlive(), "the GUI exited; stderr: " + Files.readString(guiErr));
        assertEquals("", Files.readString(guiErr), "the GUI wrote to stderr while the Capture Options opened");
    }

    /** The window that appeared since before with a name ending in suffix (the capture's file name). */
    private static String newWindow(Set<String> before, String suffix, String item) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            for (String id : windows()) if (!before.contains(id) && name(id).endsWith(suffix)) return id;
            Thread.sleep(100);
        }
        return fail("the item '" + item + "' opened no window in 30 s; stderr: " + Files.readString(guiErr));
    }

    /**
     * The colours in the window once something is drawn in it: it fills once the analysis it needs is done, so the
     * screen is read again until it holds 8 colours or more, for at most 10 s (a fixed wait cost every window 1.5 s).
     */
    private static int drawnColours(String window) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int colours;
        do {
            Thread.sleep(200);
            colours = colours(new Robot().createScreenCapture(geometry(window)));
        } while (colours < 8 && System.nanoTime() < until);
        return colours;
    }

    private static int colours(BufferedImage img) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 2) for (int x = 0; x < img.getWidth(); x += 2) seen.add(img.getRGB(x, y));
        return seen.size();
    }

    private static void click(int x, int y) throws Exception {
        run("xdotool", "mousemove", "--sync", Integer.toString(x), Integer.toString(y), "click", "1");
        Thread.sleep(300);
    }

    /** The GUI's visible X windows (its stages and its menus' popups), by id. */
    private static List<String> windows() throws Exception {
        List<String> out = new ArrayList<>();
        for (String l : run("xdotool", "search", "--onlyvisible", "--class", "MetaRoceApp").split("\n")) {
            if (!l.isBlank()) out.add(l.trim());
        }
        return out;
    }

    private static String name(String id) throws Exception {
        return run("xdotool", "getwindowname", id).strip();
    }

    private static Rectangle geometry(String id) throws Exception {
        String g = run("xdotool", "getwindowgeometry", id);
        Matcher p = POSITION.matcher(g), s = SIZE.matcher(g);
        assertTrue(p.find() && s.find(), g);
        return new Rectangle(Integer.parseInt(p.group(1)), Integer.parseInt(p.group(2)), Integer.parseInt(s.group(1)),
                Integer.parseInt(s.group(2)));
    }

    /** Runs a command to its end: its stdout (a search that finds nothing exits 1, which is an answer too). */
    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
        return out;
    }
}
