#!/usr/bin/env bash
# Per-thread CPU of `metaroce index` on one capture, before against after, for a busy machine where wall times prove
# nothing (bench/cpu-ab.sh does this for the commands that take -r CAPTURE; index does not). The jars of two built
# trees run alternately (the order flips every round), each as the launcher runs it (its JVM options, its `index` AOT
# cache with -XX:AOTMode=on), into a new index each time, under `perf record -e cpu-clock -F 999`. Each run prints
# user + sys (/usr/bin/time), the CPU seconds of the C2 and C1 compiler threads, `main` (start-up, Lucene's open), the
# analysis thread, the indexing thread (the pass's decoding, then the documents and the commit), the young GC, and
# the serial end: every thread's samples after the analysis thread's last one (the documents, Lucene and its JIT).
# Usage: bench/index-threads.sh BEFORE_TREE AFTER_TREE ROUNDS CAPTURE   (both trees built, `./metaroce index` run once)
set -euo pipefail
[ $# -eq 4 ] || { sed -n 2,9p "$0" >&2; exit 2; }
before="$(cd "$1" && pwd)"; after="$(cd "$2" && pwd)"; rounds="$3"; capture="$4"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/tools/find-java.sh"
command -v perf >/dev/null 2>&1 || { echo "index-threads: needs perf" >&2; exit 2; }
for t in "$before" "$after"; do
  [ -f "$t/cli/target/metaroce.jar" ] && [ -f "$t/cli/target/metaroce-index.aot" ] \
    || { echo "index-threads: $t is not built or has no index cache (run ./metaroce index once there)" >&2; exit 2; }
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$rounds"); do
  order="before after"; [ $((r % 2)) = 0 ] && order="after before"
  for side in $order; do
    t="$before"; [ "$side" = after ] && t="$after"
    rm -rf "$tmp/new.idx"
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    perf record -q -e cpu-clock -F 999 -o "$tmp/perf.data" -- /usr/bin/time -o "$tmp/time" -f "%U %S" "$JAVA" -XX:+UseSerialGC \
      -Djdk.console=java.base --enable-native-access=ALL-UNNAMED -Xlog:disable -Xlog:all=off \
      -XX:AOTCache="$t/cli/target/metaroce-index.aot" -XX:AOTMode=on -jar "$t/cli/target/metaroce.jar" \
      index "$capture" --index "$tmp/new.idx" --no-progress >/dev/null 2>&1
    read -r u s <"$tmp/time"
    perf script -i "$tmp/perf.data" -F comm,time 2>/dev/null | python3 -c '
import re, sys, collections
rows = []
for line in sys.stdin:
    m = re.match(r"\s*(.+?)\s+([\d.]+):", line)
    if m: rows.append((m.group(1).strip(), float(m.group(2))))
n = collections.Counter(c for c, _ in rows)
end = max((t for c, t in rows if c.startswith("metaroce-analys")), default=float("inf"))
tail = collections.Counter(c for c, t in rows if t > end)
f = lambda c: c / 999
print("user+sys %.2f  C2 %.2f  C1 %.2f  main %.2f  analysis %.2f  indexing %.2f  gc %.2f  | serial end %.2f (indexing %.2f, C2 %.2f, C1 %.2f)" % (
    float(sys.argv[1]) + float(sys.argv[2]), f(n["C2 CompilerThre"]), f(n["C1 CompilerThre"]), f(n["java"]), f(n["metaroce-analys"]),
    f(n["metaroce-index"]), f(n["VM Thread"]), f(sum(tail.values())), f(tail["metaroce-index"]), f(tail["C2 CompilerThre"]), f(tail["C1 CompilerThre"])))
' "$u" "$s" | sed "s/^/round $r $(printf %-6s "$side") /; s/\$/  load $load/"
  done
done
