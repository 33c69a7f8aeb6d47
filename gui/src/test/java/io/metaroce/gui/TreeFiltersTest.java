package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.filter.DisplayFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javafx.scene.control.TreeItem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The view model of the tree without a window: on the first frames of every bundled sample, every line that offers
 * "apply as filter" gives a filter that compiles and matches its own frame, and every line's bytes lie inside the
 * frame and inside the bytes of the line above it (a field inside its header).
 */
class TreeFiltersTest {
    @Test
    void everyTreeLineFilterMatchesItsFrameAndEveryByteRangeIsInsideItsParent() throws Exception {
        int lines = 0;
        List<Path> samples;
        try (Stream<Path> s = Files.list(Samples.dir())) {
            samples = s.filter(p -> p.toString().endsWith(".pcapng")).sorted().toList();
        }
        assertTrue(samples.size() >= 10);
        for (Path p : samples) {
            try (PacketSource src = CaptureFiles.open(p)) {
                FrameIndex ix = FrameIndex.build(src);
                FrameDecoder dec = new FrameDecoder(ix, null);
                GuiFields.Accessor acc = new GuiFields.Accessor(null);
                for (int f = 1; f <= Math.min(ix.size(), 25); f++) {
                    dec.decode(f);
                    TreeItem<TreeEntry> root = FieldTreeModel.build(dec.decode(f), dec.fields());
                    List<TreeItem<TreeEntry>> all = new ArrayList<>();
                    FieldTreeModel.walk(root, all);
                    for (TreeItem<TreeEntry> it : all) {
                        TreeEntry e = it.getValue();
                        String where = p.getFileName() + "#" + f + " " + e.text();
                        if (e.hasBytes()) {
                            assertTrue(e.offset() + e.length() <= ix.capturedLength(f), where);
                            TreeEntry parent = it.getParent() == null ? null : it.getParent().getValue();
                            if (parent != null && parent.hasBytes() && e.node() != null)
                                assertTrue(e.offset() >= parent.offset() && e.offset() + e.length() <= parent.offset() + parent.length(),
                                        where + " inside " + parent.text());
                        }
                        if (e.filter() == null || e.expert() != null) continue;
                        DisplayFilter df = GuiContext.compile(e.filter());
                        assertTrue(df.matches(acc.of(dec.fields())), where + ": " + e.filter());
                        lines++;
                    }
                }
            }
        }
        assertTrue(lines > 5000, "lines checked: " + lines);
    }

    @Test
    void theDefaultColoringRulesCompileAndSurviveASaveAndLoad(@TempDir Path dir) throws Exception {
        ColoringRules d = ColoringRules.defaults();
        for (int i = 0; i < d.rules().size(); i++) assertEquals(null, d.error(i), d.rules().get(i).name());
        List<String> names = d.rules().stream().map(ColoringRules.Rule::name).toList();
        assertTrue(names.containsAll(List.of("Bad ICRC", "Retransmission", "Spurious retransmission", "NAK / NACK", "CNP / CE",
                "Credit stall", "Conformance finding", "Path down")), names.toString());
        Path f = dir.resolve("metaroce/colorfilters");
        d.save(f);
        assertTrue(Files.readString(f).contains("@Bad ICRC@icrc.status == \"bad\"@[65535,65535,65535][42148,0,0]"), Files.readString(f));
        assertEquals(d.rules(), ColoringRules.load(f).rules());
        assertEquals(ColoringRules.defaults().rules(), ColoringRules.load(f.resolveSibling("missing")).rules());
    }

    @Test
    void rowWindowsHoldAtMostMaxRowsAroundTheTarget() {
        FrameView ten = FrameView.all(10_000_000);
        RowWindow w = RowWindow.around(ten, 9_000_000);
        assertEquals(RowWindow.MAX, w.size());
        assertTrue(w.holds(9_000_000));
        assertEquals(9_000_001, w.get(9_000_000 - w.base()));
        RowWindow end = RowWindow.around(ten, 9_999_999);
        assertEquals(10_000_000 - RowWindow.MAX, end.base());
        assertEquals(10_000_000, end.get(end.size() - 1));
        RowWindow small = RowWindow.around(FrameView.all(500), 400);
        assertTrue(small.whole());
        FrameView sorted = FrameView.of(new int[] {5, 3, 9, 1});
        assertEquals(2, sorted.rowOf(9));
        assertEquals(-1, sorted.rowOf(4));
        assertEquals(-1, FrameView.of(new int[] {1, 3}).rowOf(2));
    }
}
