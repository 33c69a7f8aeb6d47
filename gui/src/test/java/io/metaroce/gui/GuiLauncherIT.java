package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code metaroce gui} as shipped: the launcher and the GUI jar this build packaged ({@code METAROCE_NO_BUILD=1}).
 * {@code gui --version} is every other command's version line, with no display; with a display named (one that does
 * not exist, so that a window could not open), a bad option or display filter is said in one line with exit 2 before
 * any window is tried, as the other commands say theirs.
 */
class GuiLauncherIT {
    private static final Path ROOT = Samples.dir().getParent().getParent();

    /** What one run printed: exit code, stdout, stderr. */
    private record Run(int code, String out, String err) {}

    private static Run run(String display, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ROOT.resolve("metaroce").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("DISPLAY");
        pb.environment().remove("WAYLAND_DISPLAY");
        if (display != null) pb.environment().put("DISPLAY", display);
        pb.environment().put("METAROCE_NO_BUILD", "1");     // the jars this build made, never a rebuild
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Path err = Files.createTempFile("gui-launcher", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        String e = Files.readString(err);
        Files.delete(err);
        return new Run(code, out, e);
    }

    @Test
    void versionIsTheProductsWithoutADisplay() throws Exception {
        assertTrue(Files.isRegularFile(ROOT.resolve("gui/target/metaroce-gui.jar")), "the shipped GUI jar is built");
        Run gui = run(null, "gui", "--version"), top = run(null, "--version");
        assertEquals(0, gui.code(), gui.err());
        assertEquals(top.out(), gui.out());
        assertTrue(gui.out().matches("metaroce \\S+ \\(MetaRoCE .+\\)\n"), gui.out());
        assertEquals("", gui.err());
    }

    @Test
    void usageMistakesAreOneLineAndExit2BeforeAnyWindow() throws Exception {
        Run bad = run(":77", "gui", "--nosuch");
        assertEquals(2, bad.code());
        assertEquals("metaroce gui: unknown option '--nosuch' (see 'metaroce gui --help')\n", bad.err());
        // Without a display the mistake still comes first (the launcher leaves the display check to the built GUI),
        // and a good command line is told there is no display.
        Run headless = run(null, "gui", "--nosuch");
        assertEquals(2, headless.code());
        assertEquals("metaroce gui: unknown option '--nosuch' (see 'metaroce gui --help')\n", headless.err());
        Run noDisplay = run(null, "gui", Samples.capture("rocev2-clean").toString());
        assertEquals(2, noDisplay.code());
        assertEquals("no display: set DISPLAY or use dissect/analyze/validate\n", noDisplay.err());
        String sample = Samples.capture("rocev2-clean").toString();
        Run filter = run(":77", "gui", "-r", sample, "-Y", "bth.psm == 1");
        assertEquals(2, filter.code());
        assertEquals("metaroce gui: bad display filter: \"bth.psm\" is not a valid protocol or protocol field (column 1)\n", filter.err());
        Run two = run(":77", "gui", sample, sample);
        assertEquals(2, two.code());
        assertEquals("metaroce gui: one capture file at most (got " + sample + " and " + sample + ")\n", two.err());
        Run profile = run(":77", "gui", "-C", "no-such-profile-" + ProcessHandle.current().pid(), sample);
        assertEquals(2, profile.code());
        assertTrue(profile.err().matches("metaroce gui: configuration profile \"no-such-profile-\\d+\" does not exist \\(the profiles are"
                + " the folders in \\S+/profiles; Default is \\S+\\)\n"), profile.err());
        Run help = run(null, "gui", "-h");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: metaroce gui [-r FILE | FILE] [-Y FILTER] [-d udp.port==N,roce]... [-C PROFILE]\n"
                + "                    [-N FLAGS | -n] [-H FILE]...\n"), help.out());
        assertTrue(help.out().contains("-C PROFILE"), help.out());
        assertTrue(help.out().contains("-Y, --display-filter FILTER"), help.out());
        assertTrue(help.out().contains("-d, --decode-as udp.port==N,roce"), help.out());
    }
}
