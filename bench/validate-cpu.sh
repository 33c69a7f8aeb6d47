#!/usr/bin/env bash
# validate against analyze in CPU time (issue 14: validate at most 1.2x analyze), robust to a loaded machine where
# wall time proves nothing: the best of N runs of each command's user and user+sys CPU (/usr/bin/time), the load
# average before each, and the ratios. Usage: bench/validate-cpu.sh [runs] (default 3). The capture is the
# 1 M-frame `rocev2-clean` one in $BENCH_DIR (default /tmp/metaroce-bench), deleted at the end unless KEEP=1.
# BEFORE=DIR (a built clone of an earlier commit, e.g. main) measures that tree's launcher too, interleaved run by
# run with this one (before analyze, after analyze, before validate, after validate), so that a changing load
# hits both alike; it prints both ratios and after/before of each command.
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
if [ -n "${BEFORE:-}" ]; then
  env METAROCE_NO_BUILD=1 "$BEFORE/metaroce" --version >/dev/null   # its AOT cache, outside the timings
  labels=("before analyze " "after analyze  " "before validate" "after validate ")
  cmds=("$BEFORE/metaroce analyze -r" "$here/metaroce analyze -r" "$BEFORE/metaroce validate" "$here/metaroce validate")
else
  labels=("analyze        " "validate       ")
  cmds=("$here/metaroce analyze -r" "$here/metaroce validate")
fi
declare -A best bestline
for i in $(seq "$runs"); do
  for k in "${!cmds[@]}"; do
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    # shellcheck disable=SC2086
    # time writes to fd 3 (the command's own stderr goes to /dev/null, and with it time's, without -o)
    line="$( { /usr/bin/time -o /dev/fd/3 -f '%U %S %e %M' env METAROCE_NO_BUILD=1 ${cmds[$k]} "$cap" >/dev/null 2>/dev/null; } 3>&1 | tail -1)"
    read -r u s e m <<<"$line"
    cpu=$(python3 -c "print(f'{$u+$s:.2f}')")
    echo "   run $i ${labels[$k]}: $u user $s sys (cpu $cpu s), $e s wall, $m KB, load before $load" >&2
    if [ -z "${best[$k]:-}" ] || python3 -c "import sys; sys.exit(0 if $cpu < ${best[$k]} else 1)"; then
      best[$k]=$cpu; bestline[$k]="$u user $s sys (cpu $cpu s), $e s wall, $m KB"
    fi
  done
done
for k in "${!cmds[@]}"; do echo "${labels[$k]}: best of $runs: ${bestline[$k]}"; done
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
if [ -n "${BEFORE:-}" ]; then
  echo "before: validate / analyze (user+sys CPU) = $(ratio "${best[2]}" "${best[0]}")  (goal <= 1.2)"
  echo "after:  validate / analyze (user+sys CPU) = $(ratio "${best[3]}" "${best[1]}")  (goal <= 1.2)"
  echo "after / before: analyze $(ratio "${best[1]}" "${best[0]}"), validate $(ratio "${best[3]}" "${best[2]}")"
else
  echo "validate / analyze (user+sys CPU) = $(ratio "${best[1]}" "${best[0]}")  (goal <= 1.2)"
fi
