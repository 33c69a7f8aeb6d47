/*
 * rawsend: the live benchmark's sender. Replays the frames of a classic pcap on an interface at a fixed rate,
 * with AF_PACKET sendmmsg in batches of 32 (one system call per batch, not per frame as tcpreplay makes), so
 * that the sender holds 100 k frames/s on a loaded 2-core machine. A catch-up pacer: a batch goes out when its
 * first frame is due; a late wake-up is made up by the next batches, never by spinning.
 *
 *   rawsend IFACE FILE.pcap PPS COUNT     (PPS 0: as fast as possible; COUNT frames, looping over the file)
 *
 * Prints "Actual: N packets (B bytes) sent in S seconds" and "Rated: ... pps", as tcpreplay does.
 * Only sends on the benchmark's own veths (names starting with "mrb"): it floods whatever it is given.
 * Built by bench/live/live-bench.sh with `cc -O2`.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define BATCH 32
#define MAX_FRAMES 1000000

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: rawsend IFACE FILE.pcap PPS COUNT\n");
        return 2;
    }
    const char *ifname = argv[1];
    double pps = atof(argv[3]);
    long long count = atoll(argv[4]);
    if (strncmp(ifname, "mrb", 3) != 0) {
        fprintf(stderr, "rawsend: only on the benchmark's veths (mrb*), not %s\n", ifname);
        return 2;
    }
    if (count <= 0 || count > 1000000000LL || pps < 0) {
        fprintf(stderr, "rawsend: COUNT in 1..1e9, PPS >= 0\n");
        return 2;
    }

    FILE *f = fopen(argv[2], "rb");
    if (!f) { perror(argv[2]); return 2; }
    uint32_t gh[6];
    if (fread(gh, 4, 6, f) != 6 || (gh[0] != 0xa1b2c3d4 && gh[0] != 0xa1b23c4d)) {
        fprintf(stderr, "rawsend: %s is not a little-endian classic pcap\n", argv[2]);
        return 2;
    }
    unsigned char **frame = malloc(sizeof(*frame) * MAX_FRAMES);
    size_t *len = malloc(sizeof(*len) * MAX_FRAMES);
    int n = 0;
    uint32_t rh[4];
    while (n < MAX_FRAMES && fread(rh, 4, 4, f) == 4) {
        if (rh[2] > 65536) { fprintf(stderr, "rawsend: record %d too long\n", n); return 2; }
        frame[n] = malloc(rh[2]);
        if (fread(frame[n], 1, rh[2], f) != rh[2]) break;
        len[n++] = rh[2];
    }
    fclose(f);
    if (n == 0) { fprintf(stderr, "rawsend: no frames in %s\n", argv[2]); return 2; }

    /* Protocol 0: this socket only sends, it receives nothing. */
    int s = socket(AF_PACKET, SOCK_RAW, 0);
    if (s < 0) { perror("socket"); return 2; }
    struct sockaddr_ll to = {0};
    to.sll_family = AF_PACKET;
    to.sll_ifindex = if_nametoindex(ifname);
    if (to.sll_ifindex == 0) { perror(ifname); return 2; }
    if (bind(s, (struct sockaddr *) &to, sizeof to) < 0) { perror("bind"); return 2; }

    struct mmsghdr msgs[BATCH];
    struct iovec iov[BATCH];
    long long sent = 0, bytes = 0;
    int next = 0;
    double start = now_s();
    while (sent < count) {
        if (pps > 0) {
            double due = start + sent / pps;
            double wait = due - now_s();
            if (wait > 0) {
                struct timespec ts = {(time_t) wait, (long) ((wait - (time_t) wait) * 1e9)};
                nanosleep(&ts, NULL);
            }
        }
        int b = 0;
        for (; b < BATCH && sent + b < count; b++) {
            iov[b].iov_base = frame[next];
            iov[b].iov_len = len[next];
            memset(&msgs[b], 0, sizeof msgs[b]);
            msgs[b].msg_hdr.msg_iov = &iov[b];
            msgs[b].msg_hdr.msg_iovlen = 1;
            bytes += len[next];
            next = (next + 1) % n;
        }
        int done = 0;
        while (done < b) {
            int r = sendmmsg(s, msgs + done, b - done, 0);
            if (r < 0) {
                if (errno == EINTR || errno == ENOBUFS || errno == EAGAIN) continue;
                perror("sendmmsg");
                return 1;
            }
            done += r;
        }
        sent += b;
    }
    double secs = now_s() - start;
    printf("Actual: %lld packets (%lld bytes) sent in %.2f seconds\n", sent, bytes, secs);
    printf("Rated: %.1f Bps, %.2f Mbps, %.2f pps\n", bytes / secs, bytes * 8 / secs / 1e6, sent / secs);
    return 0;
}
