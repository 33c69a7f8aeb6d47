#!/usr/bin/env bash
# Before/after CPU of one command, for a busy machine where wall times prove nothing: the jars of two built trees
# run alternately (the order flips every round), each exactly as the launcher runs it (its JVM options, its own AOT
# cache with -XX:AOTMode=on so that an unusable cache fails instead of being ignored), and each run prints
# user + sys CPU (/usr/bin/time) and, when perf is installed, the CPU seconds of the C2 and C1 compiler threads,
# the main thread, the analysis thread and the decoding thread (perf cpu-clock samples at 999 Hz), plus whether the
# two outputs are byte-identical.
# Usage: bench/cpu-ab.sh BEFORE_TREE AFTER_TREE ROUNDS CAPTURE COMMAND [OPTIONS...]
#   e.g. git clone -q . /tmp/before && git -C /tmp/before checkout -q a92f529 && (cd /tmp/before && ./metaroce --version)
#        ./metaroce --version && bench/cpu-ab.sh /tmp/before . 3 /tmp/1m.pcap analyze -T json
# Both trees must be built and the command's cache trained (`./metaroce COMMAND ...` once in each builds the jar and
# trains that command's AOT cache; a tree from before the per-command caches has one for all). JVM_OPTS adds JVM
# options to both (e.g. JVM_OPTS=-Xmx1g for the 10 M-frame goal); BEFORE_OPTS / AFTER_OPTS to one side only (to weigh
# a JVM option: give the same tree twice).
set -euo pipefail
[ $# -ge 5 ] || { sed -n 2,12p "$0" >&2; exit 2; }
before="$(cd "$1" && pwd)"; after="$(cd "$2" && pwd)"; rounds="$3"; capture="$4"; shift 4
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/tools/find-java.sh"
opts=(-XX:+UseSerialGC -Djdk.console=java.base --enable-native-access=ALL-UNNAMED -Xlog:disable -Xlog:all=off)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The launcher's choice of cache: one per heavy command, dissect's for the others.
case "$1" in analyze|validate|index|search|extract) trained="$1" ;; *) trained=dissect ;; esac
# `validate -r FILE` alone is the launcher's plain form, with a cache of its own in trees since the sixteenth session.
[ $# -eq 1 ] && [ "$1" = validate ] && trained=validate-plain
aot() { # the launcher's cache for this command; a tree from before the per-command caches has one for all
  if [ -f "$1/cli/target/metaroce-$trained.aot" ]; then echo "$1/cli/target/metaroce-$trained.aot"
  elif [ "$trained" = validate-plain ] && [ -f "$1/cli/target/metaroce-validate.aot" ]; then echo "$1/cli/target/metaroce-validate.aot"
  else echo "$1/cli/target/metaroce.aot"; fi
}
for t in "$before" "$after"; do
  [ -f "$t/cli/target/metaroce.jar" ] && [ -f "$(aot "$t")" ] \
    || { echo "cpu-ab: $t is not built or has no $trained cache (run ./metaroce $1 once there)" >&2; exit 2; }
done
perf=0; command -v perf >/dev/null 2>&1 && perf=1
for r in $(seq "$rounds"); do
  order="before after"; [ $((r % 2)) = 0 ] && order="after before"
  for side in $order; do
    t="$before"; side_opts="${BEFORE_OPTS:-}"; [ "$side" = after ] && { t="$after"; side_opts="${AFTER_OPTS:-}"; }
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    # A launcher that runs a big validate without on-stack replacement (helper val, sixth session): so does its run here.
    osr=(); [ "$1" = validate ] && grep -q -- '-XX:-UseOnStackReplacement' "$t/metaroce" && osr=(-XX:-UseOnStackReplacement)
    run=(/usr/bin/time -o "$tmp/time" -f "%e %U %S %M" "$JAVA" "${opts[@]}" -XX:AOTCache="$(aot "$t")" -XX:AOTMode=on
         "${osr[@]}" ${JVM_OPTS:-} $side_opts -jar "$t/cli/target/metaroce.jar" "$@" -r "$capture")
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
