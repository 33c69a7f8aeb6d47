package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The time stamps log lines around an NCCL job start with, and the ones that are not when the line was logged. */
class LogTimeTest {
    private static long ns(String iso) {
        Instant i = Instant.parse(iso);
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    @Test
    void ucxEpochSeconds() {
        LogTime t = LogTime.of("[1733390405.123456] [node1:31180:0]  ib_mlx5_log.c:171  UCX  ERROR Transport retry count exceeded");
        assertEquals(new LogTime(1_733_390_405_123_456_000L, true), t);
        assertEquals("2024-12-05T09:20:05Z", t.text());
        assertEquals("2024-12-05T09:20:05.123456Z", t.describe());
    }

    @Test
    void calendarFormsWithAndWithoutZone() {
        assertEquals(new LogTime(ns("2026-11-30T02:10:05.123456789Z"), true),
                LogTime.of("2026-11-30T02:10:05.123456789Z node1:31180:31180 [0] NCCL WARN NET/IB : Got completion"));
        assertEquals(new LogTime(ns("2026-11-30T01:10:05Z"), true), LogTime.of("2026-11-30T02:10:05+01:00 host kernel: x"));
        assertEquals(new LogTime(ns("2026-11-30T03:10:05Z"), true), LogTime.of("2026-11-30T02:10:05-0100 host x"));
        // NCCL_DEBUG_TIMESTAMP_FORMAT's bracket and Python logging's comma: the host's local time, zone unknown.
        LogTime nccl = LogTime.of("[2026-11-30 02:10:05] node1:31180:31180 [0] NCCL WARN x");
        assertEquals(new LogTime(ns("2026-11-30T02:10:05Z"), false), nccl);
        assertFalse(nccl.zoned());
        assertEquals("2026-11-30T02:10:05", nccl.text(), "no zone: the index would read it as UTC, so none is claimed");
        assertTrue(nccl.describe().contains("no zone printed"), nccl.describe());
        assertEquals(new LogTime(ns("2026-11-30T02:10:05.250Z"), false), LogTime.of("  2026-11-30 02:10:05,25 WARNING x"));
    }

    @Test
    void notATimeStampAtTheStart() {
        assertNull(LogTime.of("node1:31180:31180 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1>"));
        assertNull(LogTime.of("NCCL WARN on 2026-11-30 02:10:05 something"), "a date inside the message is not the line's time");
        assertNull(LogTime.of("2026-13-45 02:10:05 month 13"));
        assertNull(LogTime.of("2026-11-30 02:10:05:07 a longer clock"));
        assertNull(LogTime.of("[12345] [n1:7:0:7] too few digits for epoch seconds"));
        assertNull(LogTime.of("0042-01-01 00:00:00 a year no log was written in"));
        assertNull(LogTime.of(""));
        assertNull(LogTime.of(null));
    }
}
