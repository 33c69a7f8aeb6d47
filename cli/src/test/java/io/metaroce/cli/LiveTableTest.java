package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.LiveSnapshot;
import io.metaroce.analysis.LiveSnapshot.PathLoss;
import io.metaroce.analysis.LiveSnapshot.Row;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The live table of {@code analyze -i}: what one snapshot of the counters looks like on the terminal. */
class LiveTableTest {
    private static final String STATUS = "captured 10, kernel drops 0, interface drops 0, our drops 0";

    @Test
    void oneRowPerFlowBusiestFirstWithEveryCounterAndThePathLoss() {
        LiveSnapshot s = new LiveSnapshot(1234, List.of(
                new Row("10.0.0.1>10.0.0.2/0x000011", 40, 3, 1, 2, 5, 7, List.of()),
                new Row("10.0.0.3>10.0.0.4/0x000022", 900, 12, 0, 4, 6, 9,
                        List.of(new PathLoss(0, 0, 300), new PathLoss(1, 25, 200), new PathLoss(3, 1, 3)))));
        List<String> t = LiveTable.render(s, STATUS, 0, 20);
        assertEquals(List.of(
                STATUS,
                "analyzed 1234 frames, 2 QP flows",
                "FLOW                         PACKETS    RETX   NAKS   CNPS     CE   LOST  PATH LOSS",
                "10.0.0.3>10.0.0.4/0x000022       900      12      0      4      6      9  p0 0.0% p1 12.5% p3 33.3%",
                "10.0.0.1>10.0.0.2/0x000011        40       3      1      2      5      7"), t);
    }

    @Test
    void linesAreCutToTheTerminalSoThatNoneWrapsAndTheRedrawStaysInPlace() {
        LiveSnapshot s = new LiveSnapshot(5, List.of(new Row("10.0.0.1>10.0.0.2/0x000011", 5, 0, 0, 0, 0, 0,
                List.of(new PathLoss(0, 1, 2), new PathLoss(1, 1, 2)))));
        List<String> t = LiveTable.render(s, STATUS, 50, 20);
        for (String l : t) assertTrue(l.length() <= 49, l.length() + ": " + l);
        assertTrue(t.get(3).endsWith(">"), t.get(3));
        assertTrue(t.get(3).startsWith("10.0.0.1>10.0.0.2/0x000011"), t.get(3));
    }

    @Test
    void manyFlowsShowTheBusiestAndSayHowManyMore() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 30; i++) rows.add(new Row("flow" + i, i, 0, 0, 0, 0, 0, List.of()));
        List<String> t = LiveTable.render(new LiveSnapshot(435, rows), STATUS, 0, 20);
        assertEquals(3 + 20 + 1, t.size());
        assertTrue(t.get(3).startsWith("flow29 "), t.get(3));
        assertTrue(t.get(22).startsWith("flow10 "), t.get(22));
        assertEquals("... 10 more flows (all of them in the report at the end)", t.get(23));
    }

    @Test
    void beforeTheFirstFlowTheTableIsItsHeader() {
        List<String> t = LiveTable.render(LiveSnapshot.EMPTY, STATUS, 80, 20);
        assertEquals(List.of(STATUS, "analyzed 0 frames, 0 QP flows",
                "FLOW   PACKETS    RETX   NAKS   CNPS     CE   LOST  PATH LOSS"), t);
    }
}
