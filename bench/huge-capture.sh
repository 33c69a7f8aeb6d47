#!/usr/bin/env bash
# Issue 14.3: one classic pcap of about SIZE_GB gigabytes (past 4 GiB: record offsets beyond 2^32), read by
# `dissect -q`, `analyze -T json` and `validate` with the heap capped at 1 GB. Prints wall time, CPU, max RSS, the
# exit code and the frame count each command reports against the count the simulator wrote, then deletes the file.
# Not a CI test: it needs SIZE_GB of free disk and minutes. Usage: bench/huge-capture.sh [SIZE_GB] [DIR]
# (default 10 GB in /tmp/metaroce-huge). Figures: docs/benchmarks.md.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
size_gb="${1:-10}"
dir="${2:-/tmp/metaroce-huge}"
mkdir -p "$dir"
cap="$dir/huge.pcap"
trap 'rm -f "$cap" "$dir"/run.out "$dir"/run.err' EXIT
avail_gb=$(( $(df -Pk "$dir" | awk 'NR==2 {print $4}') / 1024 / 1024 ))
if [ "$avail_gb" -lt $(( size_gb + 2 )) ]; then
  echo "huge-capture: $dir has $avail_gb GB free, $size_gb GB + 2 needed" >&2; exit 2
fi
mr=(env METAROCE_NO_BUILD=1 "$here/metaroce")   # an array, not a function: /usr/bin/time runs it
# rocev2-clean frames average 733 bytes on disk (1 M frames: 733 MB).
frames=$(( size_gb * 1000 * 1000 * 1000 / 733 ))
echo "== writing $frames frames to $cap; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
# No --truth: its per-frame part would be over a gigabyte.
/usr/bin/time -f "   simulate: %e s wall" "${mr[@]}" simulate --scenario rocev2-clean --frames "$frames" --out "$cap" --no-progress
bytes=$(stat -c %s "$cap")
echo "   $bytes bytes ($(( bytes / 1024 / 1024 / 1024 )) GiB)"
run() {  # label, command...
  local label="$1"; shift
  echo "== $label (load $(cut -d' ' -f1-3 /proc/loadavg))"
  set +e
  METAROCE_JAVA_OPTS=-Xmx1g /usr/bin/time -f "   wall %e s, user %U s, sys %S s, max RSS %M KB" "$@" >"$dir/run.out" 2>"$dir/run.err"
  local rc=$?
  set -e
  tail -1 "$dir/run.err"
  grep -v '^   wall' "$dir/run.err" | head -3 | sed 's/^/   stderr: /' || true
  echo "   exit $rc"
}
run "dissect -q, -Xmx1g" "${mr[@]}" dissect -r "$cap" -q
grep -m1 -i "frames" "$dir/run.out" | sed 's/^/   /' || true
run "analyze -T json, -Xmx1g" "${mr[@]}" analyze -r "$cap" -T json --compact
python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['capture']; print('   analyze: frames', c.get('frames'), 'roce_frames', c.get('roce_frames'), 'problems', c.get('capture_problems'))" "$dir/run.out" || true
run "validate, -Xmx1g" "${mr[@]}" validate "$cap"
head -3 "$dir/run.out" | sed 's/^/   /'
