#!/usr/bin/env bash
# Issue 11's GUI performance figures, in one run, on the real main window under Xvfb with software rendering
# (Prism SW pipeline, -Djavafx.animation.fullspeed=true so that frames are not quantised to 60 Hz):
#   - 1 M frames (rocev2-clean): open to the first painted packet list (< 2 s), to fully analyzed with graphs
#     available (< 4 s), model bytes per frame (<= 64, counted exactly), jump to a random frame + select + tree + hex
#     (< 150 ms), display filters over every frame to the painted result (< 1 s)     [io.metaroce.gui.GuiBenchmark]
#   - 10 M frames (rocev2-clean, 7.3 GB): open to the first painted packet list (< 4 s)          [same, first-screen]
#   - PSN graph of a 1 M-packet flow (rocev2-gbn-loss, 1.15 M frames): first render (< 1 s), zoom and pan steps
#     (< 150 ms), click on a point -> frame selected and painted (< 250 ms)     [io.metaroce.gui.graph.PsnGraphBenchmark]
# Each run prints its figures with the CPU they took (FX thread, render thread, process: trust them on a loaded
# machine), the load average before it and /usr/bin/time's wall/user/sys/max RSS of the whole JVM.
# Usage: bench/gui-bench.sh        env: BENCH_DIR (default /tmp/metaroce-gui-bench), TEN_M=0 skips the 10 M capture,
#                                  KEEP=1 keeps the captures (else deleted at the end: 7.3 GB + 1 GB).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${BENCH_DIR:-/tmp/metaroce-gui-bench}"
mkdir -p "$dir"
[ "${KEEP:-0}" = 1 ] || trap 'rm -f "$dir"/gui-*.pcap "$dir"/gui-*.json' EXIT
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
java="$JAVA_HOME/bin/java"
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "== building the gui module and its test classes (benchmarks live there)"
(cd "$here" && ./mvnw -o -q -B -pl gui -am test-compile dependency:build-classpath -Dmdep.outputFile="$dir/cp.txt" \
  -Dmdep.includeScope=test >/dev/null)
cp="$here/gui/target/test-classes:$here/gui/target/classes:$(cat "$dir/cp.txt")"
"$here/metaroce" --version >/dev/null   # builds the launcher's jar for simulate when needed

cap() {  # name, simulate args... -> path (generated at low priority when missing)
  local f="$dir/gui-$1.pcap"; shift
  [ -f "$f" ] || METAROCE_NO_BUILD=1 nice -n 10 "$here/metaroce" simulate "$@" --out "$f" --truth "${f%.pcap}.json" --no-progress >/dev/null
  echo "$f"
}
run() {  # main class, args...: one JVM under Xvfb; prints its figures and its CPU
  echo "-- $(date -u +%H:%M:%S) load $(load): ${1##*.} ${*:2}"
  ( cd "$dir" && xvfb-run -a -s "-screen 0 1600x1000x24" /usr/bin/time -f 'JVM: %e s wall, %U s user, %S s sys, %M KB max RSS' \
      "$java" --enable-native-access=ALL-UNNAMED -Dprism.order=sw -Djavafx.animation.fullspeed=true \
      -Djavafx.cachedir="$dir/fxcache" -cp "$cp" "$@" 2>&1 ) | grep --line-buffered -v -e WARNING -e '^INFO' -e 'PlatformImpl\|VirtualFlow addTrailing' || true
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {print int($2/1024/1024)}' /proc/meminfo) GiB; $(uptime)"
c1m="$(cap 1m --scenario rocev2-clean --frames 1000000)"
run io.metaroce.gui.GuiBenchmark "$c1m"
if [ "${TEN_M:-1}" = 1 ]; then
  c10m="$(cap 10m --scenario rocev2-clean --frames 10000000)"
  cat "$c10m" >/dev/null    # in the page cache like the 1 M file, as a file opened twice is
  run io.metaroce.gui.GuiBenchmark "$c10m" first-screen
  run io.metaroce.gui.GuiBenchmark "$c10m" first-screen
fi
cpsn="$(cap psn --scenario rocev2-gbn-loss -p qps=1 --pmtu 256 --loss 0.0005 --frames 1150000)"
run io.metaroce.gui.graph.PsnGraphBenchmark "$cpsn" 20
echo "-- done $(date -u +%H:%M:%S), load $(load)"
