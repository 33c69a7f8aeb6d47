package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** Opening damaged and wrong files, exporting packets, recent files, and moving around the capture. */
class FileHandlingTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void aCutCaptureOpensWithEveryReadableFrameAndABannerNamingTheOffset(FxRobot robot) throws Exception {
        byte[] whole = Files.readAllBytes(Samples.capture("rocev2-clean"));
        Path cut = config.resolve("cut.pcapng");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 50));
        int readable;
        try (PacketSource src = CaptureFiles.open(cut)) {
            int n = 0;
            while (src.next()) n++;
            readable = n;
        }
        robot.interact(() -> window.open(cut));
        Fx.until("cut capture loaded", () -> ctx.capture() != null && !ctx.busyProperty().get());
        assertEquals(readable, ctx.capture().frames());
        assertEquals(readable, table(robot).getItems().size());
        String banner = robot.lookup("#banner").queryLabeled().getText();
        assertTrue(robot.lookup("#banner").query().isVisible());
        long offset = ctx.capture().problems().getFirst().offset();
        assertTrue(banner.startsWith("The capture is damaged at byte offset " + offset + ": "), banner);
        assertTrue(banner.endsWith("(the " + readable + " frames before it are shown)"), banner);
        assertEquals(List.of(), errors);
    }

    /**
     * View > Reload on a capture still being written: a file cut mid-frame, opened, filtered, a frame selected; the
     * rest appended; Reload shows every frame, the filter and the selection kept, the banner gone.
     */
    @Test
    void reloadShowsTheFramesTheFileGainedKeepingFilterAndSelection(FxRobot robot) throws Exception {
        byte[] whole = Files.readAllBytes(Samples.capture("rocev2-clean"));
        Path growing = config.resolve("growing.pcapng");
        int cut = whole.length / 2;
        Files.write(growing, java.util.Arrays.copyOf(whole, cut));
        robot.interact(() -> window.open(growing));
        Fx.until("half loaded", () -> ctx.capture() != null && !ctx.busyProperty().get());
        int half = ctx.capture().frames();
        assertTrue(half > 3 && half < Samples.frames("rocev2-clean"), half + " frames");
        robot.interact(() -> window.filterBar().prepare("frame.number != 2"));
        robot.interact(() -> window.filterBar().apply());
        Fx.until("filtered", () -> !ctx.busyProperty().get() && ctx.view().size() == half - 1);
        robot.interact(() -> ctx.select(3));
        Files.write(growing, java.util.Arrays.copyOfRange(whole, cut, whole.length), java.nio.file.StandardOpenOption.APPEND);
        menuItem(robot, "view-reload");
        int all = Samples.frames("rocev2-clean");
        Fx.until("reloaded", () -> ctx.capture() != null && ctx.capture().frames() == all && !ctx.busyProperty().get()
                && ctx.view().size() == all - 1 && ctx.selectedFrame() == 3);
        assertEquals("frame.number != 2", ctx.appliedFilterProperty().get());
        assertEquals("frame.number != 2", window.filterBar().editor().getText());
        assertNull(ctx.bannerProperty().get(), "the whole file reads cleanly now");
        assertEquals(3, table(robot).getSelectionModel().getSelectedItem());
        assertEquals(List.of(), errors);
    }

    @Test
    void aFileThatIsNotACaptureGivesAMessageAndNoCrash(FxRobot robot) throws Exception {
        Path text = config.resolve("notes.txt");
        Files.writeString(text, "this is not a capture file\n");
        robot.interact(() -> window.open(text));
        Fx.until("error reported", () -> !errors.isEmpty());
        assertTrue(errors.getFirst().startsWith("Cannot open " + text + ":"), errors.getFirst());
        assertNull(ctx.capture());
        assertEquals(0, table(robot).getItems().size());
        // The window still works: a good file opens after it.
        open(robot, "rocev2-clean");
        assertTrue(ctx.capture().frames() > 0);
    }

    @Test
    void exportWritesAllDisplayedSelectedOrOneFlowToPcapng(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        robot.interact(() -> ctx.applyFilter("analysis.retransmission"));
        Fx.until("filtered", () -> !ctx.view().isAll() && !ctx.busyProperty().get());
        robot.interact(() -> ctx.select(ctx.view().frameAt(0)));
        for (PacketExport.Range r : PacketExport.Range.values()) {
            Path out = config.resolve(r + ".pcapng");
            int[] frames = PacketExport.frames(ctx, r);
            robot.interact(() -> ExportDialog.export(ctx, r, out));
            Fx.until("export " + r, () -> ctx.statusProperty().get().startsWith("Exported " + frames.length + " packets to " + out));
            try (PacketSource src = CaptureFiles.open(out)) {
                int n = 0;
                while (src.next()) {
                    int f = frames[n++];
                    assertArrayEquals(ctx.capture().index().bytes(f), src.data().toArray(ValueLayout.JAVA_BYTE), r + " #" + f);
                    assertEquals(ctx.capture().index().timeNanos(f), src.timestampNanos());
                }
                assertEquals(frames.length, n, r.toString());
            }
        }
        assertEquals(192, PacketExport.frames(ctx, PacketExport.Range.ALL).length);
        assertEquals(64, PacketExport.frames(ctx, PacketExport.Range.DISPLAYED).length);
        assertEquals(1, PacketExport.frames(ctx, PacketExport.Range.SELECTED).length);
        int[] flow = PacketExport.frames(ctx, PacketExport.Range.FLOW);
        String id = PacketExport.flowId(ctx.capture(), ctx.analysis(), ctx.selectedFrame());
        int truth = 0;
        for (var f : Samples.truth("rocev2-gbn-loss").get("frames")) if (f.get("flow").asText().equals(id)) truth++;
        assertEquals(truth, flow.length, "the frames of flow " + id);
        assertEquals(List.of(), errors);
    }

    @Test
    void exportPacketDissectionsReadAsDissectPrintsTheSameFrames(FxRobot robot) throws Exception {
        String filter = "analysis.retransmission";
        open(robot, "rocev2-gbn-loss");
        robot.interact(() -> ctx.applyFilter(filter));
        Fx.until("filtered", () -> !ctx.view().isAll() && !ctx.busyProperty().get());
        var displayed = new PacketExport.Choice(PacketExport.Range.DISPLAYED);
        // Details all expanded, nothing else: dissect -V for the same frames; JSON: dissect -T json.
        Path text = dissections(robot, displayed, DissectionExport.Format.TEXT, DissectionExport.TextFormat.CLI_V, "v.txt");
        assertEquals(dissect("-Y", filter, "-V"), Files.readString(text), "dissect -V's text");
        Path json = dissections(robot, displayed, DissectionExport.Format.JSON, null, "v.json");
        assertEquals(dissect("-Y", filter, "-T", "json"), Files.readString(json), "dissect -T json's text");
        // CSV: the visible columns' header, then a row per frame as the list shows it, every value quoted.
        List<String> csv = Files.readAllLines(dissections(robot, displayed, DissectionExport.Format.CSV, null, "v.csv"));
        assertEquals("\"No.\",\"Time\",\"Source\",\"Destination\",\"Protocol\",\"QP\",\"PSN\",\"Length\",\"Info\"", csv.getFirst());
        assertEquals(ctx.view().size() + 1, csv.size());
        for (int r : new int[] {0, ctx.view().size() - 1}) {
            int f = ctx.view().frameAt(r);
            StringBuilder want = new StringBuilder();
            for (String col : PacketTable.COLUMNS)
                want.append(want.isEmpty() ? "" : ",").append('"').append(cell(robot, f, col).replace("\"", "\"\"")).append('"');
            assertEquals(want.toString(), csv.get(r + 1), "frame " + f);
            assertTrue(csv.get(r + 1).contains("[Retransmission"), csv.get(r + 1));
        }

        // A typed range and the marked frames: exactly those frames, in capture order.
        robot.interact(() -> ctx.applyFilter(""));
        Fx.until("unfiltered", () -> ctx.view().isAll() && !ctx.busyProperty().get());
        List<String> range = Files.readAllLines(dissections(robot, new PacketExport.Choice(PacketExport.Range.RANGE, "7, 2-4", false),
                DissectionExport.Format.CSV, null, "range.csv"));
        assertEquals(List.of("\"2\"", "\"3\"", "\"4\"", "\"7\""), range.subList(1, range.size()).stream().map(l -> l.substring(0, l.indexOf(','))).toList());
        robot.interact(() -> ctx.setMarked(new int[] {9, 5}, true));
        String marked = Files.readString(dissections(robot, new PacketExport.Choice(PacketExport.Range.MARKED),
                DissectionExport.Format.TEXT, new DissectionExport.TextFormat(true, DissectionExport.Details.COLLAPSED, java.util.Set.of(), true), "marked.txt"));
        // Summary line (a header above each), the collapsed tree (its top lines), the hex dump: frames 5 and 9 only.
        assertEquals(List.of("Frame 5: ", "Frame 9: "), marked.lines().filter(l -> l.startsWith("Frame ")).map(l -> l.substring(0, l.indexOf(':') + 2)).toList());
        assertEquals(2, marked.lines().filter(l -> l.startsWith("No.\tTime")).count());
        assertTrue(marked.contains("\n5\t") && marked.contains("\n9\t") && marked.contains(EditActions.hexDump(ctx.capture().index(), 9)), marked);
        assertTrue(!marked.contains("[bth.psn]") && marked.contains("\nBase Transport Header (BTH)\n"), "collapsed: the layers' lines only");
        assertThrows(IllegalArgumentException.class, () -> PacketExport.numbers("3-x", 10));
        assertArrayEquals(new int[] {1, 2, 9, 10}, PacketExport.numbers("-2,9-", 10));
        assertEquals(List.of(), errors);
    }

    /** Exports the range in format to a file of this test's directory and waits for it. */
    private Path dissections(FxRobot robot, PacketExport.Choice range, DissectionExport.Format format,
                             DissectionExport.TextFormat text, String name) throws Exception {
        Path out = config.resolve(name);
        java.util.concurrent.CompletableFuture<?>[] done = new java.util.concurrent.CompletableFuture<?>[1];
        robot.interact(() -> done[0] = DissectionExportDialog.export(ctx, window.packets(), range, format, text, out));
        done[0].get(30, java.util.concurrent.TimeUnit.SECONDS);
        return out;
    }

    /** What the packaged CLI prints for the sample (its jar run directly: the launcher would first train its cache). */
    private static String dissect(String... args) throws Exception {
        Path sample = Samples.capture("rocev2-gbn-loss").toAbsolutePath().normalize();
        Path jar = sample.getParent().getParent().getParent().resolve("cli/target/metaroce.jar");
        List<String> cmd = new java.util.ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar.toString(), "dissect", "-r", sample.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor());
        assertTrue(out.length() > 1000, "dissect printed the frames");
        return out;
    }

    @Test
    void exportPacketBytesWritesTheSelectedFieldsBytesAndAWriteErrorIsOneLine(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        robot.interact(() -> ctx.select(40));
        var tree = window.detail().tree();
        List<javafx.scene.control.TreeItem<TreeEntry>> all = new java.util.ArrayList<>();
        robot.interact(() -> { for (var top : tree.getRoot().getChildren()) FieldTreeModel.walk(top, all); });
        var bth = all.stream().filter(i -> i.getValue().node() != null && i.getValue().node().header() != null
                && i.getValue().node().kind() == io.metaroce.dissector.FieldNode.Kind.LAYER && i.getValue().node().header().id().equals("bth")).findFirst().orElseThrow();
        robot.interact(() -> tree.getSelectionModel().select(bth));
        Path out = config.resolve("bth.bin");
        robot.interact(() -> DissectionExportDialog.exportBytes(ctx, window.detail(), out));
        byte[] frame = ctx.capture().index().bytes(40);
        TreeEntry e = bth.getValue();
        assertEquals(12, e.length(), "the BTH");
        assertArrayEquals(java.util.Arrays.copyOfRange(frame, e.offset(), e.offset() + e.length()), Files.readAllBytes(out));
        // A line without bytes (the Expert Info or frame summary's siblings without a range) greys the item out.
        var noBytes = all.stream().filter(i -> !i.getValue().hasBytes()).findFirst().orElseThrow();
        javafx.scene.control.MenuBar bar = robot.lookup(".menu-bar").query();
        javafx.scene.control.MenuItem item = bar.getMenus().getFirst().getItems().stream()
                .filter(i -> "menu-export-bytes".equals(i.getId())).findFirst().orElseThrow();
        assertEquals(javafx.scene.input.KeyCombination.keyCombination("Shift+Shortcut+X"), item.getAccelerator(), "Wireshark's shortcut");
        assertTrue(!item.isDisable());
        robot.interact(() -> tree.getSelectionModel().select(noBytes));
        assertTrue(item.isDisable(), "no bytes: disabled");
        // Writing where no file can be: one line in the error dialog, no trace.
        Path nowhere = config.resolve("no-such-dir").resolve("x.txt");
        var failed = dissections(robot, new PacketExport.Choice(PacketExport.Range.ALL), DissectionExport.Format.TEXT,
                DissectionExport.TextFormat.CLI_V, "ok.txt");
        assertTrue(Files.size(failed) > 0);
        java.util.concurrent.CompletableFuture<?>[] done = new java.util.concurrent.CompletableFuture<?>[1];
        robot.interact(() -> done[0] = DissectionExportDialog.export(ctx, window.packets(), new PacketExport.Choice(PacketExport.Range.ALL),
                DissectionExport.Format.JSON, null, nowhere));
        Fx.until("error reported", () -> !errors.isEmpty());
        assertTrue(done[0].isCompletedExceptionally());
        assertEquals(List.of("Cannot write " + nowhere + ": no such file or directory"), errors);
    }

    /**
     * File > Merge...: the open capture with another, prepended, chronologically and appended (CaptureMerge, as
     * metaroce merge); the result opens unsaved (a '*' in the title; Save asks where), a file that is no capture is
     * one message.
     */
    @Test
    void mergeOpensTheMergedCaptureUnsavedInEachOrder(FxRobot robot) throws Exception {
        Path clean = Samples.capture("rocev2-clean"), loss = Samples.capture("rocev2-gbn-loss");
        long cleanFirst, lossFirst;
        try (PacketSource a = CaptureFiles.open(clean); PacketSource b = CaptureFiles.open(loss)) {
            a.next();
            b.next();
            cleanFirst = a.timestampNanos();
            lossFirst = b.timestampNanos();
        }
        javafx.scene.control.MenuItem item = robot.lookup(".menu-bar").<javafx.scene.control.MenuBar>query().getMenus().getFirst()
                .getItems().stream().filter(i -> "Merge...".equals(i.getText())).findFirst().orElseThrow();
        assertTrue(item.isDisable(), "nothing open: nothing to merge with");
        for (MergeDialog.Order order : MergeDialog.Order.values()) {
            robot.interact(() -> ctx.open(clean));
            Fx.until("clean open", () -> ctx.capture() != null && ctx.analysis() != null && !ctx.busyProperty().get());
            robot.interact(() -> MergeDialog.merge(ctx, loss, order));
            Fx.until("merged " + order, () -> ctx.capture() != null && ctx.capture().file().getFileName().toString().startsWith("metaroce-merge-rocev2-clean-")
                    && ctx.analysis() != null && !ctx.busyProperty().get());
            assertEquals(79 + 192, ctx.capture().frames(), order.toString());
            long first = ctx.capture().index().timeNanos(1);
            assertEquals(order == MergeDialog.Order.PREPEND ? lossFirst : cleanFirst, first, order + ": the first frame's");
            if (order == MergeDialog.Order.CHRONOLOGICAL) {
                for (int f = 2; f <= ctx.capture().frames(); f++) {
                    assertTrue(ctx.capture().index().timeNanos(f) >= ctx.capture().index().timeNanos(f - 1), "in time order at " + f);
                }
            }
            assertTrue(ctx.hasUnsavedChanges() && ctx.isLiveUnsaved(), order + ": unsaved");
            assertTrue(stage.getTitle().startsWith("*metaroce-merge-"), stage.getTitle());
            assertTrue(!item.isDisable());
        }
        Path notCapture = Files.writeString(config.resolve("notes.txt"), "not a capture");
        robot.interact(() -> MergeDialog.merge(ctx, notCapture, MergeDialog.Order.APPEND));
        Fx.until("refused", () -> !errors.isEmpty());
        assertTrue(errors.getFirst().startsWith("Cannot merge metaroce-merge-rocev2-clean-"), errors.toString());
        assertEquals(1, errors.size());
        errors.clear();
    }

    @Test
    void recentFilesAreRememberedNewestFirst(FxRobot robot) {
        open(robot, "rocev2-clean");
        open(robot, "rocev2-gbn-loss");
        List<Path> recent = new RecentFiles(config.resolve("recent")).list();
        assertEquals(List.of(Samples.capture("rocev2-gbn-loss").toAbsolutePath().normalize(),
                Samples.capture("rocev2-clean").toAbsolutePath().normalize()), recent);
    }

    /**
     * The Go menu on one capture: Go to Packet (Ctrl+G), next/previous retransmission and expert item, Next/Previous
     * Packet (Ctrl+Down/Up) from the tree and the list, Next/Previous Packet in Conversation (Ctrl+. / Ctrl+,: the QP
     * flow), Back/Forward (Alt+Left/Right) with a frame hidden by the filter skipped, the history bounded and cleared.
     */
    @Test
    void goToPacketWithCtrlGAndNextPreviousRetransmission(FxRobot robot) {
        String name = "rocev2-gbn-loss";
        open(robot, name);
        robot.clickOn(table(robot));
        robot.press(KeyCode.CONTROL).press(KeyCode.G).release(KeyCode.G).release(KeyCode.CONTROL);
        Fx.until("go-to dialog", () -> robot.lookup("#goto-field").tryQuery().isPresent());
        robot.clickOn("#goto-field").write("77").type(KeyCode.ENTER);
        Fx.until("frame 77", () -> ctx.selectedFrame() == 77);
        assertEquals(77, table(robot).getSelectionModel().getSelectedItem());

        List<Integer> retx = Samples.labelled(name, "retransmission");
        robot.interact(() -> ctx.select(1));
        int first = next(robot, Navigation.Kind.RETRANSMISSION, true);
        assertEquals(retx.getFirst(), first);
        assertEquals(retx.get(1), next(robot, Navigation.Kind.RETRANSMISSION, true));
        robot.interact(() -> ctx.select(retx.getFirst()));
        assertEquals(retx.getLast(), next(robot, Navigation.Kind.RETRANSMISSION, false), "previous wraps to the last");
        robot.interact(() -> ctx.select(1));
        int expert = next(robot, Navigation.Kind.EXPERT, true);
        assertTrue(expert > 1 && !ctx.analysis().events().at(expert).isEmpty(), "next expert item: " + expert);
        // Ctrl+Alt+. is Next Retransmission now (Ctrl+. went to the conversation, as in Wireshark).
        robot.interact(() -> ctx.select(1));
        keys(robot, KeyCode.CONTROL, KeyCode.ALT, KeyCode.PERIOD);
        Fx.until("next retransmission by its keys", () -> ctx.selectedFrame() == retx.getFirst());

        // Next/Previous Packet from the field tree and the packet list (both take Ctrl+Down/Up for themselves).
        robot.interact(() -> ctx.select(10));
        robot.interact(() -> window.detail().tree().requestFocus());
        keys(robot, KeyCode.CONTROL, KeyCode.DOWN);
        Fx.until("next packet from the tree", () -> ctx.selectedFrame() == 11);
        robot.interact(() -> table(robot).requestFocus());
        keys(robot, KeyCode.CONTROL, KeyCode.UP);
        keys(robot, KeyCode.CONTROL, KeyCode.UP);
        Fx.until("previous packet twice from the list", () -> ctx.selectedFrame() == 9);

        // Next Packet in Conversation: the next frame of the selected one's QP flow, skipping the other flows' frames.
        FrameDecoder dec = new FrameDecoder(ctx.capture().index(), ctx.analysis());
        java.util.function.IntFunction<String> flow = f -> {
            dec.decode(f);
            var ff = dec.fields();
            var flowField = io.metaroce.dissector.FieldCatalog.get().field("analysis.flow");
            return ff.count(flowField) == 0 ? "frame " + f + ": no flow" : ff.stringValue(flowField, 0);
        };
        int from = 0, to = 0, frames = ctx.capture().frames();
        for (int f = 1; f < frames && to == 0; f++) {       // a frame whose flow's next frame is not the frame after it
            if (flow.apply(f).equals(flow.apply(f + 1))) continue;
            for (int g = f + 2; g <= frames && to == 0; g++) if (flow.apply(g).equals(flow.apply(f))) to = g;
            from = to == 0 ? 0 : f;
        }
        assertTrue(from > 0, "the capture interleaves flows");
        int start = from, end = to;
        robot.interact(() -> ctx.select(start));
        keys(robot, KeyCode.CONTROL, KeyCode.PERIOD);
        Fx.until("next in conversation", () -> ctx.selectedFrame() != start);
        assertEquals(end, ctx.selectedFrame(), flow.apply(start) + " from " + start);
        assertEquals(flow.apply(start), flow.apply(ctx.selectedFrame()));
        keys(robot, KeyCode.CONTROL, KeyCode.COMMA);
        Fx.until("previous in conversation", () -> ctx.selectedFrame() == start);
        int last = frames;
        while (!flow.apply(last).equals(flow.apply(start))) last--;
        int lastOfFlow = last;
        robot.interact(() -> ctx.select(lastOfFlow));
        robot.interact(() -> ctx.status(""));
        keys(robot, KeyCode.CONTROL, KeyCode.PERIOD);
        Fx.until("none left", () -> ctx.statusProperty().get().startsWith("No next packet in the conversation of packet " + lastOfFlow));
        assertEquals(lastOfFlow, ctx.selectedFrame(), "the selection stays");

        // Back/Forward over three jumps; a new selection after Back drops what was ahead; a hidden frame is skipped.
        for (int f : new int[] {30, 40, 50}) robot.interact(() -> ctx.select(f));
        keys(robot, KeyCode.ALT, KeyCode.LEFT);
        Fx.until("back to 40", () -> ctx.selectedFrame() == 40);
        keys(robot, KeyCode.ALT, KeyCode.LEFT);
        Fx.until("back to 30", () -> ctx.selectedFrame() == 30);
        keys(robot, KeyCode.ALT, KeyCode.RIGHT);
        Fx.until("forward to 40", () -> ctx.selectedFrame() == 40);
        assertTrue(!findItem(robot, "go-forward").isDisable());
        robot.interact(() -> ctx.select(60));
        assertTrue(findItem(robot, "go-forward").isDisable(), "nothing ahead after a new selection");
        shown(robot, "frame.number != 40");
        keys(robot, KeyCode.ALT, KeyCode.LEFT);
        Fx.until("back to 30, skipping the hidden 40", () -> ctx.selectedFrame() == 30);
        shown(robot, "");
        // Bounded: 1,100 selections keep the last 1,000, Back walks them to the oldest kept (the history alone: each
        // selection in the window decodes and draws its frame, about 50 ms).
        SelectionHistory bounded = new SelectionHistory();
        for (int f = 1; f <= 1100; f++) bounded.selected(f);
        assertEquals(SelectionHistory.MAX, bounded.size());
        int oldest = 0;
        for (int f; (f = bounded.move(false, x -> true)) != 0; ) oldest = f;
        assertEquals(101, oldest);
        assertTrue(!bounded.canBackProperty().get() && bounded.canForwardProperty().get());
        assertTrue(ctx.history.size() > 3);
        robot.interact(ctx::close);
        assertEquals(0, ctx.history.size());
        assertTrue(findItem(robot, "go-back").isDisable(), "cleared with the capture");
        assertEquals(List.of(), errors);
    }

    /** Presses the keys together (modifiers first), then waits for the FX events they cause. */
    private static void keys(FxRobot robot, KeyCode... codes) {
        robot.press(codes);
        robot.release(codes);
    }

    /** A copy of a sample with the file's own comments: one on frame 3, two on frame 5 (no bundled sample has any). */
    private Path commentedCopy(String sample, Path out) throws Exception {
        try (PacketSource src = CaptureFiles.open(Samples.capture(sample));
             io.metaroce.capture.PcapngWriter w = io.metaroce.capture.PcapngWriter.create(out)) {
            int iface = -1;
            for (int n = 1; src.next(); n++) {
                if (iface < 0) iface = w.addInterface(src.linkType(), 0, "eth7", src.fcsLength());
                w.writeWithComments(iface, src.timestampNanos(), src.data(), 0, src.capturedLength(), src.originalLength(),
                        n == 3 ? List.of("file comment three") : n == 5 ? List.of("file comment five", "second of five") : List.of());
            }
        }
        return out;
    }

    private int[] shown(FxRobot robot, String filter) {
        robot.interact(() -> assertNull(ctx.applyFilter(filter)));
        Fx.until("filter " + filter, () -> !ctx.busyProperty().get() && ctx.appliedFilterProperty().get().equals(filter));
        return ctx.view().toArray();
    }

    /**
     * Edit > Packet Comments: Add New Comment... on frame 10, edit it, add a second, delete the file's comment of
     * frame 5; the details tree, frame.comment, Expert Info's Comment group and Capture File Properties follow each
     * edit; Save As pcapng writes every frame (bytes, times unchanged) with the comments as edited, the file's other
     * comment and its interface kept, and the window shows the saved file.
     */
    @Test
    void packetCommentsAreEditedFilteredListedAndSavedAsPcapng(FxRobot robot) throws Exception {
        Path in = commentedCopy("rocev2-gbn-loss", config.resolve("annotated.pcapng"));
        Fx.openAndAnalyze(robot, window, ctx, in);
        assertEquals(List.of("file comment three"), ctx.comments(3));
        assertEquals(List.of("file comment five", "second of five"), ctx.comments(5), "both opt_comments of the file's packet");
        assertArrayEquals(new int[] {3, 5}, shown(robot, "frame.comment"));
        assertArrayEquals(new int[] {5}, shown(robot, "frame.comment == \"second of five\""));
        robot.interact(() -> assertNull(ctx.applyFilter("")));
        Fx.until("all frames", () -> ctx.view().isAll());
        String[] typed = {"first NAK after the link flap"};
        window.commentsMenu().setEditor((title, text) -> text.isEmpty() ? typed[0] : text + ", edited");
        robot.interact(() -> ctx.select(10));
        javafx.scene.control.Menu edit = robot.lookup(".menu-bar").<javafx.scene.control.MenuBar>query().getMenus().get(1);
        javafx.scene.control.Menu comments = (javafx.scene.control.Menu) edit.getItems().stream()
                .filter(i -> "packet-comments".equals(i.getId())).findFirst().orElseThrow();
        robot.interact(() -> comments.getItems().stream().filter(i -> "comment-add".equals(i.getId())).findFirst().orElseThrow().fire());
        assertEquals(List.of("first NAK after the link flap"), ctx.comments(10));
        assertTrue(ctx.hasUnsavedChanges());
        assertEquals("*annotated.pcapng - MetaRoCE Analyzer", stage.getTitle());
        List<String> tree = new java.util.ArrayList<>();
        robot.interact(() -> {
            List<javafx.scene.control.TreeItem<TreeEntry>> all = new java.util.ArrayList<>();
            FieldTreeModel.walk(window.detail().tree().getRoot(), all);
            for (var t : all) tree.add(t.getValue().text());
        });
        assertTrue(tree.contains("Packet comments") && tree.contains("first NAK after the link flap"), tree.toString());
        assertArrayEquals(new int[] {10}, shown(robot, "frame.comment contains \"NAK\""));
        robot.interact(() -> window.commentsMenu().edit(0));
        typed[0] = "this READ response never arrived";
        robot.interact(() -> window.packets().table().requestFocus());
        robot.press(KeyCode.CONTROL, KeyCode.ALT, KeyCode.C).release(KeyCode.C, KeyCode.ALT, KeyCode.CONTROL);     // Add New Comment...
        Fx.until("second comment", () -> ctx.comments(10).size() == 2);
        robot.interact(() -> ctx.deleteComment(5, 0));
        assertEquals(List.of("first NAK after the link flap, edited", "this READ response never arrived"), ctx.comments(10));
        assertEquals(List.of("second of five"), ctx.comments(5));
        assertArrayEquals(new int[] {3, 5, 10}, shown(robot, "frame.comment"));
        assertArrayEquals(new int[] {10}, shown(robot, "frame.comment contains \"READ\""));
        javafx.scene.control.TreeItem<io.metaroce.gui.stats.ExpertInfoWindow.Line> expert = io.metaroce.gui.stats.ExpertInfoWindow
                .withComments(new javafx.scene.control.TreeItem<>(), ctx).getChildren().getFirst();
        assertEquals(4, expert.getValue().count(), "Expert Info's Comment group");
        assertEquals(List.of(3L, 5L, 10L, 10L), expert.getChildren().stream().map(i -> i.getValue().frame()).toList());
        assertEquals(List.of("file comment three", "second of five", "first NAK after the link flap, edited", "this READ response never arrived"),
                io.metaroce.gui.stats.CaptureProperties.commentRows(ctx).stream().map(r -> r.value()).toList());

        Path out = config.resolve("saved.pcapng");
        boolean[] saved = {false};
        @SuppressWarnings("unchecked") java.util.concurrent.CompletableFuture<Boolean>[] saving = new java.util.concurrent.CompletableFuture[1];
        robot.interact(() -> saving[0] = window.saving().saveTo(out, CaptureSaving.Format.PCAPNG));
        saved[0] = saving[0].get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(saved[0], errors.toString());
        Fx.until("saved file opened", () -> ctx.capture() != null && ctx.capture().file().equals(out.toAbsolutePath())
                && !ctx.busyProperty().get());
        assertEquals("saved.pcapng - MetaRoCE Analyzer", stage.getTitle());
        assertTrue(!ctx.hasUnsavedChanges());
        try (PacketSource a = CaptureFiles.open(in); PacketSource b = CaptureFiles.open(out)) {
            int n = 0;
            while (a.next()) {
                assertTrue(b.next(), "frame " + (n + 1));
                n++;
                assertArrayEquals(a.data().toArray(ValueLayout.JAVA_BYTE), b.data().toArray(ValueLayout.JAVA_BYTE), "frame " + n);
                assertEquals(a.timestampNanos(), b.timestampNanos());
                assertEquals(a.originalLength(), b.originalLength());
                assertEquals(n == 3 ? List.of("file comment three") : n == 5 ? List.of("second of five")
                        : n == 10 ? List.of("first NAK after the link flap, edited", "this READ response never arrived") : List.of(),
                        b.comments(), "frame " + n);
            }
            assertTrue(!b.next());
            assertEquals("eth7", b.stats().interfaces().getFirst().name(), "the file's interface");
        }
        // The saved file's own comments, read by the dissector: frame.comment finds frame 10.
        assertArrayEquals(new int[] {10}, shown(robot, "frame.comment contains \"NAK\""));
        assertArrayEquals(new int[] {10}, shown(robot, "frame.comment contains \"READ\""));
        assertEquals(List.of(), errors);
    }

    /**
     * Close with an unsaved comment asks; Cancel keeps the capture, Save writes it over the file (a temporary file
     * moved over it) and closes; Continue without Saving drops the comment (Reload, the window's close box); pcap
     * cannot hold comments: Save As pcap asks, and saves pcapng instead or pcap without them.
     */
    @Test
    void unsavedCommentsAskBeforeCloseReloadAndQuit(FxRobot robot) throws Exception {
        Path file = Files.copy(Samples.capture("rocev2-read-atomic"), config.resolve("clean.pcapng"));
        Fx.openAndAnalyze(robot, window, ctx, file);
        List<String> asked = new java.util.ArrayList<>();
        CaptureSaving.Answer[] answer = {CaptureSaving.Answer.CANCEL};
        window.saving().setAsker((header, text, save, discard) -> {
            asked.add(header);
            return answer[0];
        });
        javafx.scene.control.MenuItem close = robot.lookup(".menu-bar").<javafx.scene.control.MenuBar>query().getMenus().getFirst()
                .getItems().stream().filter(i -> "Close".equals(i.getText())).findFirst().orElseThrow();
        robot.interact(() -> ctx.addComment(2, "kept"));
        robot.interact(close::fire);
        assertEquals(List.of("Do you want to save the changes you've made to the capture file clean.pcapng before closing it?"), asked);
        assertEquals(List.of("kept"), ctx.comments(2), "Cancel keeps the capture open");
        javafx.stage.WindowEvent closeBox = new javafx.stage.WindowEvent(stage, javafx.stage.WindowEvent.WINDOW_CLOSE_REQUEST);
        robot.interact(() -> stage.fireEvent(closeBox));
        assertTrue(closeBox.isConsumed() && stage.isShowing(), "Cancel keeps the window");
        assertTrue(asked.getLast().endsWith("before quitting?"), asked.getLast());

        answer[0] = CaptureSaving.Answer.SAVE;
        robot.interact(close::fire);
        assertNull(ctx.capture(), "saved, then closed");
        try (PacketSource src = CaptureFiles.open(file)) {
            src.next();
            src.next();
            assertEquals("kept", src.comment(), "written over the open file");
        }
        try (var left = Files.list(config)) {
            assertEquals(List.of(), left.filter(p -> p.toString().endsWith(".saving")).toList(), "no temporary file left");
        }

        Fx.openAndAnalyze(robot, window, ctx, file);
        robot.interact(() -> ctx.addComment(4, "dropped"));
        answer[0] = CaptureSaving.Answer.DISCARD;
        robot.interact(ctx::reload);
        Fx.until("reloaded", () -> ctx.capture() != null && ctx.analysis() != null && !ctx.busyProperty().get());
        assertEquals(List.of(), ctx.comments(4), "Continue without Saving drops the comment");
        assertEquals(List.of("kept"), ctx.comments(2), "the file's comment");
        assertTrue(asked.getLast().endsWith("before reloading it?"), asked.getLast());

        robot.interact(() -> ctx.addComment(4, "pcap"));
        answer[0] = CaptureSaving.Answer.CANCEL;
        int before = asked.size();
        boolean[] saved = {true};
        @SuppressWarnings("unchecked") java.util.concurrent.CompletableFuture<Boolean>[] saving = new java.util.concurrent.CompletableFuture[1];
        robot.interact(() -> saving[0] = window.saving().saveTo(config.resolve("out.pcap"), CaptureSaving.Format.PCAP));
        saved[0] = saving[0].get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(!saved[0] && !Files.exists(config.resolve("out.pcap")) && asked.size() == before + 1, asked.toString());
        assertEquals("The pcap format cannot hold packet comments.", asked.getLast());
        answer[0] = CaptureSaving.Answer.SAVE;     // Save as pcapng: out.pcapng instead
        robot.interact(() -> saving[0] = window.saving().saveTo(config.resolve("out.pcap"), CaptureSaving.Format.PCAP));
        saved[0] = saving[0].get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(saved[0] && CaptureSaving.isPcapng(config.resolve("out.pcapng")) && !Files.exists(config.resolve("out.pcap")));
        Fx.until("saved file opened", () -> ctx.capture() != null && ctx.analysis() != null && !ctx.busyProperty().get());
        assertEquals(List.of("pcap"), ctx.comments(4));
        robot.interact(() -> ctx.deleteAllComments(false));
        assertEquals(0, ctx.commentedFrames().length);
        answer[0] = CaptureSaving.Answer.DISCARD;     // pcap without comments (none left to lose: not asked)
        before = asked.size();
        robot.interact(() -> saving[0] = window.saving().saveTo(config.resolve("out.pcap"), CaptureSaving.Format.PCAP));
        saved[0] = saving[0].get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(saved[0] && asked.size() == before);
        try (PacketSource src = CaptureFiles.open(config.resolve("out.pcap"))) {
            assertEquals(io.metaroce.capture.CaptureFormat.PCAP_NS, src.format());
            int n = 0;
            while (src.next()) n++;
            assertEquals(Samples.frames("rocev2-read-atomic"), n);
        }
        Fx.until("pcap opened", () -> ctx.capture() != null && ctx.analysis() != null && !ctx.busyProperty().get());
        Path nowhere = config.resolve("no/such/dir/x.pcapng");
        robot.interact(() -> saving[0] = window.saving().saveTo(nowhere, CaptureSaving.Format.PCAPNG));
        saved[0] = saving[0].get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(!saved[0]);
        assertEquals(List.of("Cannot save " + nowhere + ": no such directory: " + nowhere.getParent()), errors, "one line");
        errors.clear();
        int asks = asked.size();
        robot.interact(close::fire);
        assertEquals(asks, asked.size(), "nothing to save: no question");
        assertNull(ctx.capture());
        assertEquals(List.of(), errors);
    }

    /**
     * Edit > Ignore/Unignore Packet (Ctrl+D) on the first copy of PSN 24 in rocev2-gbn-loss: the analysis runs again
     * without it and the next frame shows a PSN gap it did not have (analyze on the file without that frame says
     * the same); the row reads <Ignored>, the tree and bytes are empty, the status bar counts it, frame.ignored finds
     * it and no other filter does; Export with "Remove ignored packets" writes the other frames. Ctrl+D again:
     * the gap is gone.
     */
    @Test
    void anIgnoredPacketLeavesTheAnalysisAndTheExportUntilUnignored(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        int all = ctx.capture().frames();
        assertArrayEquals(new int[0], ctx.framesMatching("analysis.psn_gap"), "no gap in the whole capture");
        var first = ctx.analysis();
        robot.interact(() -> ctx.select(39));
        menuItem(robot, "edit-ignore");      // Ctrl+D (GuiMenusIT checks the accelerators)
        Fx.until("analyzed again", () -> ctx.isIgnored(39) && ctx.analysis() != null && ctx.analysis() != first
                && !ctx.busyProperty().get());
        assertArrayEquals(new int[] {40}, ctx.framesMatching("analysis.psn_gap"), "PSN 25 follows 23 now");
        assertEquals("<Ignored>", cell(robot, 39, "Info"));
        assertEquals("", cell(robot, 39, "Source"));
        assertEquals("", cell(robot, 39, "Protocol"));
        assertEquals("39", cell(robot, 39, "No."));
        assertEquals("Ignored: 1 (0.5%)", robot.lookup("#ignored-count").queryLabeled().getText());
        assertEquals(39, ctx.selectedFrame());
        assertTrue(window.detail().tree().getRoot() == null, "an ignored frame has no tree");
        robot.interact(() -> ctx.select(41));
        Fx.until("grey row", () -> PacketTable.IGNORED_STYLE.equals(row(robot, 39).getStyle()));
        assertArrayEquals(new int[] {39}, ctx.framesMatching("frame.ignored == 1"), "in every frame, as frame.marked and Wireshark's");
        assertEquals(all - 1, ctx.framesMatching("frame.ignored == 0").length);
        assertEquals(all - 1, ctx.framesMatching("bth").length, "an ignored frame matches no other field");

        Path out = config.resolve("without-ignored.pcapng");
        var choice = new PacketExport.Choice(PacketExport.Range.ALL, "", false, ctx.ignoredFrames());
        robot.interact(() -> ExportDialog.export(ctx, choice, out));
        Fx.until("exported", () -> ctx.statusProperty().get().startsWith("Exported " + (all - 1) + " packets"));
        try (PacketSource src = CaptureFiles.open(out)) {
            int f = 0;
            while (src.next()) {
                f += f == 38 ? 2 : 1;
                assertArrayEquals(ctx.capture().index().bytes(f), src.data().toArray(ValueLayout.JAVA_BYTE), "frame " + f);
            }
            assertEquals(all, f, "every frame but 39");
        }

        var second = ctx.analysis();
        robot.interact(() -> ctx.select(39));
        menuItem(robot, "edit-ignore");
        Fx.until("unignored", () -> !ctx.isIgnored(39) && ctx.analysis() != null && ctx.analysis() != second
                && !ctx.busyProperty().get());
        assertArrayEquals(new int[0], ctx.framesMatching("analysis.psn_gap"), "the gap is gone with the frame back");
        assertEquals("", robot.lookup("#ignored-count").queryLabeled().getText());
        assertTrue(!cell(robot, 39, "Info").equals("<Ignored>"));
        assertEquals(first.flows().size(), ctx.analysis().flows().size());
        menuItem(robot, "edit-ignore-all");
        assertEquals(all, ctx.ignoredCount());
        assertEquals("Ignored: " + all + " (100.0%)", robot.lookup("#ignored-count").queryLabeled().getText());
        menuItem(robot, "edit-unignore-all");
        assertEquals(0, ctx.ignoredCount());
        assertEquals(List.of(), errors);
    }

    /**
     * Edit > Time Shift: shift all by 2.5 s moves every Time column value (absolute) by 2.5 s from the file's time;
     * bad text and packet numbers give Wireshark's messages and change nothing; Undo all shifts restores the file's
     * times; setting two packets' times puts both exactly there and a frame between on the line; Save writes the
     * shifted times, and the saved file opens with them as its own.
     */
    @Test
    void timeShiftMovesTheTimesTheAnalysisAndTheSavedFile(FxRobot robot) throws Exception {
        open(robot, "rocev2-clean");
        var ix = ctx.capture().index();
        int n = ctx.capture().frames();
        long[] file = new long[n + 1];
        for (int f = 1; f <= n; f++) file[f] = ix.fileTimeNanos(f);
        robot.interact(() -> window.packets().timeFormatProperty().set(TimeFormat.ABSOLUTE));
        TimeShiftDialog[] d = new TimeShiftDialog[1];
        robot.interact(() -> d[0] = TimeShiftDialog.show(ctx));
        var first = ctx.analysis();
        robot.interact(() -> {
            d[0].offset.setText("2.5");
            d[0].apply();
        });
        assertEquals("", d[0].error.getText());
        Fx.until("analyzed again", () -> ctx.analysis() != null && ctx.analysis() != first && !ctx.busyProperty().get());
        for (int f = 1; f <= n; f++) assertEquals(file[f] + 2_500_000_000L, ix.timeNanos(f), "frame " + f);
        for (int f : new int[] {1, n / 2, n}) assertEquals(file[f] + 2_500_000_000L, absolute(cell(robot, f, "Time")), "frame " + f);
        assertTrue(stage.getTitle().startsWith("*"), "a shift is unsaved: " + stage.getTitle());

        for (String[] bad : new String[][] {{"abc", "Could not parse the time: Expected [[hh:]mm:]ss.[dec]."},
                {"90", "Seconds must be between [0..59]"}, {"1:75:00", "Minutes must be between [0..59]"}, {"0", "Offset is zero."}}) {
            robot.interact(() -> {
                d[0].offset.setText(bad[0]);
                d[0].apply();
            });
            assertEquals(bad[1], d[0].error.getText(), bad[0]);
        }
        robot.interact(() -> {
            d[0].frame1.setText("0");
            d[0].time1.setText("10:00:00");
            d[0].apply();
        });
        assertEquals("Frame numbers must be between 1 and " + n + ".", d[0].error.getText());
        robot.interact(() -> {
            d[0].frame1.setText("2");
            d[0].time1.setText("25:00:00");
            d[0].apply();
        });
        assertEquals("Hours must be between [0..23]", d[0].error.getText());
        assertEquals(file[n] + 2_500_000_000L, ix.timeNanos(n), "nothing changed by the bad input");

        robot.interact(() -> {
            d[0].undo.setSelected(true);
            d[0].apply();
        });
        for (int f = 1; f <= n; f++) assertEquals(file[f], ix.timeNanos(f));

        int m = n - 1, k = n / 2;
        robot.interact(() -> {
            d[0].frame1.setText("2");
            d[0].time1.setText("2030-01-02 03:04:05.25");
            d[0].frame2.setText(String.valueOf(m));
            d[0].time2.setText("2030-01-02 03:04:06.5");
            d[0].apply();
        });
        assertEquals("", d[0].error.getText());
        long new1 = java.time.LocalDateTime.of(2030, 1, 2, 3, 4, 5).toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000_000L + 250_000_000L;
        long new2 = new1 + 1_250_000_000L;
        assertEquals(new1, ix.timeNanos(2));
        assertEquals(new2, ix.timeNanos(m));
        double expected = new1 + (double) (file[k] - file[2]) * (new2 - new1) / (file[m] - file[2]);
        assertEquals(expected, ix.timeNanos(k), 1.0, "frame " + k + " on the line");
        assertEquals(new1, absolute(cell(robot, 2, "Time")));
        Fx.until("analyzed again", () -> ctx.analysis() != null && !ctx.busyProperty().get());

        long[] shifted = new long[n + 1];
        for (int f = 1; f <= n; f++) shifted[f] = ix.timeNanos(f);
        Path out = config.resolve("shifted.pcapng");
        boolean[] saved = {false};
        @SuppressWarnings("unchecked") java.util.concurrent.CompletableFuture<Boolean>[] saving = new java.util.concurrent.CompletableFuture[1];
        robot.interact(() -> saving[0] = window.saving().saveTo(out, CaptureSaving.Format.PCAPNG));
        saved[0] = saving[0].get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(saved[0], errors.toString());
        try (PacketSource src = CaptureFiles.open(out)) {
            int f = 0;
            while (src.next()) assertEquals(shifted[++f], src.timestampNanos(), "saved frame " + f);
            assertEquals(n, f);
        }
        Fx.until("saved file opened", () -> ctx.capture() != null && ctx.capture().file().equals(out.toAbsolutePath())
                && ctx.analysis() != null && !ctx.busyProperty().get());
        assertNull(ctx.timeShift(), "the saved file's times are the shifted ones: nothing left to shift");
        assertEquals(shifted[k], ctx.capture().index().timeNanos(k));
        assertTrue(!ctx.hasUnsavedChanges());
        assertTrue(!d[0].stage.isShowing(), "the capture was replaced: the dialog's numbers and times were the old one's");

        // File > Open while a shift is unsaved and the dialog open: the question, then the other file with its own
        // times, the dialog closed (no shift typed for the old capture applies to the new one).
        robot.interact(() -> d[0] = TimeShiftDialog.show(ctx));
        robot.interact(() -> {
            d[0].offset.setText("1");
            d[0].apply();
        });
        assertTrue(ctx.timeShift() != null);
        window.saving().setAsker((header, text, save, discard) -> CaptureSaving.Answer.DISCARD);
        Path other = Samples.capture("rocev2-read-atomic");
        Fx.openAndAnalyze(robot, window, ctx, other);
        assertEquals(other, ctx.capture().file());
        assertTrue(!d[0].stage.isShowing(), "closed with the capture it shifted");
        assertNull(ctx.timeShift());
        assertEquals(ctx.capture().index().fileTimeNanos(1), ctx.capture().index().timeNanos(1), "the file's own times");
        assertEquals(List.of(), errors);
    }

    /**
     * Save runs off the JavaFX thread: a save held in its writer (after its first progress pulse) leaves the JavaFX
     * thread free (an interact runs; were the write on it, the interact would wait on the held writer), the status bar
     * shows its progress above 0 and Cancel; Cancel leaves the target (the open file itself) byte for byte as it
     * was and no temporary file. Save As then writes the same bytes as the writer called directly (the old code's path).
     */
    @Test
    void saveRunsInTheBackgroundWithProgressAndCancelLeavesTheTargetAsItWas(FxRobot robot) throws Exception {
        Path big = config.resolve("big.pcapng");
        try (PacketSource src = CaptureFiles.open(Samples.capture("rocev2-read-atomic"));
             io.metaroce.capture.PcapngWriter w = io.metaroce.capture.PcapngWriter.create(big)) {
            List<byte[]> data = new java.util.ArrayList<>();
            List<Long> times = new java.util.ArrayList<>();
            int iface = -1;
            while (src.next()) {
                if (iface < 0) iface = w.addInterface(src.linkType(), 0, null, src.fcsLength());
                data.add(src.data().toArray(ValueLayout.JAVA_BYTE));
                times.add(src.timestampNanos());
            }
            long span = times.getLast() - times.getFirst() + 1_000;
            // Two progress pulses and a frame: held at the first, Cancel seen at the second.
            for (int copy = 0, n = 0; n <= 2 * PacketExport.PULSE; copy++)
                for (int i = 0; i < data.size() && n <= 2 * PacketExport.PULSE; i++, n++)
                    w.write(iface, times.get(i) + copy * span, data.get(i), 0, data.get(i).length, data.get(i).length, null);
        }
        byte[] before = Files.readAllBytes(big);
        Fx.openAndAnalyze(robot, window, ctx, big);
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1), release = new java.util.concurrent.CountDownLatch(1);
        var index = ctx.capture().index();
        var stats = ctx.capture().source().stats();
        var comments = ctx.commentsState();
        BackgroundSave.Writer holding = (tmp, progress) -> PacketExport.writeAll(index, comments, stats, tmp, new PacketExport.Progress() {
            @Override public void report(double fraction) {
                progress.report(fraction);
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override public boolean cancelled() { return progress.cancelled(); }
        });
        @SuppressWarnings("unchecked") java.util.concurrent.CompletableFuture<Integer>[] done = new java.util.concurrent.CompletableFuture[1];
        robot.interact(() -> done[0] = BackgroundSave.start(ctx, big, "Saving", holding, n -> ctx.status("saved")));
        assertTrue(held.await(30, java.util.concurrent.TimeUnit.SECONDS), "the writer reached its first pulse");
        boolean[] answered = {false};
        robot.interact(() -> answered[0] = true);       // the JavaFX thread is free while the writer is held
        assertTrue(answered[0]);
        Fx.until("progress shown", () -> ctx.busyProperty().get() && ctx.progressProperty().get() > 0
                && robot.lookup("#cancel").query().isVisible());
        assertEquals("Saving big.pcapng ...", ctx.statusProperty().get());
        boolean[] closes = {true};
        robot.interact(() -> closes[0] = window.saving().confirm("closing it"));
        assertTrue(!closes[0] && errors.getLast().startsWith("A save is still running"), "Close waits for the save: " + errors);
        errors.clear();
        robot.interact(() -> robot.lookup("#cancel").<javafx.scene.control.Button>query().fire());
        release.countDown();
        assertEquals(-1, done[0].get(30, java.util.concurrent.TimeUnit.SECONDS));
        Fx.until("cancelled", () -> !ctx.busyProperty().get());
        assertEquals("Saving cancelled: big.pcapng left as it was", ctx.statusProperty().get());
        assertArrayEquals(before, Files.readAllBytes(big), "the open file as it was");
        try (var left = Files.list(config)) {
            assertEquals(List.of(), left.filter(p -> p.toString().endsWith(".saving")).toList(), "no temporary file left");
        }

        Path direct = config.resolve("direct.pcapng"), saved = config.resolve("saved-big.pcapng");
        assertEquals(ctx.capture().frames(), PacketExport.writeAll(index, comments, stats, direct));
        @SuppressWarnings("unchecked") java.util.concurrent.CompletableFuture<Boolean>[] saving = new java.util.concurrent.CompletableFuture[1];
        robot.interact(() -> saving[0] = window.saving().saveTo(saved, CaptureSaving.Format.PCAPNG));
        assertTrue(saving[0].get(30, java.util.concurrent.TimeUnit.SECONDS), errors.toString());
        assertEquals(-1, Files.mismatch(direct, saved), "the same bytes as the writer called on its own");
        Fx.until("saved file opened", () -> ctx.capture() != null && ctx.capture().file().equals(saved.toAbsolutePath()));
        assertEquals(2 * PacketExport.PULSE + 1, ctx.capture().frames());
        assertEquals(List.of(), errors);
    }

    /** An absolute Time column text (UTC) in nanoseconds since the epoch. */
    private static long absolute(String text) {
        int dot = text.lastIndexOf('.');
        long s = java.time.LocalDateTime.parse(text.substring(0, dot).replace(' ', 'T')).toEpochSecond(java.time.ZoneOffset.UTC);
        return s * 1_000_000_000L + Long.parseLong(text.substring(dot + 1));
    }

    private int next(FxRobot robot, Navigation.Kind kind, boolean forward) {
        java.util.concurrent.CompletableFuture<?>[] f = new java.util.concurrent.CompletableFuture<?>[1];
        robot.interact(() -> f[0] = Navigation.next(ctx, kind, forward));
        Fx.until("search", () -> f[0].isDone());
        return ctx.selectedFrame();
    }
}
