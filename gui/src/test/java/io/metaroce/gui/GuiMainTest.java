package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Without a display, `metaroce gui` says so in exactly one line and exits 2, through the shipped launcher too. */
class GuiMainTest {

    @Test
    void noDisplayIsOneLineAndExitCode2() {
        String before = System.getProperty("glass.platform");
        System.clearProperty("glass.platform");     // the headless test platform counts as a display
        try {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = GuiMain.run(new String[] {"x.pcapng"}, Map.of(), new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(2, code);
            assertEquals(GuiMain.NO_DISPLAY + System.lineSeparator(), err.toString(StandardCharsets.UTF_8));
            assertFalse(GuiMain.hasDisplay(Map.of("DISPLAY", " ")));
            assertTrue(GuiMain.hasDisplay(Map.of("DISPLAY", ":0")));
            assertTrue(GuiMain.hasDisplay(Map.of("WAYLAND_DISPLAY", "wayland-0")));
        } finally {
            if (before != null) System.setProperty("glass.platform", before);
        }
    }

    /** A mistake on the command line is said as such, with a display or without one: never a window, never "no display". */
    @Test
    void commandLineMistakesComeBeforeTheDisplayCheck() {
        String before = System.getProperty("glass.platform");
        System.clearProperty("glass.platform");
        try {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = GuiMain.run(new String[] {"--nosuch"}, Map.of(), new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(2, code);
            assertEquals("metaroce gui: unknown option '--nosuch' (see 'metaroce gui --help')\n",
                    err.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
            err.reset();
            code = GuiMain.run(new String[] {"a.pcapng", "-Y", "bth.psn = 1"}, Map.of("DISPLAY", ":0"), new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(2, code);
            assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("metaroce gui: bad display filter: \"=\" is not a valid operator"), err.toString(StandardCharsets.UTF_8));
        } finally {
            if (before != null) System.setProperty("glass.platform", before);
        }
    }

    /** The product's Prism settings are set first thing (before anything can start the toolkit); a user's -D wins. */
    @Test
    void prismSettingsAreSetBeforeTheToolkitCanStart() {
        String before = System.getProperty(RenderingSetup.NO_REGION_CACHE), platform = System.getProperty("glass.platform");
        System.clearProperty("glass.platform");     // no display: run() returns before launching anything
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try {
            System.clearProperty(RenderingSetup.NO_REGION_CACHE);
            assertEquals(2, GuiMain.run(new String[0], Map.of(), quiet));
            assertEquals("true", System.getProperty(RenderingSetup.NO_REGION_CACHE));
            System.setProperty(RenderingSetup.NO_REGION_CACHE, "false");
            GuiMain.run(new String[0], Map.of(), quiet);
            assertEquals("false", System.getProperty(RenderingSetup.NO_REGION_CACHE));
        } finally {
            if (before != null) System.setProperty(RenderingSetup.NO_REGION_CACHE, before);
            else System.clearProperty(RenderingSetup.NO_REGION_CACHE);
            if (platform != null) System.setProperty("glass.platform", platform);
        }
    }

    @Test
    void theLauncherWithoutADisplayPrintsOneLineAndExits2() throws Exception {
        Path root = Samples.dir().getParent().getParent();
        ProcessBuilder pb = new ProcessBuilder(root.resolve("metaroce").toString(), "gui", Samples.capture("rocev2-clean").toString());
        pb.environment().remove("DISPLAY");
        pb.environment().remove("WAYLAND_DISPLAY");
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.waitFor());
        assertEquals("", out);
        assertEquals("no display: set DISPLAY or use dissect/analyze/validate\n", err);
    }
}
