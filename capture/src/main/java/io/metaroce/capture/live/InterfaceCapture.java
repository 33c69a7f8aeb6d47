package io.metaroce.capture.live;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.concurrent.BlockingQueue;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.PcapStat;
import org.pcap4j.core.RawPacketListener;

/**
 * One interface of a live capture: its libpcap handle and the thread that runs {@code pcap_loop} on it. The
 * listener only copies the frame into the shared bounded queue; when the queue is full the frame is counted
 * as dropped by us and the loop goes on, so the kernel ring never waits for the consumer.
 */
final class InterfaceCapture implements RawPacketListener {
    /** Read timeout: how long libpcap (TPACKET_V3) lets a partly filled block wait before handing it over. */
    static final int TIMEOUT_MS = 50;

    final int index;
    final String name;
    final String description;
    final int linkType;
    final int snapLength;
    private final PcapHandle handle;
    private final BlockingQueue<LivePacket> queue;
    private final LiveCapture owner;
    private final long rxPacketsAtStart;
    private volatile long startNanos;
    // Written only by the capture thread; volatile so that the status line and the writer read them.
    private volatile long delivered, ourDropped;
    // Every frame libpcap handed to the listener, admitted under -c or not (capture thread only).
    private long seen;
    private volatile boolean finished;
    private InterfaceCounters last;

    private InterfaceCapture(int index, String name, PcapHandle handle, BlockingQueue<LivePacket> queue, LiveCapture owner,
                             int snapLength) {
        this.index = index;
        this.name = name;
        this.handle = handle;
        this.queue = queue;
        this.owner = owner;
        this.snapLength = snapLength;
        this.description = InterfaceList.description(name);
        this.linkType = handle.getDlt().value();
        this.rxPacketsAtStart = rxPackets(name);
    }

    /** Opens and activates the interface and sets the filter; every failure is one line for the user. */
    static InterfaceCapture open(int index, String name, LiveSettings s, BlockingQueue<LivePacket> queue, LiveCapture owner)
            throws LiveCaptureException {
        PcapHandle h;
        try {
            h = new PcapHandle.Builder(name)
                    .snaplen(s.snapLength())
                    .promiscuousMode(s.promiscuous() ? PromiscuousMode.PROMISCUOUS : PromiscuousMode.NONPROMISCUOUS)
                    .timeoutMillis(TIMEOUT_MS)
                    .bufferSize((int) Math.min(Integer.MAX_VALUE, (long) s.bufferMiB() << 20))
                    .timestampPrecision(PcapHandle.TimestampPrecision.NANO)
                    .immediateMode(s.immediate())
                    .build();
        } catch (PcapNativeException e) {
            throw openFailure(name, e.getMessage());
        }
        try {
            if (s.filter() != null && !s.filter().isBlank()) {
                h.setFilter(s.filter(), BpfProgram.BpfCompileMode.OPTIMIZE);
            }
        } catch (PcapNativeException | NotOpenException e) {
            h.close();
            throw new LiveCaptureException(LiveCaptureException.Kind.BAD_FILTER,
                    "bad capture filter '" + s.filter() + "': " + libpcapMessage(e.getMessage()));
        }
        return new InterfaceCapture(index, name, h, queue, owner, s.snapLength());
    }

