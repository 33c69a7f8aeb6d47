#!/usr/bin/env bash
# Issue 14.1's speed goals, each measured against tshark (or capinfos, the physical floor) in the same run, with the
# load average before each measurement. Usage: bench/speed-goals.sh [runs] (default 3; the median is printed).
#   - analyze on the 1 M-frame capture against `tshark -q` (goal: ratio tshark/analyze >= 1.0), and `capinfos -c`
#   - validate against analyze (goal: <= 1.2x)
#   - dissect -T jsonl against tshark -T ek on 100 k frames (goal: >= 20x)
#   - metaroce --version, 10 runs (goal: <= 0.15 s)
#   - with TEN_M=1: analyze on 10 M frames with -Xmx1g (goal: <= 2.5 s)
# Captures are `metaroce simulate --scenario rocev2-clean` in $BENCH_DIR (default /tmp/metaroce-bench), deleted at the
# end unless KEEP=1. Figures go to docs/benchmarks.md by hand, with the load printed here.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
dir="${BENCH_DIR:-/tmp/metaroce-bench}"
mkdir -p "$dir"
[ "${KEEP:-0}" = 1 ] || trap 'rm -f "$dir"/speed-*.pcap' EXIT
mr=(env METAROCE_NO_BUILD=1 "$here/metaroce")   # an array, not a function: /usr/bin/time runs it
"$here/metaroce" --version >/dev/null   # builds the jar and its AOT cache when needed, outside the timings
load() { cut -d' ' -f1-3 /proc/loadavg; }
cap() {  # frames -> path
  local f="$dir/speed-$1.pcap"
  [ -f "$f" ] || "${mr[@]}" simulate --scenario rocev2-clean --frames "$1" --out "$f" --no-progress >/dev/null
  echo "$f"
}
median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
time_of() {  # command... -> median wall seconds of $runs runs (output discarded)
  local i t=()
  for i in $(seq "$runs"); do t+=("$( { /usr/bin/time -f "%e" "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -1)"); done
  printf '%s\n' "${t[@]}" | median
}
ratio() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{a/b:.2f}' if b else 'inf')" "$1" "$2"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {print int($2/1024/1024)}' /proc/meminfo) GiB; $(tshark --version | head -1)"
c1m="$(cap 1000000)"
echo "1 M-frame capture: $(stat -c %s "$c1m") bytes"
echo "-- load $(load)"
floor=$(time_of capinfos -c "$c1m");              echo "capinfos -c             $floor s  (the floor: walking the file)"
tq=$(time_of tshark -r "$c1m" -q);                echo "tshark -q               $tq s"
dq=$(time_of "${mr[@]}" dissect -r "$c1m" -q);            echo "metaroce dissect -q     $dq s   ($(ratio "$dq" "$floor")x the floor)"
an=$(time_of "${mr[@]}" analyze -r "$c1m");               echo "metaroce analyze        $an s   (tshark -q / analyze = $(ratio "$tq" "$an"), goal >= 1.0; $(ratio "$an" "$floor")x the floor)"
aj=$(time_of "${mr[@]}" analyze -r "$c1m" -T json);       echo "metaroce analyze -T json $aj s"
va=$(time_of "${mr[@]}" validate "$c1m");                 echo "metaroce validate       $va s   (validate / analyze = $(ratio "$va" "$an"), goal <= 1.2)"
echo "-- load $(load)"
c100k="$(cap 100000)"
ek=$(runs=1 time_of tshark -r "$c100k" -T ek);    echo "tshark -T ek, 100 k     $ek s (one run)"
jl=$(time_of "${mr[@]}" dissect -r "$c100k" -T jsonl);    echo "metaroce dissect -T jsonl, 100 k $jl s   (tshark / metaroce = $(ratio "$ek" "$jl"), goal >= 20)"
echo "-- load $(load)"
v=()
for i in $(seq 10); do v+=("$( { /usr/bin/time -f "%e %U %S" "$here/metaroce" --version >/dev/null; } 2>&1 | tail -1)"); done
echo "metaroce --version x10 (wall user sys): ${v[*]}"
echo "   median wall $(printf '%s\n' "${v[@]}" | cut -d' ' -f1 | sort -n | sed -n 5p) s, goal <= 0.15"
if [ "${TEN_M:-0}" = 1 ]; then
  c10m="$(cap 10000000)"
  echo "-- load $(load)"
  t10=$(METAROCE_JAVA_OPTS=-Xmx1g time_of "${mr[@]}" analyze -r "$c10m"); echo "metaroce analyze 10 M, -Xmx1g  $t10 s, goal <= 2.5"
fi
echo "-- load $(load)"
