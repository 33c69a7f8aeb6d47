#!/usr/bin/env bash
# validate against analyze in CPU time (issue 14: validate at most 1.2x analyze), robust to a loaded machine where
# wall time proves nothing: the best of N runs of each command's user and user+sys CPU (/usr/bin/time), the load
# average before each, and the ratios. Usage: bench/validate-cpu.sh [runs] (default 3). The capture is the
# 1 M-frame `rocev2-clean` one in $BENCH_DIR (default /tmp/metaroce-bench), deleted at the end unless KEEP=1.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
dir="${BENCH_DIR:-/tmp/metaroce-bench}"
mkdir -p "$dir"
[ "${KEEP:-0}" = 1 ] || trap 'rm -f "$dir"/cpu-1m.pcap' EXIT
"$here/metaroce" --version >/dev/null   # builds the jar and its AOT cache when needed, outside the timings
mr=(env METAROCE_NO_BUILD=1 "$here/metaroce")
cap="$dir/cpu-1m.pcap"
[ -f "$cap" ] || "${mr[@]}" simulate --scenario rocev2-clean --frames 1000000 --out "$cap" --no-progress >/dev/null
best() {  # label command... -> prints "label: best user, best user+sys, wall of that run" and returns user+sys
  local label="$1"; shift
  local i line best="" bestline=""
  for i in $(seq "$runs"); do
    echo "   load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    line="$( { /usr/bin/time -f '%U %S %e %M' "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -1)"
    read -r u s e m <<<"$line"
    cpu=$(python3 -c "print(f'{$u+$s:.2f}')")
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $cpu < $best else 1)"; then best=$cpu; bestline="$u user $s sys (cpu $cpu s), $e s wall, $m KB"; fi
  done
  echo "$label: best of $runs: $bestline" >&2
  echo "$best"
}
a=$(best "metaroce analyze -r F " "${mr[@]}" analyze -r "$cap")
v=$(best "metaroce validate F   " "${mr[@]}" validate "$cap")
echo "validate / analyze (user+sys CPU) = $(python3 -c "print(f'{$v/$a:.2f}')")  (goal <= 1.2)"
