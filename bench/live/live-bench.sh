#!/usr/bin/env bash
# Live-capture benchmark (issue 13), not a test: 1 KiB RoCEv2 frames (1,082 B on the wire) sent over a veth
# pair between two network namespaces by bench/live/rawsend.c (AF_PACKET sendmmsg, 32 frames per system call,
# paced; SENDER=tcpreplay uses `tcpreplay -K --pps-multi=32` instead, which reached only ~60 k/s at load 20), captured by `metaroce capture -w` or `metaroce analyze -i` in the other. Sender and
# capturer run at nice -10 (NICE=...; other jobs load the machine), each in a session of its own (see prio below). Needs root, cc and tshark.
#
#   bench/live/live-bench.sh capture 100000 60      # mode, packets/s (0 = as fast as the sender can), seconds
#   bench/live/live-bench.sh analyze 100000 60
#   bench/live/live-bench.sh capture 0 20 -B 2     # above capacity with a 2 MiB ring: drops, counted exactly
#   bench/live/live-bench.sh analyze 0 20          # above the analysis's capacity: our drops, as capture loss
#
# Per trial it prints what the sender sent, what metaroce counted (received, captured, dropped by kernel /
# interface / metaroce), the check captured + dropped == received, the last status line metaroce showed, the
# drops as the analysis reports them (analyze -i) or as the written file's Interface Statistics Block says
# (capture -w, read back with `metaroce analyze -r`), the capturer's CPU per packet while traffic flowed
# (from /proc/PID/stat) and the machine's load: the CPU that processes other than the sender, the capturer
# and the kernel's softirq threads used in the same window ("foreign"). A trial that lost frames while foreign
# load was above FOREIGN_MAX cores (default 0.25) is retried, up to TRIES trials (default 3); every trial is
# printed. The last line, "result ...", is the last trial in one line.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mode="${1:-capture}" pps="${2:-100000}" secs="${3:-60}"
shift $(( $# < 3 ? $# : 3 )); extra=("$@")
tries="${TRIES:-3}" foreign_max="${FOREIGN_MAX:-0.25}"
work="$(mktemp -d /dev/shm/mrbench.XXXXXX)"
tag="$$"; nsA="mrbA$tag"; nsB="mrbB$tag"; ifA="mrba$tag"; ifB="mrbb$tag"
cleanup() { ip netns del "$nsA" 2>/dev/null || true; ip netns del "$nsB" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
. "$here/tools/find-java.sh"
jar="$here/cli/target/metaroce.jar"
[ -f "$jar" ] || { echo "build first: ./metaroce --version" >&2; exit 2; }
sender="${SENDER:-rawsend}"
if [ "$sender" = tcpreplay ]; then
  command -v tcpreplay >/dev/null || { echo "needs tcpreplay: apt-get install tcpreplay" >&2; exit 2; }
else
  cc -O2 -o "$work/rawsend" "$here/bench/live/rawsend.c" || { echo "needs a C compiler (apt-get install gcc), or SENDER=tcpreplay" >&2; exit 2; }
fi
hz=$(getconf CLK_TCK)
cp "$jar" "$work/metaroce.jar"; jar="$work/metaroce.jar"   # a build during the benchmark must not swap the jar under it

# 1 KiB frames: the data packets of a clean RoCEv2 simulation (ACKs filtered out).
"$JAVA" -jar "$jar" simulate --scenario rocev2-clean --frames 120000 --out "$work/all.pcap" >/dev/null
tshark -r "$work/all.pcap" -Y 'frame.len > 1000' -w "$work/frames.pcap" -F pcap 2>/dev/null
rm -f "$work/all.pcap"
per=$(capinfos -c -M "$work/frames.pcap" | awk '/Number of packets/ {print $NF}')
rate=$([ "$pps" -gt 0 ] && echo "$pps" || echo 100000)
loops=$(( (rate * secs + per - 1) / per ))
echo "frames: $per per file x $loops loops = $((per * loops)) at $([ "$pps" -gt 0 ] && echo "$pps" || echo max) pps; $(uptime)"

ip netns add "$nsA"; ip netns add "$nsB"
ip link add "$ifA" netns "$nsA" type veth peer name "$ifB" netns "$nsB"
ip -n "$nsA" link set "$ifA" up; ip -n "$nsB" link set "$ifB" up

# CPU (clock ticks) of the whole machine outside idle/iowait/irq/softirq, and of one process.
busy_ticks() { awk '/^cpu / {print $2 + $3 + $4}' /proc/stat; }
proc_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# The kernel threads that run softirq work when it is deferred: the veth receive path of our own traffic.
ksoftirq_ticks() { local s=0 p; for p in $(pgrep '^ksoftirqd/'); do s=$(( s + $(proc_ticks "$p") )); done; echo "$s"; }
# CPU ticks of each thread of a process, by thread name ("name ticks" lines, threads of one name summed).
thread_ticks() { for t in /proc/$1/task/*; do printf '%s %s\n' "$(tr ' ' _ <"$t/comm")" "$(awk '{print $14 + $15}' "$t/stat")"; done 2>/dev/null | awk '{s[$1] += $2} END {for (n in s) print n, s[n]}' | sort; }
secs_of() { awk -v t="$1" -v hz="$hz" 'BEGIN {printf "%.2f", t / hz}'; }

# nice alone does nothing against other sessions when the kernel groups tasks per session (autogroup, on here):
# each session gets an equal share whatever its tasks' nice. So sender and capturer each get a session of their
# own (setsid) whose autogroup is given the same nice value; without autogroup the nice -n applies as usual.
nice_level="${NICE:--10}"
prio=(setsid -w sh -c 'echo "$0" >/proc/self/autogroup 2>/dev/null; exec nice -n "$0" "$@"' "$nice_level")

jopts=(-XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -Xlog:disable -Xlog:all=off ${BENCH_JAVA_OPTS:-})
trial() {
  rm -f "$work"/live*.pcapng "$work/out" "$work/err" "$work/send"
  case "$mode" in
    capture) args=(capture -i "$ifB" -w "$work/live.pcapng" -b filesize:1000000 -b files:2 "${extra[@]}") ;;
    analyze) args=(analyze -i "$ifB" -T json --compact "${extra[@]}") ;;
    *) echo "mode: capture or analyze" >&2; exit 2 ;;
  esac
  # METAROCE_PROGRESS: the status line metaroce draws on a terminal, here into the stderr file.
  METAROCE_PROGRESS=1 ip netns exec "$nsB" "${prio[@]}" /usr/bin/time -f 'capturer cpu: user %U s, system %S s, wall %e s, max rss %M KiB' \
    "$JAVA" "${jopts[@]}" -jar "$jar" "${args[@]}" >"$work/out" 2>"$work/err" &
  local timer=$! jpid=""
  for _ in $(seq 300); do grep -q 'Capturing on' "$work/err" 2>/dev/null && break; sleep 0.1; done
  for p in $(pgrep -f -- "-i $ifB" || true); do [ "$(cat "/proc/$p/comm" 2>/dev/null)" = java ] && jpid=$p; done
  # --pps-multi: 32 frames per wake-up, so that late wake-ups on a loaded machine do not cost rate.
  if [ "$pps" -gt 0 ]; then speed=(--pps="$pps" --pps-multi=32); else speed=(--topspeed); fi
  local load0 b0 c0 k0 b1 c1 k1
  load0=$(cut -d' ' -f1 /proc/loadavg); b0=$(busy_ticks); c0=$(proc_ticks "$jpid"); k0=$(ksoftirq_ticks)
  thread_ticks "$jpid" >"$work/threads0"
  if [ "$sender" = tcpreplay ]; then
    send=(tcpreplay -K -q -i "$ifA" "${speed[@]}" --loop="$loops" "$work/frames.pcap")
  else
    send=("$work/rawsend" "$ifA" "$work/frames.pcap" "$pps" "$((per * loops))")
  fi
  ip netns exec "$nsA" "${prio[@]}" /usr/bin/time -f 'sender %U %S' "${send[@]}" >"$work/send" 2>&1 || true
  b1=$(busy_ticks); c1=$(proc_ticks "$jpid"); k1=$(ksoftirq_ticks)
  thread_ticks "$jpid" >"$work/threads1"
  sleep 1
  kill -TERM "${jpid:-$timer}" 2>/dev/null || true
  wait "$timer" || true
  local sent elapsed sender_t cap_t ksoft_t foreign_t
  sent=$(awk '/Actual:/ {print $2}' "$work/send"); elapsed=$(awk '/Actual:/ {print $(NF-1)}' "$work/send")
  sender_t=$(awk '/^sender/ {printf "%d", ($2 + $3) * '"$hz"'}' "$work/send")
  cap_t=$(( c1 - c0 )); ksoft_t=$(( k1 - k0 )); foreign_t=$(( b1 - b0 - cap_t - sender_t - ksoft_t ))
  (( foreign_t < 0 )) && foreign_t=0
  grep -E 'Actual|Rated' "$work/send" | sed 's/^ */sender: /'
  tr '\r' '\n' <"$work/err" | grep -v -e '^Capturing on' -e '^ *$' | grep -v '^captured ' || true
  echo "last status line: $(tr '\r' '\n' <"$work/err" | grep '^captured ' | tail -1 | sed 's/ *$//')"
  local line received captured kdrop idrop odrop
  line=$(grep -E "^$ifB: received" "$work/err" | tail -1)
  read -r received captured kdrop idrop odrop < <(echo "$line" | tr -c '0-9\n' ' ' | awk '{print $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF}')
  if [ "$mode" = analyze ]; then
    echo "analysis report: $(grep -o '"frames":[0-9]*' "$work/out" | head -1), $(grep -o '"capture_drops":{[^}]*}' "$work/out" | head -1)"
  else
    ls -l "$work"/live*.pcapng | awk '{s+=$5} END {print "files:", NR, "bytes:", s}'
    last=$(ls -t "$work"/live*.pcapng | head -1)
    echo "ISB of the last file (metaroce analyze -r): $("$JAVA" -jar "$jar" analyze -r "$last" -T json --compact | grep -o '"capture_drops":{[^}]*}' | head -1)"
  fi
  # Where the capturer's CPU went while traffic flowed: per thread (capture, decode = main, analysis, GC...).
  echo "capturer threads, CPU s while sending: $(join -a2 -e0 -o 0,1.2,2.2 "$work/threads0" "$work/threads1" \
      | awk -v hz="$hz" '$3 - $2 > 0 {printf "%s %.2f, ", $1, ($3 - $2) / hz}' | sed 's/, $//')"
  local exact=no; [ -n "$received" ] && (( captured + kdrop + idrop == received )) && exact=yes
  local cpp; cpp=$(awk -v t="$cap_t" -v hz="$hz" -v n="${received:-0}" 'BEGIN {printf "%.2f", (n > 0) ? t / hz / n * 1e6 : 0}')
  local fcores; fcores=$(awk -v t="$foreign_t" -v hz="$hz" -v e="${elapsed:-1}" 'BEGIN {printf "%.2f", t / hz / e}')
  echo "load: 1-min average $load0 at start, $(cut -d' ' -f1 /proc/loadavg) at end; in the ${elapsed:-?} s of sending:" \
       "capturer $(secs_of "$cap_t") s CPU ($cpp us/packet), sender $(secs_of "$sender_t") s, ksoftirqd $(secs_of "$ksoft_t") s," \
       "foreign processes $(secs_of "$foreign_t") s ($fcores cores)"
  result="result mode=$mode pps=$pps secs=$secs sent=$sent received=$received captured=$captured kernel_drops=$kdrop if_drops=$idrop our_drops=$odrop exact=$exact rate=$(awk -v n="${sent:-0}" -v e="${elapsed:-1}" 'BEGIN {printf "%.1fk", n / e / 1000}') capturer_us_per_pkt=$cpp foreign_cores=$fcores"
  lossy=$(( kdrop + idrop + odrop > 0 || sent != received ))
  loaded=$(awk -v f="$fcores" -v m="$foreign_max" 'BEGIN {print ((f > m) ? 1 : 0)}')
}

for t in $(seq "$tries"); do
  echo "--- trial $t ($sender): metaroce $mode at $([ "$pps" -gt 0 ] && echo "$pps" || echo max) pps for ${secs} s"
  trial
  echo "$result"
  # Above capacity, loss is the point: one trial. Below it, a lossy trial under foreign load is retried.
  [ "$pps" -eq 0 ] && break
  (( lossy == 0 || loaded == 0 )) && break
  echo "lost frames while foreign processes used more than $foreign_max cores: retrying"
done
