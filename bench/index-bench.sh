#!/usr/bin/env bash
# Every figure of issue 12's Performance paragraph in one run (docs/benchmarks.md, section "Flow index: one command"):
#   1. index against analyze on the 1 M-frame capture (goal: index <= 1.3x analyze), and a re-index (skipped by hash)
#   2. flow documents per second at 1 M flows, embedded (goal: >= 50 k docs/s):
#      a. whole process: `metaroce index` over 16 captures of 62,500 flows each (ManyQpCaptures), analysis included
#      b. the index alone, in one process (FlowIndexBench, SerialGC and documents streamed as metaroce index runs):
#         1 M synthetic flow documents in captures of 10,000, committed in groups as metaroce index commits them
#         (CommitGroups: 500,000 documents or 30 s; -Dbench.commit=each in JAVA_TOOL_OPTIONS: one commit per capture),
#         captures added on one thread per core as `metaroce index` does (BENCH_THREADS=1: one thread, as before)
#   3. on that 1 M-flow index, with the index open in one process: selective query p50/p99 (goal p50 <= 10 ms) and
#      the exact top-10 facet (goal <= 100 ms); then the same as whole `metaroce search` runs (JVM start included)
#   4. with SOLR=1: the SolrCloud figures beside them (in-JVM 2-node cluster, 2 shards x 2 replicas; SOLR_DOCS, default 100000)
# Each timing prints wall, user and sys CPU, and the load average before it: wall figures from a loaded machine
# are not the machine's speed. Usage: bench/index-bench.sh [runs] (default 3; medians). Files go to $BENCH_DIR
# (default /tmp/metaroce-index-bench), deleted at the end unless KEEP=1. FRAMES, CAPTURES and SYNTHETIC scale the
# parts down for a quick check of the script (defaults: the issue's sizes).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/tools/find-java.sh"
runs="${1:-3}"
frames="${FRAMES:-1000000}"        # the capture of part 1
caps="${CAPTURES:-16}"             # part 2a: captures of 31,250 QPs (2 flows each)
synthetic="${SYNTHETIC:-1000000}"  # parts 2b and 3: synthetic flow documents
dir="${BENCH_DIR:-/tmp/metaroce-index-bench}"
mkdir -p "$dir"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
cd "$here"
mr=(env METAROCE_NO_BUILD=1 "$here/metaroce")
"$here/metaroce" --version >/dev/null   # builds the shipped jar when needed, outside the timings
echo "building the bench harnesses..." >&2
./mvnw -B -q -o -pl index-lucene,bench -am package -DskipTests >/dev/null
./mvnw -B -q -o -pl index-lucene -am test-compile dependency:build-classpath -Dmdep.outputFile="$dir/cp.txt" -Dmdep.includeScope=test >/dev/null
cp_lucene="index-lucene/target/classes:index-lucene/target/test-classes:$(cat "$dir/cp.txt")"
load() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }
# one run: wall user sys (seconds), output discarded
once() { /usr/bin/time -o "$dir/time.txt" -f "%e %U %S" "$@" >/dev/null 2>&1 || true; tail -1 "$dir/time.txt"; }
# median by wall of $runs runs of a command; $pre runs before each (e.g. removing the index)
median() {
  local r=() i
  for i in $(seq "$runs"); do ${pre:-true}; r+=("$(once "$@")"); done
  printf '%s\n' "${r[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}
ratio() { python3 -c "import sys; print(f'{float(sys.argv[1])/float(sys.argv[2]):.2f}')" "$1" "$2"; }
show() { read -r w u s <<<"$2"; printf '%-58s %7.2f s wall  %7.2f s user  %6.2f s sys\n' "$1" "$w" "$u" "$s"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {print int($2/1024/1024)}' /proc/meminfo) GiB; $runs runs each, medians"
echo "== 1. index against analyze, $frames frames (rocev2-clean) =="
cap="$dir/clean-1m.pcap"
"${mr[@]}" simulate --scenario rocev2-clean --frames "$frames" --out "$cap" --no-progress >/dev/null
echo "capture: $(stat -c %s "$cap") bytes; $(load)"
an="$(median "${mr[@]}" analyze -r "$cap")";                                  show "analyze -r CAP" "$an"
aj="$(median "${mr[@]}" analyze -r "$cap" -T json)";                          show "analyze -r CAP -T json" "$aj"
ix="$(pre="rm -rf $dir/one.idx" median "${mr[@]}" index "$cap" --index "$dir/one.idx" --no-progress)"; show "index CAP --index NEW" "$ix"
again="$(median "${mr[@]}" index "$cap" --index "$dir/one.idx" --no-progress)"; show "index CAP again (known hash: skipped)" "$again"
sha="$(median sha256sum "$cap")";                                             show "sha256sum CAP (for scale)" "$sha"
echo "index / analyze: wall $(ratio "${ix%% *}" "${an%% *}")x (goal <= 1.3), user CPU $(ratio "$(cut -d' ' -f2 <<<"$ix")" "$(cut -d' ' -f2 <<<"$an")")x; $(load)"
rm -f "$cap"; rm -rf "$dir/one.idx"

echo "== 2a. metaroce index, $caps captures x 31,250 QPs x 2 flows =="
flows="$("$JAVA" -cp bench/target/benchmarks.jar io.metaroce.bench.ManyQpCaptures "$dir/many" "$caps" 31250)"
echo "$flows flows in $(du -sh "$dir/many" | cut -f1); $(load)"
mx="$(pre="rm -rf $dir/many.idx" median "${mr[@]}" index "$dir/many" --index "$dir/many.idx" --no-progress)"
show "index 16 captures --index NEW" "$mx"
echo "=> $(python3 -c "import sys; print(f'{int(sys.argv[1])/float(sys.argv[2]):,.0f}')" "$flows" "${mx%% *}") flow docs/s whole process, analysis and JVM start included (goal >= 50,000)"
docs="$("${mr[@]}" search --index "$dir/many.idx" '*:*' -n 0 -T json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" || docs="?"
echo "flow documents found by search '*:*': $docs"
rm -rf "$dir/many" "$dir/many.idx"

echo "== 2b + 3. the embedded index alone, 1 M synthetic flow documents, queries in one process (FlowIndexBench); $(load) =="
/usr/bin/time -f "FlowIndexBench process: %e s wall %U s user %S s sys, peak RSS %M KB" \
  "$JAVA" -XX:+UseSerialGC -XX:-UseDynamicNumberOfCompilerThreads --enable-native-access=ALL-UNNAMED ${BENCH_THREADS:+-Dbench.threads=$BENCH_THREADS} -cp "$cp_lucene" io.metaroce.index.lucene.FlowIndexBench "$synthetic" "$dir/synthetic.idx" 2>&1 | grep -v '^WARNING'
echo "== 3b. whole metaroce search runs on that index (JVM start included); $(load) =="
t0=1796000000000000000
sel="dest_qp:0x000205 AND naks:[5 TO *] AND first:[$((t0 + 42 * 60000000000)) TO $((t0 + 42 * 60000000000 + 20000000000))]"
show "search 'SELECTIVE' --sort naks" "$(median "${mr[@]}" search --index "$dir/synthetic.idx" "$sel" --sort naks)"
show "search '*:*' --top dest_qp --by naks" "$(median "${mr[@]}" search --index "$dir/synthetic.idx" '*:*' --top dest_qp --by naks)"
show "metaroce --version (JVM start, for scale)" "$(median "${mr[@]}" --version)"
rm -rf "$dir/synthetic.idx"

if [ "${SOLR:-0}" = 1 ]; then
  echo "== 4. SolrCloud (in-JVM, 2 nodes, 2 shards x 2 replicas), ${SOLR_DOCS:-100000} documents; $(load) =="
  ./mvnw -B -q -o -pl index-solr -am verify -Dtest=SolrIndexBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
      -Dmetaroce.bench.docs="${SOLR_DOCS:-100000}" 2>&1 | grep 'solr bench' || true
fi
echo "done; $(load)"
