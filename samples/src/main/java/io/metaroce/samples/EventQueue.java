package io.metaroce.samples;

import java.util.Arrays;

/**
 * A binary min-heap of (time, sequence) keyed actions in parallel primitive arrays: the simulator's hot
 * path, several million events per million frames, without per-event comparator calls or boxing.
 * Ties on time are broken by the sequence number, so events at the same instant run in scheduling order.
 */
final class EventQueue {
    private long[] time = new long[1024], seq = new long[1024];
    private Runnable[] action = new Runnable[1024];
    private int size;
    private long polledTime;

    int size() { return size; }

    void add(long t, long s, Runnable a) {
        if (size == time.length) {
            int c = size * 2;
            time = Arrays.copyOf(time, c);
            seq = Arrays.copyOf(seq, c);
            action = Arrays.copyOf(action, c);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (time[parent] < t || (time[parent] == t && seq[parent] < s)) break;
            time[i] = time[parent];
            seq[i] = seq[parent];
            action[i] = action[parent];
            i = parent;
        }
        time[i] = t;
        seq[i] = s;
        action[i] = a;
    }

    /** Time of the next event (only valid when size() > 0). */
    long peekTime() { return time[0]; }

    /** Removes the next event and returns its action; its time is {@link #polledTime()}. */
    Runnable poll() {
        Runnable top = action[0];
        polledTime = time[0];
        int n = --size;
        long t = time[n], s = seq[n];
        Runnable a = action[n];
        action[n] = null;
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) break;
            int r = c + 1;
            if (r < n && (time[r] < time[c] || (time[r] == time[c] && seq[r] < seq[c]))) c = r;
            if (t < time[c] || (t == time[c] && s < seq[c])) break;
            time[i] = time[c];
            seq[i] = seq[c];
            action[i] = action[c];
            i = c;
        }
        if (n > 0) {
            time[i] = t;
            seq[i] = s;
            action[i] = a;
        }
        return top;
    }

    long polledTime() { return polledTime; }
}
