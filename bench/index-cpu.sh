#!/usr/bin/env bash
# index against analyze in CPU time (issue 12: indexing a capture costs at most 1.3x analyze), robust to a loaded
# machine where wall time proves nothing: user+sys CPU (/usr/bin/time) of `analyze -r CAP` and of `index CAP
# --index NEW` on the 1 M-frame `rocev2-clean` capture, best and median of N runs, the load average before each.
# Usage: bench/index-cpu.sh [runs] (default 3). The capture lives in $BENCH_DIR (default /tmp/metaroce-index-cpu),
# deleted at the end unless KEEP=1. BEFORE=DIR (a built clone of an earlier commit, e.g. main) measures that
# tree's launcher too, interleaved run by run with this one, so that a changing load hits both alike.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-3}"
dir="${BENCH_DIR:-/tmp/metaroce-index-cpu}"
mkdir -p "$dir"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"/cpu-1m.pcap "$dir"/new.idx' EXIT
"$here/metaroce" --version >/dev/null   # builds the jar when needed, outside the timings
cap="$dir/cpu-1m.pcap"
[ -f "$cap" ] || env METAROCE_NO_BUILD=1 "$here/metaroce" simulate --scenario rocev2-clean --frames 1000000 --out "$cap" --no-progress >/dev/null
trees=("$here"); names=("after ")
if [ -n "${BEFORE:-}" ]; then trees=("$BEFORE" "$here"); names=("before" "after "); fi
for t in "${trees[@]}"; do   # each tree's AOT caches (analyze's; index's or dissect's) are trained on first use: outside the timings
  env METAROCE_NO_BUILD=1 "$t/metaroce" analyze -r "$here/samples/captures/rocev2-clean.pcapng" >/dev/null
  rm -rf "$dir/new.idx"
  env METAROCE_NO_BUILD=1 "$t/metaroce" index "$here/samples/captures/rocev2-clean.pcapng" --index "$dir/new.idx" --no-progress >/dev/null
done
declare -A cpus
for i in $(seq "$runs"); do
  for k in "${!trees[@]}"; do
    for what in analyze index; do
      rm -rf "$dir/new.idx"
      if [ "$what" = analyze ]; then args=(analyze -r "$cap"); else args=(index "$cap" --index "$dir/new.idx" --no-progress); fi
      load="$(cut -d' ' -f1-3 /proc/loadavg)"
      line="$( { /usr/bin/time -o /dev/fd/3 -f '%U %S %e %M' env METAROCE_NO_BUILD=1 "${trees[$k]}/metaroce" "${args[@]}" >/dev/null 2>/dev/null; } 3>&1 | tail -1)"
      read -r u s e m <<<"$line"
      cpu=$(python3 -c "print(f'{$u+$s:.2f}')")
      echo "run $i ${names[$k]} $what: $u user + $s sys = $cpu s CPU, $e s wall, $m KB, load before $load"
      cpus["$k $what"]+="$cpu "
    done
  done
done
stat() { python3 -c "import statistics,sys; v=sorted(map(float,sys.argv[1:])); print(f'best {v[0]:.2f} median {statistics.median(v):.2f}')" $1; }
for k in "${!trees[@]}"; do
  a="${cpus["$k analyze"]}"; x="${cpus["$k index"]}"
  echo "${names[$k]}: analyze $(stat "$a"); index $(stat "$x"); index/analyze by median CPU $(python3 -c "import statistics,sys; a=statistics.median(map(float,sys.argv[1].split())); x=statistics.median(map(float,sys.argv[2].split())); print(f'{x/a:.2f}')" "$a" "$x") (goal <= 1.3)"
done
