#!/usr/bin/env bash
# Before/after CPU of one command, for a busy machine where wall times prove nothing: the jars of two built trees
# run alternately (the order flips every round), each exactly as the launcher runs it (its JVM options, its own AOT
# cache with -XX:AOTMode=on so that an unusable cache fails instead of being ignored), and each run prints
# user + sys CPU (/usr/bin/time) and, when perf is installed, the CPU seconds of the C2 and C1 compiler threads,
# the main thread, the analysis thread and the decoding thread (perf cpu-clock samples at 999 Hz), plus whether the
# two outputs are byte-identical.
# Usage: bench/cpu-ab.sh BEFORE_TREE AFTER_TREE ROUNDS CAPTURE COMMAND [OPTIONS...]
#   e.g. git clone -q . /tmp/before && git -C /tmp/before checkout -q a92f529
#        for t in /tmp/before .; do (cd $t && ./metaroce analyze -r samples/captures/rocev2-clean.pcapng >/dev/null); done
#        bench/cpu-ab.sh /tmp/before . 3 /tmp/1m.pcap analyze -T json
# Both trees must be built for the command (`./metaroce COMMAND` on a sample in each builds the jar and that command's
# AOT cache). JVM_OPTS adds JVM
# options to both (e.g. JVM_OPTS=-Xmx1g for the 10 M-frame goal).
set -euo pipefail
[ $# -ge 5 ] || { sed -n 2,14p "$0" >&2; exit 2; }
before="$(cd "$1" && pwd)"; after="$(cd "$2" && pwd)"; rounds="$3"; capture="$4"; shift 4
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/tools/find-java.sh"
opts=(-XX:+UseSerialGC -Djdk.console=java.base --enable-native-access=ALL-UNNAMED -Xlog:disable -Xlog:all=off)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The launcher's cache for this command: analyze and validate have their own, every other command uses dissect's.
case "$1" in analyze|validate) aot="metaroce-$1.aot" ;; *) aot=metaroce-dissect.aot ;; esac
for t in "$before" "$after"; do
  [ -f "$t/cli/target/metaroce.jar" ] && [ -f "$t/cli/target/$aot" ] \
    || { echo "cpu-ab: $t is not built for $1 (run ./metaroce $1 on a sample there: it builds the jar and $aot)" >&2; exit 2; }
done
perf=0; command -v perf >/dev/null 2>&1 && perf=1
for r in $(seq "$rounds"); do
  order="before after"; [ $((r % 2)) = 0 ] && order="after before"
  for side in $order; do
    t="$before"; [ "$side" = after ] && t="$after"
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    run=(/usr/bin/time -o "$tmp/time" -f "%e %U %S %M" "$JAVA" "${opts[@]}" -XX:AOTCache="$t/cli/target/$aot" -XX:AOTMode=on
         ${JVM_OPTS:-} -jar "$t/cli/target/metaroce.jar" "$@" -r "$capture")
    if [ "$perf" = 1 ]; then
      perf record -q -e cpu-clock -F 999 -o "$tmp/perf.data" -- "${run[@]}" >"$tmp/out-$side" 2>/dev/null
      split="$(perf report -i "$tmp/perf.data" --sort comm --stdio -F sample,comm 2>/dev/null | grep -v '^#' | awk 'NF>=2 {c=$2; for(i=3;i<=NF;i++) c=c" "$i; n[c]+=$1}
        END {printf "C2 %.2f  C1 %.2f  main %.2f  analysis %.2f  decoding %.2f", n["C2 CompilerThre"]/999, n["C1 CompilerThre"]/999, n["java"]/999, n["metaroce-analys"]/999, n["metaroce-dissec"]/999}')"
    else
      "${run[@]}" >"$tmp/out-$side" 2>/dev/null
      split=""
    fi
    read -r w u s m <"$tmp/time"
    printf 'round %s %-6s user+sys %5.2f s (%s + %s)  wall %6s s  rss %s KB  %s  load %s\n' "$r" "$side" \
      "$(python3 -c "print($u+$s)")" "$u" "$s" "$w" "$m" "$split" "$load"
  done
  cmp -s "$tmp/out-before" "$tmp/out-after" && echo "round $r: outputs byte-identical" || echo "round $r: OUTPUTS DIFFER"
done
