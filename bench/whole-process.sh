#!/usr/bin/env bash
# Whole-process timings of metaroce against tshark on the same capture (docs/benchmarks.md).
# Usage: bench/whole-process.sh [frames] [runs]   (needs tshark; builds the project if needed)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/tools/find-java.sh"
frames="${1:-1000000}"
runs="${2:-3}"
dir="${BENCH_DIR:-/tmp/metaroce-bench}"
mkdir -p "$dir"
cap="$dir/roce-$frames.pcap"
"$here/metaroce" --version >/dev/null
[ -f "$here/bench/target/benchmarks.jar" ] || (cd "$here" && ./mvnw -B -q -o -pl bench -am package -DskipTests)
[ -f "$cap" ] || "$JAVA" -cp "$here/bench/target/benchmarks.jar" io.metaroce.bench.BenchCapture "$cap" "$frames" 8
echo "capture: $cap ($(stat -c %s "$cap") bytes, $frames frames); $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
measure() {  # name, command...: median wall time and max RSS of $runs runs
  local name="$1"; shift
  local times=() rss=0 t
  for _ in $(seq "$runs"); do
    t="$( { /usr/bin/time -f "%e %M" "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -1)"
    times+=("${t% *}"); [ "${t#* }" -gt "$rss" ] && rss="${t#* }"
  done
  printf '%-28s median %6.2f s   (runs: %s)   max RSS %d MB\n' "$name" \
    "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" "${times[*]}" "$((rss / 1024))"
}
measure "metaroce dissect -q" "$here/metaroce" dissect -r "$cap" -q
measure "metaroce dissect -T jsonl" "$here/metaroce" dissect -r "$cap" -T jsonl
measure "tshark -q" tshark -r "$cap" -q
if [ "${TSHARK_EK:-0}" = 1 ]; then measure "tshark -T ek" tshark -r "$cap" -T ek; fi
