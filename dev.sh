#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sonde's one entry point for developers and CI:
#   ./dev.sh run    install what is missing, build, start Sonde on the built-in demo server
#   ./dev.sh test   install what is missing, build, run the whole test suite (CTest)
#   ./dev.sh bench  install what is missing, build, print the benchmark figures
#   ./dev.sh fuzz SECONDS   build the fuzz targets (build-fuzz) and run each for SECONDS
#   ./dev.sh sanitize       build with ASan + UBSan (build-asan), run the unit and integration tests
# Installing asks apt only for missing Debian packages (apt-get update first, and neither
# when nothing is missing) and npm only for the pinned test servers in tests/.
set -euo pipefail
cd "$(dirname "$0")"

APT_PACKAGES=(cmake ninja-build ccache g++ qt6-base-dev qt6-base-dev-tools libgl-dev xvfb xauth clang libfuzzer-14-dev clang-format
  dpkg-dev file desktop-file-utils appstream groff-base bash-completion qtkeychain-qt6-dev
  dbus-daemon gnome-keyring libqt6sql6-sqlite lld qt6-webengine-dev qt6-webchannel-dev)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# npm ci with a bound: the npm package `node` installs its binary with a second npm run from
# its install script, and that inner run was once seen hanging after its cache hits (10 min,
# no traffic; the same install alone took 4 s). timeout kills the whole process group, and the
# install is tried again from scratch (npm ci starts by removing node_modules).
npm_ci() {
  local attempt
  for attempt in 1 2 3; do
    if (cd "$1" && timeout --kill-after=10 300 npm ci --no-audit --no-fund --loglevel=error); then
      return 0
    fi
    echo "dev.sh: npm ci in $1 failed or took over 300 s (attempt $attempt of 3)" >&2
  done
  echo "dev.sh: npm ci in $1 failed 3 times" >&2
  return 1
}

install_missing() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  # Node: any Node >= 18 with npm will do (Debian's own, or one already on the machine).
  if ! command -v node >/dev/null 2>&1; then missing+=(nodejs npm)
  elif ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "dev.sh: installing ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$major" -lt 18 ]; then echo "dev.sh: Node $major is too old (18 or later)" >&2; exit 2; fi
}

# The pinned npm packages (reference servers; the conformance suite with its Node 22; the
# suite's 2026-07-28 release, run on that Node): reinstall a folder only when its lock file
# changed.
install_npm() {
  local dir
  for dir in tests tests/conformance tests/conformance-2026; do
    if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
      npm_ci "$dir"
    fi
  done
}

# Nothing compiled needs the npm packages, only what runs: they install while the build
# compiles (one waits on the network, the other on the CPU; 25 s of a fresh clone's run), and
# whatever runs them waits for them first.
NPM_PID=
start_npm() {
  install_npm &
  NPM_PID=$!
  trap 'if [ -n "$NPM_PID" ]; then kill "$NPM_PID" 2>/dev/null || true; fi' EXIT
}
wait_npm() {
  local pid=$NPM_PID
  NPM_PID=
  if ! wait "$pid"; then echo "dev.sh: installing the pinned npm packages failed" >&2; exit 1; fi
}

# ccache for every build folder. Paths are hashed relative to the checkout, so a fresh clone
# elsewhere (CI) reuses the cache. The sloppiness is what ccache asks for precompiled headers:
# it cannot see a #define or __TIME__ through a .gch, and a .gch built a moment ago is "too
# new" to cache against unless its times are left out (its content is hashed all the same).
ccache_env() {
  export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}" CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
}

build() {
  ccache_env
  # The ci preset (CMakePresets.json): the dev build with every warning an error, line tables
  # for debug info and the libraries as unity builds. Configured again when the folder was
  # set up otherwise (the dev preset, or an older ci preset).
  if ! grep -q '^SONDE_WERROR:BOOL=ON' build/CMakeCache.txt 2>/dev/null ||
    ! grep -q '^SONDE_UNITY_BUILD:BOOL=ON' build/CMakeCache.txt ||
    ! grep -q '^CMAKE_CXX_FLAGS_RELWITHDEBINFO:[A-Z]*=-O2 -g1 -DNDEBUG$' build/CMakeCache.txt; then
    cmake --preset ci
  fi
  cmake --build build
  build_fuzz
}

# The libFuzzer targets: sonde_core and tests/fuzz only, clang, ASan + UBSan, in build-fuzz.
# The main build's fuzz_* tests run these binaries.
build_fuzz() {
  ccache_env
  if ! grep -q '^SONDE_UNITY_BUILD:BOOL=ON' build-fuzz/CMakeCache.txt 2>/dev/null ||
    ! grep -q '^CMAKE_CXX_FLAGS_RELWITHDEBINFO:[A-Z]*=-O1 -g1 -DNDEBUG$' build-fuzz/CMakeCache.txt; then
    cmake --preset fuzz
  fi
  cmake --build build-fuzz
}

