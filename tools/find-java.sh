# Sourced by ./metaroce and ./run-tests: sets JAVA to a JDK >= 25 and exports JAVA_HOME, or explains what is missing.
# Reads each candidate's release file instead of starting a JVM, so it costs nothing: with the shell's own read, in
# this shell (no $(...), no sed), because every subshell and program started costs 3-5 ms of CPU on a start of a
# tenth of a second (docs/benchmarks.md, "helper start, seventeenth session").
jdk_major() {   # sets major to the JDK's feature version from HOME/release, or fails
  local line
  major=
  [ -f "$1/release" ] || return 1
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in JAVA_VERSION=\"[0-9]*)
      line="${line#JAVA_VERSION=\"}"
      major="${line%%[!0-9]*}"
      break ;;
    esac
  done <"$1/release"
  [ -n "$major" ]
}
find_java() {   # sets found to the first JDK >= 25, or fails
  local c home
  found=
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-2[5-9]* /usr/lib/jvm/*; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] || continue
    jdk_major "$c" || continue
    if [ "$major" -ge 25 ]; then found="$c"; return 0; fi
  done
  if command -v java >/dev/null 2>&1; then
    home="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
    jdk_major "$home" && [ "$major" -ge 25 ] && { found="$home"; return 0; }
  fi
  return 1
}
if ! find_java; then
  echo "metaroce: needs a JDK 25 or newer; none found (looked at \$JAVA_HOME, /usr/lib/jvm/temurin-25-jdk-amd64, /usr/lib/jvm/*" \
       "and 'java' on PATH: $(command -v java >/dev/null 2>&1 && java -version 2>&1 | head -1 || echo none))." \
       "Install Temurin 25 (or any JDK 25) and/or set JAVA_HOME." >&2
  exit 2
fi
JAVA_HOME="$found"
export JAVA_HOME
JAVA="$JAVA_HOME/bin/java"
