#!/usr/bin/env bash
# Live-capture benchmark (issue 13), not a test: 1 KiB RoCEv2 frames sent with tcpreplay over a veth pair
# between two network namespaces, captured by `metaroce capture -w` or `metaroce analyze -i` in the other.
# Prints what the sender sent, what metaroce counted (received, captured, dropped by kernel / interface /
# metaroce) and the capturer's CPU time. Needs root and tcpreplay (apt-get install tcpreplay).
#
#   bench/live/live-bench.sh capture 100000 60      # mode, packets/s (0 = as fast as tcpreplay can), seconds
#   bench/live/live-bench.sh analyze 100000 60
#   bench/live/live-bench.sh capture 0 20 -B 2     # above capacity with a 2 MiB ring: drops, counted exactly
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mode="${1:-capture}" pps="${2:-100000}" secs="${3:-60}"
shift $(( $# < 3 ? $# : 3 )); extra=("$@")
work="$(mktemp -d /dev/shm/mrbench.XXXXXX)"
tag="$$"; nsA="mrbA$tag"; nsB="mrbB$tag"; ifA="mrba$tag"; ifB="mrbb$tag"
cleanup() { ip netns del "$nsA" 2>/dev/null || true; ip netns del "$nsB" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
. "$here/tools/find-java.sh"
jar="$here/cli/target/metaroce.jar"
[ -f "$jar" ] || { echo "build first: ./metaroce --version" >&2; exit 2; }

# 1 KiB frames: the data packets of a clean RoCEv2 simulation (ACKs filtered out).
"$JAVA" -jar "$jar" simulate --scenario rocev2-clean --frames 120000 --out "$work/all.pcap" >/dev/null
tshark -r "$work/all.pcap" -Y 'frame.len > 1000' -w "$work/frames.pcap" -F pcap 2>/dev/null
rm -f "$work/all.pcap"
per=$(capinfos -c -M "$work/frames.pcap" | awk '/Number of packets/ {print $NF}')
rate=$([ "$pps" -gt 0 ] && echo "$pps" || echo 100000)
loops=$(( (rate * secs + per - 1) / per ))
echo "frames: $per per file x $loops loops = $((per * loops)) at ${pps:-max} pps"

ip netns add "$nsA"; ip netns add "$nsB"
ip link add "$ifA" netns "$nsA" type veth peer name "$ifB" netns "$nsB"
ip -n "$nsA" link set "$ifA" up; ip -n "$nsB" link set "$ifB" up

jopts=(-XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -Xlog:disable -Xlog:all=off)
case "$mode" in
  capture) args=(capture -i "$ifB" -w "$work/live.pcapng" -b filesize:1000000 -b files:2 "${extra[@]}") ;;
  analyze) args=(analyze -i "$ifB" -T json --compact "${extra[@]}") ;;
  *) echo "mode: capture or analyze" >&2; exit 2 ;;
esac
ip netns exec "$nsB" /usr/bin/time -f 'capturer cpu: user %U s, system %S s, wall %e s, max rss %M KiB' \
  "$JAVA" "${jopts[@]}" -jar "$jar" "${args[@]}" >"$work/out" 2>"$work/err" &
cap=$!
for _ in $(seq 100); do grep -q '^Capturing on' "$work/err" 2>/dev/null && break; sleep 0.1; done
if [ "$pps" -gt 0 ]; then speed=(--pps="$pps"); else speed=(--topspeed); fi
ip netns exec "$nsA" tcpreplay -q -i "$ifA" "${speed[@]}" --loop="$loops" "$work/frames.pcap" 2>&1 | grep -E 'Actual|Rated|Statistics|Successful|Failed' || true
sleep 1
kill -TERM "$(pgrep -P "$cap" java || echo "$cap")" 2>/dev/null || true
wait "$cap" || true
grep -v '^Capturing on' "$work/err"
[ "$mode" = analyze ] && echo "analysis report: $(grep -o '"capture":{"file":"[^"]*","format":"[^"]*","frames":[0-9]*' "$work/out" | sed 's/.*"frames"/frames/'), $(grep -o '"capture_drops":{[^}]*}' "$work/out" | head -1)" || true
[ "$mode" = capture ] && ls -l "$work"/live*.pcapng | awk '{s+=$5} END {print "files:", NR, "bytes:", s}'
