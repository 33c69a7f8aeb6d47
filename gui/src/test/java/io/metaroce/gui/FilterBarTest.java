package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javafx.scene.control.MenuItem;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** The display filter bar: typed filters turn green or red, Enter filters off the UI thread, history, completion. */
class FilterBarTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    private void type(FxRobot robot, String text) {
        robot.interact(() -> window.filterBar().editor().setText(""));
        robot.clickOn(window.filterBar().editor()).write(text);
    }

    @Test
    void typingShowsValidityAndTheErrorColumnAndEnterFiltersToTheTruth(FxRobot robot) {
        String name = "rocev2-gbn-loss";
        open(robot, name);
        FilterBar bar = window.filterBar();
        type(robot, "bth.psn ==");
        assertTrue(bar.getStyleClass().contains(FilterBar.INVALID));
        assertTrue(bar.errorText().startsWith("column 11: "), bar.errorText());
        robot.type(KeyCode.ENTER);
        assertEquals(192, ctx.view().size(), "a red filter changes nothing");

        type(robot, "analysis.retransmission");
        assertTrue(bar.getStyleClass().contains(FilterBar.VALID));
        assertEquals("", bar.errorText());
        robot.type(KeyCode.ENTER);
        Fx.until("filter applied", () -> ctx.appliedFilterProperty().get().equals("analysis.retransmission") && !ctx.busyProperty().get());
        Set<Integer> shown = new HashSet<>();
        for (int r = 0; r < ctx.view().size(); r++) shown.add(ctx.view().frameAt(r));
        assertEquals(new HashSet<>(Samples.labelled(name, "retransmission")), shown);
        assertEquals(shown.size(), table(robot).getItems().size());
        assertEquals(List.of("analysis.retransmission"), bar.history());

        type(robot, "bth.opcode == rc_acknowledge");
        assertEquals("bth.opcode == rc_acknowledge", bar.editor().getText());
        robot.type(KeyCode.ENTER);
        Fx.until("second filter (applied: " + ctx.appliedFilterProperty().get() + ", status " + ctx.statusProperty().get() + ", errors " + errors + ")", () -> ctx.appliedFilterProperty().get().startsWith("bth.opcode") && !ctx.busyProperty().get());
        assertEquals(List.of("bth.opcode == rc_acknowledge", "analysis.retransmission"), bar.history());
        for (int r = 0; r < ctx.view().size(); r++) assertTrue(cell(robot, ctx.view().frameAt(r), "Info").startsWith("RC Acknowledge"));

        robot.clickOn("#filter-clear");
        Fx.until("cleared", () -> ctx.view().isAll());
        assertEquals(192, table(robot).getItems().size());
    }

    @Test
    void namesAndWiresharkAliasesAreCompleted(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        type(robot, "bth.ps");
        Fx.until("completions", () -> window.filterBar().completions().isShowing());
        List<String> offered = window.filterBar().completions().getItems().stream().map(MenuItem::getText).toList();
        assertTrue(offered.contains("bth.psn"), offered.toString());
        MenuItem psn = window.filterBar().completions().getItems().stream().filter(i -> i.getText().equals("bth.psn")).findFirst().orElseThrow();
        robot.interact(psn::fire);
        assertEquals("bth.psn", window.filterBar().editor().getText());
        assertTrue(FilterBar.candidates("infiniband.bth.ps").contains("infiniband.bth.psn"));
        assertTrue(FilterBar.candidates("analysis.spu").contains("analysis.spurious"));
        assertTrue(FilterBar.candidates("expert.r").contains("expert.rule"));
    }

    @Test
    void aFilterNamingAnalysisFieldsWaitsForTheAnalysisAndCanBeCancelled(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        // Cancelling a running filter keeps the view it replaced.
        int[] calls = {0};
        int[] result = FrameFilter.run(ctx.capture().index(), ctx.analysis(), compile("frame"), f -> calls[0]++, () -> true);
        assertNull(result);
        assertNotNull(FrameFilter.run(ctx.capture().index(), ctx.analysis(), compile("frame"), f -> calls[0]++, () -> false));
        assertFalse(ctx.busyProperty().get());
    }

    // ------------------------------------------------------------------ Find Packet bar (Edit > Find Packet)

    /**
     * A string picked from the last frame's bytes (a printable run of them) is found from the start in the first
     * frame that holds it, with those bytes highlighted; Find Next from the last frame holding it wraps to the first
     * and says so; a hex value (three bytes of a late frame, with or without spaces) finds the first frame holding
     * them. The expected frames come from a plain scan of the captured bytes.
     */
    @Test
    void findPacketBarFindsStringsAndHexValuesInTheBytesAndWraps(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        io.metaroce.dissector.FrameIndex ix = ctx.capture().index();
        int n = ctx.capture().frames();
        String picked = null;
        for (int f = n; f >= 1 && picked == null; f--) picked = printableRun(ix.bytes(f), 5);
        assertNotNull(picked, "a printable run of 5 bytes in the sample's frames");
        byte[] needle = picked.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        List<Integer> holding = new java.util.ArrayList<>();
        for (int f = 1; f <= n; f++) if (indexOf(ix.bytes(f), needle) >= 0) holding.add(f);

        // Edit > Find Packet opens the bar; typed text and Enter search from the start (nothing selected).
        MenuItem open = editItem(robot, "edit-find");
        robot.interact(() -> {
            ctx.select(0);
            window.findBar().set(FindPacket.Where.BYTES, FindPacket.How.STRING, "", true);
            open.fire();
        });
        assertTrue(window.findBar().isVisible());
        robot.clickOn(window.findBar().field()).write(picked).type(KeyCode.ENTER);
        Fx.until("found " + picked + " in " + holding.getFirst(), () -> ctx.selectedFrame() == holding.getFirst());
        int first = holding.getFirst();
        robot.interact(() -> {
            assertEquals(indexOf(ix.bytes(first), needle), window.detail().hex().highlightFrom(), "the matching bytes are highlighted");
            assertEquals(needle.length, window.detail().hex().highlightLength());
        });
        // Find Next (Edit menu) from the last frame holding it wraps around to the first.
        MenuItem next = editItem(robot, "edit-find-next");
        robot.interact(() -> ctx.select(holding.getLast()));
        robot.interact(next::fire);
        Fx.until("wrapped to " + first, () -> ctx.selectedFrame() == first && !window.findBar().message().isEmpty());
        assertEquals("Search reached the end of the capture file; continuing at beginning.", window.findBar().message());
        // Case-insensitive: the string in the other case finds the same frame.
        String other = picked.chars().anyMatch(Character::isLowerCase) ? picked.toUpperCase() : picked.toLowerCase();
        int folded = 0;
        for (int f = 1; f <= n && folded == 0; f++)
            if (new String(ix.bytes(f), java.nio.charset.StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT).contains(picked.toLowerCase(java.util.Locale.ROOT))) folded = f;
        if (!other.equals(picked)) assertEquals(folded, find(robot, FindPacket.Where.BYTES, FindPacket.How.STRING, other, false, 0, true).hit().frame());

        byte[] late = ix.bytes(n - 2);
        byte[] three = java.util.Arrays.copyOfRange(late, late.length - 9, late.length - 6);
        int expected = 0;
        for (int f = 1; f <= n && expected == 0; f++) if (indexOf(ix.bytes(f), three) >= 0) expected = f;
        String spaced = java.util.HexFormat.ofDelimiter(" ").formatHex(three);
        assertEquals(expected, find(robot, FindPacket.Where.LIST, FindPacket.How.HEX, spaced, true, 0, true).hit().frame());
        assertEquals(expected, find(robot, FindPacket.Where.LIST, FindPacket.How.HEX, spaced.replace(" ", ""), true, 0, true).hit().frame());
        assertNull(find(robot, FindPacket.Where.BYTES, FindPacket.How.HEX, "ff0", true, 0, true));
        assertEquals("Invalid hex value: an odd number of hex digits", window.findBar().message());
        assertNull(find(robot, FindPacket.Where.BYTES, FindPacket.How.HEX, "zz", true, 0, true));
        assertTrue(window.findBar().message().startsWith("Invalid hex value: 'z'"), window.findBar().message());
        assertEquals(List.of(), errors, "invalid input is said in the bar, not in dialogs");
    }

    /**
     * A regular expression in the packet list finds the first frame whose Info cell matches (read from the table);
     * case sensitive, the same expression in lower case finds nothing and says so. A string in the packet details
     * (the PSN line of a frame in the middle) finds the first frame the dissector gives that PSN, with that line selected. The
     * display filter mode finds what Go's old Find by Filter (Navigation.search) found, forward and backward
     * (wrapping at the start); invalid filters and expressions are said in the bar.
     */
    @Test
    void findPacketBarSearchesTheListTheDetailsAndByFilter(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        int n = ctx.capture().frames();
        int retx = 0;      // the Info column says [Retransmission ...] for the frames the analysis calls so
        for (int f = 1; f <= n && retx == 0; f++) if (ctx.analysis().verdictOf(f) != null && ctx.analysis().verdictOf(f).retransmission()) retx = f;
        assertTrue(retx > 0);
        assertTrue(cell(robot, retx, "Info").contains("[Retransmission"), cell(robot, retx, "Info"));
        assertEquals(retx, find(robot, FindPacket.Where.LIST, FindPacket.How.REGEX, "\\[retr.nsmission", false, 0, true).hit().frame());
        // A display filter reads the user's marks (frame.marked), as the filter bar's does.
        robot.interact(() -> ctx.setMarked(new int[] {n - 3}, true));
        assertEquals(n - 3, find(robot, FindPacket.Where.LIST, FindPacket.How.FILTER, "frame.marked == 1", true, 1, true).hit().frame());
        robot.interact(() -> ctx.setMarked(new int[] {n - 3}, false));
        FindPacket.Result none = find(robot, FindPacket.Where.LIST, FindPacket.How.REGEX, "\\[retr.nsmission", true, 0, true);
        assertNull(none.hit());
        assertEquals("No packet matched that regular expression in its packet list.", window.findBar().message());
        assertNull(find(robot, FindPacket.Where.LIST, FindPacket.How.REGEX, "([", true, 0, true));
        assertTrue(window.findBar().message().startsWith("Invalid regular expression: "), window.findBar().message());

        io.metaroce.dissector.FrameIndex ix = ctx.capture().index();
        io.metaroce.dissector.Dissector dissector = new io.metaroce.dissector.Dissector(io.metaroce.dissector.DissectorConfig.DEFAULT);
        io.metaroce.dissector.Dissection d = new io.metaroce.dissector.Dissection();
        int psn = -1;
        for (int f = n / 2; f >= 1 && psn < 0; f--) psn = ix.dissect(f, dissector, d).psn();
        String line = "Packet sequence number: " + psn;
        int withPsn = 0;
        for (int f = 1; f <= n && withPsn == 0; f++) {
            ix.dissect(f, dissector, d);
            if (d.isRoce() && Integer.toString(d.psn()).startsWith(Integer.toString(psn))) withPsn = f;
        }
        assertEquals(withPsn, find(robot, FindPacket.Where.DETAILS, FindPacket.How.STRING, line, true, 0, true).hit().frame());
        robot.interact(() -> assertTrue(window.detail().tree().getSelectionModel().getSelectedItem().getValue().text().startsWith(line)));

        String filter = "analysis.retransmission";
        for (int[] fromForward : new int[][] {{0, 1}, {retx, 1}, {retx, 0}, {1, 0}}) {
            int from = fromForward[0];
            boolean forward = fromForward[1] == 1;
            {
                java.util.concurrent.CompletableFuture<Integer>[] old = new java.util.concurrent.CompletableFuture[1];
                robot.interact(() -> {
                    ctx.select(from);
                    old[0] = Navigation.search(ctx, compile(filter), forward);
                });
                int expected = old[0].get(10, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(expected, find(robot, FindPacket.Where.LIST, FindPacket.How.FILTER, filter, true, from, forward).hit().frame(),
                        "from " + from + (forward ? " forward" : " backward"));
            }
        }
        assertEquals("Search reached the beginning of the capture file; continuing at end.", window.findBar().message(),
                "Find Previous from frame 1 wraps to the end");
        assertNull(find(robot, FindPacket.Where.LIST, FindPacket.How.FILTER, "bth.psn ==", true, 0, true));
        assertTrue(window.findBar().message().startsWith("Invalid filter: column 11: "), window.findBar().message());
        assertNull(find(robot, FindPacket.Where.LIST, FindPacket.How.FILTER, "bth.psn == 99999999", true, 0, true).hit());
        assertEquals("No packet matched that filter.", window.findBar().message());
        // Only displayed frames are searched.
        int after = retx;
        robot.interact(() -> window.filterBar().prepare("frame.number > " + after));
        robot.interact(() -> window.filterBar().apply());
        Fx.until("filtered", () -> !ctx.view().isAll() && !ctx.busyProperty().get());
        int shownRetx = find(robot, FindPacket.Where.LIST, FindPacket.How.REGEX, "\\[Retransmission", true, 0, true).hit().frame();
        assertTrue(shownRetx > retx, shownRetx + " is displayed");
        assertEquals(List.of(), errors);
    }

    /** Sets the bar's search, selects from (0: nothing) and runs it; the result once shown, null for invalid input. */
    private FindPacket.Result find(FxRobot robot, FindPacket.Where w, FindPacket.How h, String text, boolean caseSensitive,
                                   int from, boolean forward) throws Exception {
        @SuppressWarnings("unchecked")
        java.util.concurrent.CompletableFuture<FindPacket.Result>[] f = new java.util.concurrent.CompletableFuture[1];
        robot.interact(() -> {
            ctx.select(from);
            window.findBar().set(w, h, text, caseSensitive);
            f[0] = window.findBar().find(forward);
        });
        FindPacket.Result r = f[0].get(10, java.util.concurrent.TimeUnit.SECONDS);
        org.testfx.util.WaitForAsyncUtils.waitForFxEvents();
        return r;
    }

    private MenuItem editItem(FxRobot robot, String id) {
        javafx.scene.control.MenuBar bar = robot.lookup(".menu-bar").query();
        return bar.getMenus().get(1).getItems().stream().filter(i -> id.equals(i.getId())).findFirst().orElseThrow();
    }

    /** The first run of length printable ASCII bytes (letters, digits, punctuation) in b, or null. */
    private static String printableRun(byte[] b, int length) {
        for (int i = 0, run = 0; i < b.length; i++) {
            run = b[i] > 0x20 && b[i] < 0x7f ? run + 1 : 0;
            if (run == length) return new String(b, i - length + 1, length, java.nio.charset.StandardCharsets.US_ASCII);
        }
        return null;
    }

    private static int indexOf(byte[] b, byte[] p) {
        outer:
        for (int i = 0; i + p.length <= b.length; i++) {
            for (int j = 0; j < p.length; j++) if (b[i + j] != p[j]) continue outer;
            return i;
        }
        return -1;
    }

    // ------------------------------------------------------------------ display filter bookmarks

    /**
     * Save this filter writes the config folder's dfilters file in Wireshark's format; a new window's bar reads it
     * back; a saved filter's menu item applies it; Remove this filter takes it out of the file. A Wireshark file with
     * a comment, a filter holding quotes and a malformed line is read; a filter that does not compile is not saved;
     * the shipped defaults all compile and are what a bar without a file offers.
     */
    @Test
    void savedFiltersAreWrittenInWiresharksFormatReadBackAppliedAndRemoved(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        java.nio.file.Path file = config.resolve("dfilters");
        String[] err = new String[1];
        robot.interact(() -> err[0] = window.filterBar().saveBookmark("Late PSNs", "bth.psn > 5"));
        assertNull(err[0]);
        assertTrue(java.nio.file.Files.readAllLines(file).contains("\"Late PSNs\" bth.psn > 5"), java.nio.file.Files.readString(file));
        robot.interact(() -> err[0] = window.filterBar().saveBookmark("Broken", "bth.psn =="));
        assertTrue(err[0].startsWith("The filter cannot be saved: column 11: "), err[0]);

        FilterBar[] reread = new FilterBar[1];
        robot.interact(() -> reread[0] = new FilterBar(ctx, file));
        List<FilterBookmarks.Bookmark> saved = reread[0].bookmarks();
        assertEquals(new FilterBookmarks.Bookmark("Late PSNs", "bth.psn > 5"), saved.getLast());
        assertEquals(FilterBookmarks.DEFAULTS.size() + 1, saved.size(), "the defaults, then the saved one");

        robot.interact(() -> window.filterBar().bookmarkItems().stream().filter(i -> "Late PSNs: bth.psn > 5".equals(i.getText()))
                .findFirst().orElseThrow().fire());
        Fx.until("applied", () -> ctx.appliedFilterProperty().get().equals("bth.psn > 5") && !ctx.busyProperty().get());
        robot.interact(() -> {
            List<MenuItem> items = window.filterBar().bookmarkItems();
            assertFalse(items.get(1).isDisable(), "Remove this filter: the bar's filter is saved");
            items.get(1).fire();
        });
        assertFalse(java.nio.file.Files.readString(file).contains("Late PSNs"));
        robot.interact(() -> assertTrue(window.filterBar().bookmarkItems().get(1).isDisable()));

        java.nio.file.Files.writeString(file, """
                # Wireshark's dfilters, copied from a profile
                "My NAKs" aeth.syndrome.kind == nak
                  "CNP events"   event == "cnp"
                not a filter line
                "No filter"
                """);
        assertEquals(List.of(new FilterBookmarks.Bookmark("My NAKs", "aeth.syndrome.kind == nak"),
                new FilterBookmarks.Bookmark("CNP events", "event == \"cnp\"")), FilterBookmarks.read(file));
        assertEquals(FilterBookmarks.DEFAULTS, FilterBookmarks.read(config.resolve("none")));
        for (FilterBookmarks.Bookmark b : FilterBookmarks.DEFAULTS) compile(b.filter());
        assertNull(DisplayFiltersDialog.firstInvalid(FilterBookmarks.DEFAULTS));
        assertEquals("\"x\": column 11: ", DisplayFiltersDialog.firstInvalid(List.of(new FilterBookmarks.Bookmark("x", "bth.psn =="))).substring(0, 16));
        assertEquals(List.of(), errors);
    }

    private static io.metaroce.filter.DisplayFilter compile(String s) {
        try {
            return GuiContext.compile(s);
        } catch (io.metaroce.filter.FilterException e) {
            throw new AssertionError(e);
        }
    }
}