# The one list of targets (tests/fuzz/CMakeLists.txt reads it too).
mapfile -t FUZZ_TARGETS < tests/fuzz/targets.txt

# Runs every target for $1 seconds, two at a time, each learning into its own corpus under
# build-fuzz/fuzz/<name>/ (reproducers in .../artifacts); one line per target, in order.
fuzz() {
  local seconds=$1 t rc=0
  for t in "${FUZZ_TARGETS[@]}"; do echo "$t"; done |
    xargs -P2 -I{} sh -c 'tests/fuzz/runfuzz.sh build-fuzz/bin/fuzz_{} tests/fuzz/corpus/{} build-fuzz/fuzz/{} "$1" \
      >build-fuzz/fuzz/{}.line 2>build-fuzz/fuzz/{}.err; echo $? >build-fuzz/fuzz/{}.rc' sh "$seconds"
  for t in "${FUZZ_TARGETS[@]}"; do
    cat "build-fuzz/fuzz/$t.line"
    if [ "$(cat "build-fuzz/fuzz/$t.rc")" != 0 ]; then cat "build-fuzz/fuzz/$t.err" >&2; rc=1; fi
  done
  return "$rc"
}

# ASan + UBSan build of everything (g++), in build-asan; runs the unit and integration tests.
sanitize() {
  ccache_env
  if [ ! -f build-asan/build.ninja ]; then
    cmake --preset asan-ubsan
  fi
  # Configure again first: the test list below comes from the last configure, and a test
  # added since would be left unbuilt ("Not Run").
  cmake -S . -B build-asan >/dev/null
  # Only what the unit and integration tests need (their fixtures come as dependencies):
  # the GUI tests and benchmarks would double an already slow build.
  local targets
  targets=$(ctest --test-dir build-asan -N -L 'unit|integration' | sed -n 's/^ *Test *#[0-9]*: \(tst_[A-Za-z0-9_]*\)$/\1/p')
  # shellcheck disable=SC2086
  cmake --build build-asan --target $targets
  # Not the packaging checks: a sanitized build is not one to ship (its Depends name libasan),
  # and it does not build the window.
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
    QT_QPA_PLATFORM=offscreen ctest --test-dir build-asan --output-on-failure -j2 -L 'unit|integration' -LE packaging "$@"
}

case "${1:-}" in
  run)
    install_missing; install_npm; build
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      exec xvfb-run -a build/bin/sonde "${@:2}"
    fi
    exec build/bin/sonde "${@:2}" ;;
  test)
    install_missing; start_npm; build; wait_npm
    rc=0
    # Four at a time on two cores: the tests mostly wait on servers, sockets and timers (three
    # at a time used one core's worth of CPU). Without the fuzz tests the suite took 90 s at
    # four and 114 s at three.
    QT_QPA_PLATFORM=offscreen ctest --test-dir build --output-on-failure -j4 "${@:2}" |
      tee build/ctest-last.log || rc=$?
    # Where the time goes, so a slow test is seen when it appears.
    echo "The 10 slowest tests:"
    sed -n -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 \1/p' build/ctest-last.log |
      sort -rn | awk 'NR <= 10 {printf "  %7.2f s  %s\n", $1, $2}' # no head: pipefail
    exit "$rc" ;;
  bench)
    install_missing; start_npm; build; wait_npm
    build/bin/sonde-bench-stdio "${@:2}"
    build/bin/sonde-bench-http "${@:2}"
    build/bin/sonde-bench-proxy "${@:2}"
    build/bin/sonde-bench-doctor
    build/bin/sonde-bench-recovery
    build/bin/sonde-bench-auth
    # The history at the issue's million events (SONDE_BENCH_HISTORY_EVENTS for fewer).
    build/bin/sonde-bench-history --events "${SONDE_BENCH_HISTORY_EVENTS:-1000000}"
    QT_QPA_PLATFORM=offscreen build/bin/sonde-bench-gui ;;
  fuzz)
    case "${2:-}" in ''|*[!0-9]*) echo "usage: ./dev.sh fuzz SECONDS" >&2; exit 2 ;; esac
    install_missing; build_fuzz; mkdir -p build-fuzz/fuzz
    fuzz "$2" ;;
  sanitize)
    install_missing; install_npm; sanitize "${@:2}" ;;
  *)
    echo "usage: ./dev.sh run|test|bench|fuzz SECONDS|sanitize" >&2; exit 2 ;;
esac
