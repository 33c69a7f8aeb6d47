# Sourced by ./metaroce and ./run-tests: sets JAVA to a JDK >= 25 and exports JAVA_HOME, or explains what is missing.
# Reads each candidate's release file instead of starting a JVM, so it costs nothing.
jdk_major() {
  local home="$1" v
  [ -f "$home/release" ] || return 1
  v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")"
  [ -n "$v" ] && echo "$v"
}
find_java() {
  local c home v
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-2[5-9]* /usr/lib/jvm/*; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] || continue
    v="$(jdk_major "$c")" || continue
    if [ "$v" -ge 25 ]; then echo "$c"; return 0; fi
  done
  if command -v java >/dev/null 2>&1; then
    home="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
    v="$(jdk_major "$home")" && [ "$v" -ge 25 ] && { echo "$home"; return 0; }
  fi
  return 1
}
if ! JAVA_HOME="$(find_java)"; then
  echo "metaroce: needs a JDK 25 or newer; none found (looked at \$JAVA_HOME, /usr/lib/jvm/temurin-25-jdk-amd64, /usr/lib/jvm/*" \
       "and 'java' on PATH: $(command -v java >/dev/null 2>&1 && java -version 2>&1 | head -1 || echo none))." \
       "Install Temurin 25 (or any JDK 25) and/or set JAVA_HOME." >&2
  exit 2
fi
export JAVA_HOME
JAVA="$JAVA_HOME/bin/java"
