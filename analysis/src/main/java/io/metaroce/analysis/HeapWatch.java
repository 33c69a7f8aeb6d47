package io.metaroce.analysis;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns a heap that stays full into an {@link OutOfMemoryError} the pass can end on (issue 14.3).
 *
 * <p>Why: the launcher's collector (SerialGC) throws that error only when a full collection frees too little
 * for the allocation at hand. A live set kept just short of the limit (the flow table at its bound, a hold of
 * frames) leaves a little room after every collection, so every few megabytes of allocation cost a full
 * collection of the whole heap: the run goes on for minutes, with no error and no output (seen once in CI:
 * {@code PipelineFailureIT} still running after 120 s; analyze of a 400,000-QP capture under {@code -Xmx256m}
 * spends 20-25 full collections, 15 of which free nothing, before the JVM gives up). JDK 25's own overhead limit
 * ({@code UseGCOverheadLimit}) is the parallel collector's only.
 *
 * <p>How: the pass asks {@link #failure()} once per batch of frames on each of its threads (and once per new flow).
 * While the heap is less than half full (garbage included) that is all; from then on it reads the count of full
 * collections (one call into the JVM, no allocation); when it moved, it reads how full the last
 * collection of each heap pool left it (for SerialGC's full collection, which collects all three pools, that is
 * the whole heap: what the old generation cannot hold stays in the young one). When {@link #STREAK} full
 * collections in a row left the heap at least {@link #FULL} full, the pass gets an error; a full collection that
 * leaves room again ends the streak. The count of collections, not time, decides: the bound does not depend on
 * the machine's load. Below the threshold each full collection leaves at least a tenth of the heap free, so a
 * run pays at most ten full collections per heap's worth of allocation: slow, but bounded per byte. A run that
 * is not short of memory is far from it (analyze of 10^6 single-packet QPs under {@code -Xmx1g}: 16-42 % after
 * its full collections; most runs have none at all).
 *
 * <p>Not the JVM's notifications: the one after a collection (GarbageCollectionNotificationInfo) builds its
 * composite data by reflection on the JVM's notification thread, which in a heap that full spun method handles
 * through one full collection after another and never told the pass in time.
 *
 * <p>One watch per process ({@link #get}): every pass running at once shares the one heap.
 */
public final class HeapWatch {
    /** The heap's fill, after a full collection, that counts as full. */
    static final double FULL = 0.90;
    /** Full collections in a row that left the heap full before a pass gives up. */
    static final int STREAK = 5;

    private static final HeapWatch INSTANCE = new HeapWatch();
    /**
     * Heap in use (garbage included) above which the watch sets itself up. Setting up the management beans costs
     * some 10-30 ms of CPU (analyze of the 79-frame sample, 0.24 -> 0.27 s median of 7 interleaved runs with it
     * done at every pass), which a run far from its limit should not pay.
     */
    private static final long CROWDED = Runtime.getRuntime().maxMemory() / 2;

    /** The beans read, once set up; null before. */
    private volatile Beans beans;
    private static final Beans NO_BEANS = new Beans(null, null);

    /** The collector of the old generation (SerialGC's "MarkSweepCompact"), or null: no watch; the heap's pools. */
    private record Beans(GarbageCollectorMXBean full, MemoryPoolMXBean[] heap) {}
    /** Allocated up front: when it is needed, the heap may have no room for it. */
    private final OutOfMemoryError error = new OutOfMemoryError("the heap stayed over " + Math.round(FULL * 100)
            + " % full through " + STREAK + " full garbage collections in a row");
    /** Full collections seen so far; written under the lock. */
    private volatile long seen;
    /** Full collections in a row that left the heap full; only under the lock. */
    private long streak;
    private volatile OutOfMemoryError failure;

    private HeapWatch() {}

    /**
     * The process's watch. It sets itself up when a pass first finds the heap half full; it never fails when the
     * JVM offers no old generation to watch (another collector without one, or the management module missing).
     */
    public static HeapWatch get() {
        return INSTANCE;
    }

    private synchronized Beans start() {
        if (beans != null) return beans;
        Beans b = beans();
        if (b.full != null) seen = b.full.getCollectionCount();
        beans = b;
        return b;
    }

    private static Beans beans() {
        try {
            List<MemoryPoolMXBean> heap = new ArrayList<>();
            MemoryPoolMXBean old = null;
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getType() != MemoryType.HEAP || !p.isCollectionUsageThresholdSupported()) continue;
                heap.add(p);
                // The largest: SerialGC's "Tenured Gen" (the parallel collector's "PS Old Gen", G1's "G1 Old Gen").
                if (old == null || p.getUsage().getMax() > old.getUsage().getMax()) old = p;
            }
            GarbageCollectorMXBean full = null;
            if (old != null) {
                for (GarbageCollectorMXBean c : ManagementFactory.getGarbageCollectorMXBeans()) {
                    // The last that collects the old generation: the JDK lists the young collector first, and G1's
                    // young collector names the old generation too (SerialGC's "Copy" does not).
                    if (Arrays.asList(c.getMemoryPoolNames()).contains(old.getName())) full = c;
                }
            }
            if (full != null) return new Beans(full, heap.toArray(new MemoryPoolMXBean[0]));
        } catch (RuntimeException | LinkageError e) {
            // no management module: no watch, as before
        }
        return NO_BEANS;
    }

    /**
     * The error a pass should end on, or null while the heap is not stuck full. Cheap enough for once per batch:
     * two {@link Runtime} calls while the heap is less than half full, then one call into the JVM while no full
     * collection happened since the last look.
     */
    public OutOfMemoryError failure() {
        Beans b = beans;
        if (b == null) {
            Runtime rt = Runtime.getRuntime();
            if (rt.totalMemory() - rt.freeMemory() < CROWDED) return null;
            b = start();
        }
        if (b.full != null && b.full.getCollectionCount() != seen) look(b);
        return failure;
    }

    private synchronized void look(Beans b) {
        long count = b.full.getCollectionCount();
        if (count == seen) return; // the other thread looked
        long used = 0, max = 0;
        for (MemoryPoolMXBean p : b.heap) {
            MemoryUsage u = p.getCollectionUsage();
            if (u == null) continue;
            used += u.getUsed();
            max += u.getMax() > 0 ? u.getMax() : u.getCommitted();
        }
        // Several full collections since the last look count as many, judged by the last: a pass that saw none of
        // them leave room in between is the one this is about.
        streak = max > 0 && used >= FULL * max ? streak + (count - seen) : 0;
        seen = count;
        // A collection that left room (a failed pass dropped its state) clears the failure for the passes after it.
        failure = streak >= STREAK ? error : null;
    }
}
