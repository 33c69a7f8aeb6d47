#!/usr/bin/env bash
# Start-up and jsonl CPU of this checkout against another one (e.g. a clone of main), interleaved, through each
# checkout's own ./metaroce launcher (its jar and AOT caches, METAROCE_NO_BUILD=1): user + sys CPU seconds, which
# move much less with the machine's load than wall time. Both checkouts must be built (the launcher builds on first
# use otherwise; run each once before).
# Usage: bench/startup-cpu.sh OTHER_CHECKOUT [rounds]      (default 5 rounds, the order alternates every round)
#   rows: --version; analyze, dissect -q, dissect -T jsonl and validate of the 79-frame sample; dissect -T jsonl of
#   a 100 k-frame capture (generated once in $BENCH_DIR, default /tmp/metaroce-bench); tshark -T ek on it once.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
other="$(cd "$1" && pwd)"
rounds="${2:-5}"
dir="${BENCH_DIR:-/tmp/metaroce-bench}"
mkdir -p "$dir"
sample="$here/samples/captures/rocev2-clean.pcapng"
c100k="$dir/speed-100000.pcap"
if [ ! -f "$c100k" ]; then
  nice -n 10 "$here/metaroce" simulate --scenario rocev2-clean --frames 100000 --format pcap --out "$c100k.part" --no-progress >/dev/null
  mv "$c100k.part" "$c100k"
fi
tmp="$(mktemp)"
trap 'rm -f "$tmp" "$tmp".*' EXIT
rows=("--version" "analyze -r $sample" "dissect -r $sample -q" "dissect -r $sample -T jsonl" "validate $sample"
      "dissect -r $c100k -T jsonl")
# Train every AOT cache outside the timings.
for co in "$here" "$other"; do
  for r in "${rows[@]:0:5}"; do METAROCE_NO_BUILD=1 "$co/metaroce" $r >/dev/null 2>&1 || true; done
done
cpu() {  # checkout args... -> user+sys seconds
  local co="$1"; shift
  METAROCE_NO_BUILD=1 /usr/bin/time -o "$tmp" -f "%U %S" "$co/metaroce" "$@" >/dev/null 2>&1 || true
  awk '{printf "%.2f\n", $1 + $2}' "$tmp"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); this: $here ($(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo "?")), other: $other ($(git -C "$other" rev-parse --short HEAD 2>/dev/null || echo '?'))"
for i in "${!rows[@]}"; do : >"$tmp.this.$i"; : >"$tmp.other.$i"; done
for n in $(seq "$rounds"); do
  for i in "${!rows[@]}"; do
    if [ $((n % 2)) = 1 ]; then order="this other"; else order="other this"; fi
    for which in $order; do
      co="$here"; [ "$which" = other ] && co="$other"
      cpu "$co" ${rows[$i]} >>"$tmp.$which.$i"
    done
  done
done
stats() { sort -n "$1" | awk '{a[NR]=$1; s+=$1} END {printf "mean %.2f  median %.2f  min %.2f  max %.2f", s/NR, a[int((NR+1)/2)], a[1], a[NR]}'; }
printf '%-40s %-46s %s\n' "command (user + sys CPU s, $rounds runs)" "this" "other"
for i in "${!rows[@]}"; do
  printf '%-40s %-46s %s\n' "$(echo "${rows[$i]}" | sed "s|$here/samples/captures/||; s|$dir/||")" "$(stats "$tmp.this.$i")" "$(stats "$tmp.other.$i")"
done
if command -v tshark >/dev/null; then
  /usr/bin/time -o "$tmp" -f "%e %U %S" tshark -r "$c100k" -T ek >/dev/null 2>&1
  read -r w u s <"$tmp"
  echo "tshark -T ek, 100 k (once): $w s wall, $(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}') s user + sys"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
