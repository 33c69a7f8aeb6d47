#!/usr/bin/env bash
# analyze / validate on a directory of captures (issue 14: files in parallel, one per core) against the same
# files one after the other, as one command each, and in one command on one thread (--threads 1). Not a test:
# prints wall, user and system CPU of each run, with the load average before it. Needs root for nice -10 (else
# run with NICE=0).
#
#   bench/many-captures.sh            # 4 copies of a 250,000-frame rocev2-clean capture
#   bench/many-captures.sh 8 100000   # 8 copies of a 100,000-frame one
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
copies="${1:-4}" frames="${2:-250000}"
work="$(mktemp -d /dev/shm/mrmany.XXXXXX)"
trap 'rm -rf "$work"' EXIT
. "$here/tools/find-java.sh"
jar="$here/cli/target/metaroce.jar"
[ -f "$jar" ] || { echo "build first: ./metaroce --version" >&2; exit 2; }
cp "$jar" "$work/metaroce.jar"; jar="$work/metaroce.jar"   # a build meanwhile must not swap the jar under it
export JAVA jar
jopts='-XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -Xlog:disable -Xlog:all=off'
export jopts
run() { "$JAVA" $jopts -jar "$jar" "$@"; }
mkdir "$work/dir"
run simulate --scenario rocev2-clean --frames "$frames" --out "$work/dir/c1.pcap" >/dev/null
for i in $(seq 2 "$copies"); do cp "$work/dir/c1.pcap" "$work/dir/c$i.pcap"; done
echo "$copies x $(du -h "$work/dir/c1.pcap" | cut -f1) ($frames frames each), $(nproc) cores"
# Each timed command in a session of its own at nice -10 (NICE=...): with autogroup on, other sessions' load
# would otherwise take an equal share whatever the nice value (see bench/live/live-bench.sh).
prio=(setsid -w sh -c 'echo "$0" >/proc/self/autogroup 2>/dev/null; exec nice -n "$0" "$@"' "${NICE:--10}")
t() { "${prio[@]}" /usr/bin/time -f '%e s wall, %U s user, %S s sys, %M KB max RSS' "$@" >/dev/null 2>"$work/time" || true; tail -1 "$work/time"; }
for cmd in analyze validate; do
  for round in 1 2; do
    echo "$cmd serial   (round $round, $(uptime | sed 's/.*load/load/')): $(t bash -c 'for f in "$1"/*.pcap; do "$JAVA" $jopts -jar "$jar" "$0" -r "$f"; done' "$cmd" "$work/dir")"
    echo "$cmd --threads 1 (round $round, $(uptime | sed 's/.*load/load/')): $(t "$JAVA" $jopts -jar "$jar" "$cmd" --threads 1 "$work/dir")"
    echo "$cmd parallel (round $round, $(uptime | sed 's/.*load/load/')): $(t "$JAVA" $jopts -jar "$jar" "$cmd" "$work/dir")"
  done
done