    /** libpcap's activation errors, sorted into what the user can do about them. */
    static LiveCaptureException openFailure(String name, String message) {
        String m = message == null ? "unknown error" : message;
        String lower = m.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("permission") || lower.contains("operation not permitted")) {
            return new LiveCaptureException(LiveCaptureException.Kind.PERMISSION, "no permission to capture on '" + name + "'");
        }
        if (lower.contains("no such device")) {
            return new LiveCaptureException(LiveCaptureException.Kind.NO_SUCH_INTERFACE,
                    "no such interface '" + name + "' (list them with: metaroce capture -D)");
        }
        return new LiveCaptureException(LiveCaptureException.Kind.FAILED, "cannot capture on '" + name + "': " + m);
    }

    /** Pcap4J wraps libpcap's text ("Error occurred in pcap_compile: syntax error"); keep libpcap's part. */
    static String libpcapMessage(String m) {
        if (m == null) return "unknown error";
        int c = m.indexOf(": ");
        String t = m.startsWith("Error occurred") && c > 0 ? m.substring(c + 2) : m;
        return t.isEmpty() ? t : Character.toLowerCase(t.charAt(0)) + t.substring(1);
    }

    Thread start() {
        startNanos = LiveCapture.nowNanos();
        return Thread.ofPlatform().name("metaroce-capture-" + name).daemon().start(this::run);
    }

    private void run() {
        String error = null;
        try {
            while (!owner.stopping()) {
                try {
                    handle.loop(-1, this);
                } catch (InterruptedException e) {
                    // breakLoop(): either a stop, or a wake-up to look at the stop flag again.
                }
            }
            drain();
        } catch (PcapNativeException | NotOpenException e) {
            error = "capture on '" + name + "' ended: " + libpcapMessage(e.getMessage());
        } catch (RuntimeException | Error e) {
            // An Error too (out of memory copying a frame): it must end the capture with a message, not leave the
            // consumer to think the interface simply stopped.
            error = "capture on '" + name + "' failed: " + (e instanceof OutOfMemoryError ? "out of memory" : e);
        } finally {
            synchronized (this) {
                last = takeCounters();
                finished = true;
                handle.close();
            }
            owner.interfaceEnded(this, error);
        }
    }

    /**
     * After a stop, reads what the kernel ring still holds, so that the counters add up. A block that is
     * only partly filled is handed over by the kernel after the read timeout, hence the one pause.
     */
    private void drain() throws PcapNativeException, NotOpenException {
        handle.setBlockingMode(PcapHandle.BlockingMode.NONBLOCKING);
        // Read until the ring is empty twice in a row, a read timeout apart; then, while libpcap's count of
        // received frames is still ahead of what we were handed plus its drops (a block the kernel has not
        // handed over yet), wait a little longer, at most half a second in all.
        for (int idle = 0, waits = 0; idle < 2 || (waits < 5 && unread() > 0); ) {
            int n;
            try {
                n = handle.dispatch(-1, this);
            } catch (InterruptedException e) {
                n = 0;
            }
            if (n > 0) {
                idle = 0;
                continue;
            }
            idle++;
            if (idle >= 2) waits++;
            try {
                Thread.sleep(TIMEOUT_MS * 2L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Frames libpcap counted as received but neither handed to us nor dropped (still in the ring). */
    private synchronized long unread() throws PcapNativeException, NotOpenException {
        PcapStat st = handle.getStats();
        return st.getNumPacketsReceived() - st.getNumPacketsDropped() - seen;
    }

    @Override
    public void gotPacket(byte[] data) {
        seen++;
        if (!owner.admit()) {
            breakLoop();
            return;
        }
        Timestamp ts = handle.getTimestamp();
        Integer orig = handle.getOriginalLength();
        long nanos = Math.floorDiv(ts.getTime(), 1000L) * 1_000_000_000L + ts.getNanos();
        delivered++;
        if (!queue.offer(new LivePacket(index, nanos, orig == null ? data.length : orig, data))) {
            ourDropped++;
            owner.ourDrop();
        }
    }

    void breakLoop() {
        try {
            handle.breakLoop();
        } catch (NotOpenException e) {
            // already closed: nothing to wake
        }
    }

    /** Releases the handle of an interface whose thread never started. */
    synchronized void closeUnstarted() {
        if (!finished) {
            last = takeCounters();
            finished = true;
            handle.close();
        }
    }

    boolean finished() {
        return finished;
    }

    /** Counters now (libpcap's since activation, ours since the start); the final ones once the thread ended. */
    synchronized InterfaceCounters counters() {
        return finished ? last : takeCounters();
    }

    private InterfaceCounters takeCounters() {
        long recv = -1, drop = -1, ifdrop = -1;
        try {
            PcapStat st = handle.getStats();
            recv = st.getNumPacketsReceived();
            drop = st.getNumPacketsDropped();
            ifdrop = st.getNumPacketsDroppedByIf();
        } catch (PcapNativeException | NotOpenException e) {
            if (last != null) return last;
        }
        long rx = rxPackets(name);
        long ifRecv = rx >= 0 && rxPacketsAtStart >= 0 ? rx - rxPacketsAtStart : -1;
        return new InterfaceCounters(recv, drop, ifdrop, delivered, ourDropped, ifRecv, startNanos, LiveCapture.nowNanos());
    }

    /** sysfs rx_packets of the interface (the network namespace the process lives in), or -1. */
    private static long rxPackets(String name) {
        try {
            return Long.parseLong(Files.readString(Path.of("/sys/class/net", name, "statistics", "rx_packets")).trim());
        } catch (IOException | NumberFormatException | java.nio.file.InvalidPathException e) {
            return -1;
        }
    }
}
