package io.metaroce.capture.live;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A live capture on one or more interfaces: one capture thread per interface feeding one bounded queue that a
 * single consumer (file writer, dissector, analysis) drains with {@link #take()}. The capture threads never
 * wait for the consumer; frames that find the queue full are dropped and counted ({@link #ourDropped()}).
 *
 * <p>Life cycle: {@link #open} (activates every interface and sets the filter, so that every start-up
 * failure is reported before anything runs), {@link #start}, {@link #take} until it returns null, then
 * {@link #counters} for the final figures. {@link #stop} may be called from any thread (a signal handler, a
 * stop condition); it wakes the capture threads with {@code breakLoop}, which is what ends a read on an idle
 * link. After a stop each thread drains its kernel ring, so the counters add up.
 */
public final class LiveCapture implements AutoCloseable {
    private final LiveSettings settings;
    private final BlockingQueue<LivePacket> queue;
    private final List<InterfaceCapture> interfaces = new ArrayList<>();
    private final AtomicLong admitted = new AtomicLong();
    private final AtomicLong ourDropped = new AtomicLong();
    private volatile boolean stopping;
    private volatile String stopReason;
    private volatile String error;
    private volatile int running;
    private boolean started;
    private final Object lock = new Object();
    /** Frames moved out of the queue at once by {@link #take()}. */
    static final int TAKE_BATCH = 256;
    // The consumer's frames taken from the queue and not yet handed out (consumer thread only).
    private final ArrayList<LivePacket> taken = new ArrayList<>(TAKE_BATCH);
    private int takenPos;

    private LiveCapture(LiveSettings settings) {
        this.settings = settings;
        this.queue = new ArrayBlockingQueue<>(settings.queuePackets());
    }

    /** Opens every interface of the settings; on a failure closes those already open and throws. */
    public static LiveCapture open(LiveSettings settings) throws LiveCaptureException {
        LiveCapture c = new LiveCapture(settings);
        try {
            for (int i = 0; i < settings.interfaces().size(); i++) {
                c.interfaces.add(InterfaceCapture.open(i, settings.interfaces().get(i), settings, c.queue, c));
            }
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            c.close();
            throw noLibpcap(e);
        } catch (LiveCaptureException e) {
            c.close();
            throw e;
        }
        return c;
    }

    static LiveCaptureException noLibpcap(Throwable e) {
        return new LiveCaptureException(LiveCaptureException.Kind.NO_LIBPCAP,
                "libpcap is not available (" + e.getMessage() + "); on Debian/Ubuntu: apt-get install libpcap0.8");
    }

    /** Starts the capture threads. */
    public void start() {
        synchronized (lock) {
            running = interfaces.size();
            started = true;
        }
        for (InterfaceCapture ic : interfaces) ic.start();
    }

    /**
     * The next frame, waiting for one; null once the capture has stopped and every frame taken (or when
     * interrupted). Consumer thread only: frames are taken from the shared queue up to {@link #TAKE_BATCH} at a
     * time, one lock for all of them, so that the consumer does not contend with the capture threads per frame.
     */
    public LivePacket take() {
        if (takenPos < taken.size()) return nextTaken();
        try {
            while (true) {
                if (queue.drainTo(taken, TAKE_BATCH) > 0) return nextTaken();
                LivePacket p = queue.poll(100, TimeUnit.MILLISECONDS);
                if (p != null) return p;
                if (running == 0 && queue.isEmpty()) return null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop("interrupted");
            return null;
        }
    }

    private LivePacket nextTaken() {
        LivePacket p = taken.get(takenPos++);
        if (takenPos == taken.size()) {
            taken.clear(); // the frames are the consumer's now; the list keeps no reference to them
            takenPos = 0;
        }
        return p;
    }

    /** The next frame if one is ready now, else null (consumer thread only). */
    public LivePacket poll() {
        return takenPos < taken.size() ? nextTaken() : queue.poll();
    }

    /** True when no frame is waiting (consumer thread only). */
    public boolean queueEmpty() {
        return takenPos >= taken.size() && queue.isEmpty();
    }

    /** Frames waiting now (consumer thread only). */
    public int queued() {
        return taken.size() - takenPos + queue.size();
    }

    /** Ends the capture (idempotent; the first reason is kept). Frames already queued can still be taken. */
    public void stop(String reason) {
        synchronized (lock) {
            if (stopReason == null) stopReason = reason;
            stopping = true;
        }
        for (InterfaceCapture ic : interfaces) ic.breakLoop();
    }

    /** Why the capture stopped ("interrupted", "packet count", a stop condition...), or null while it runs. */
    public String stopReason() {
        return stopReason;
    }

    /** The first error that ended an interface (for example it went away), or null. */
    public String error() {
        return error;
    }

    /** True once every capture thread has ended. */
    public boolean ended() {
        return running == 0;
    }

    boolean stopping() {
        return stopping;
    }

    /** Counts a frame against -c; false once the limit is reached (which stops the capture). */
    boolean admit() {
        // No stop check here: after a stop the ring is drained and those frames are still delivered.
        long limit = settings.packetLimit();
        if (limit == 0) return true;
        long n = admitted.incrementAndGet();
        if (n >= limit) stop("packet count");
        return n <= limit;
    }

    void ourDrop() {
        ourDropped.incrementAndGet();
    }

    void interfaceEnded(InterfaceCapture ic, String failure) {
        synchronized (lock) {
            if (failure != null && error == null) error = failure;
            running--;
        }
        // One interface failing (it went down, it vanished) ends the whole capture, as dumpcap does.
        if (failure != null) stop("error");
    }

    public LiveSettings settings() {
        return settings;
    }

    /** Interfaces in settings order. */
    public int interfaceCount() {
        return interfaces.size();
    }

    public String interfaceName(int i) {
        return interfaces.get(i).name;
    }

    /** libpcap's description of interface i, or null. */
    public String interfaceDescription(int i) {
        return interfaces.get(i).description;
    }

    /** LINKTYPE_* of interface i (libpcap's DLT). */
    public int linkType(int i) {
        return interfaces.get(i).linkType;
    }

    public int snapLength(int i) {
        return interfaces.get(i).snapLength;
    }

    /** Counters of interface i now (final ones after the capture ended). */
    public InterfaceCounters counters(int i) {
        return interfaces.get(i).counters();
    }

    /** Sum over interfaces, for the status line and the summary. */
    public InterfaceCounters totals() {
        long recv = 0, drop = 0, ifdrop = 0, del = 0, ours = 0, ifrecv = 0, start = Long.MAX_VALUE, taken = 0;
        for (InterfaceCapture ic : interfaces) {
            InterfaceCounters c = ic.counters();
            recv += Math.max(0, c.received());
            drop += Math.max(0, c.osDropped());
            ifdrop += Math.max(0, c.ifDropped());
            del += c.delivered();
            ours += c.ourDropped();
            ifrecv = ifrecv < 0 || c.ifReceived() < 0 ? -1 : ifrecv + c.ifReceived();
            start = Math.min(start, c.startNanos());
            taken = Math.max(taken, c.takenNanos());
        }
        return new InterfaceCounters(recv, drop, ifdrop, del, ours, ifrecv, start, taken);
    }

    /** Frames dropped by us (queue full) across interfaces. */
    public long ourDropped() {
        return ourDropped.get();
    }

    /** Stops, waits briefly for the capture threads, and closes what was never started. Idempotent. */
    @Override
    public void close() {
        stop("closed");
        synchronized (lock) {
            if (!started) {
                for (InterfaceCapture ic : interfaces) ic.closeUnstarted();
                return;
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (InterfaceCapture ic : interfaces) {
            while (running > 0 && !ic.finished() && System.nanoTime() < deadline) {
                ic.breakLoop();
                Thread.onSpinWait();
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
