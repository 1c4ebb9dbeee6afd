#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sonde's one entry point for developers and CI:
#   ./dev.sh run    install what is missing, build, start Sonde on the built-in demo server
#   ./dev.sh test   install what is missing, build, run the whole test suite (CTest)
#   ./dev.sh bench  install what is missing, build, print the benchmark figures
# Installing asks apt only for missing Debian packages (apt-get update first, and neither
# when nothing is missing) and npm only for the pinned test servers in tests/.
set -euo pipefail
cd "$(dirname "$0")"

APT_PACKAGES=(cmake ninja-build ccache g++ qt6-base-dev qt6-base-dev-tools libgl-dev xvfb xauth)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
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
  # The pinned npm packages (reference servers; the conformance suite with its Node 22):
  # reinstall a folder only when its lock file changed.
  local dir
  for dir in tests tests/conformance; do
    if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
      (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    fi
  done
}

build() {
  export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
  # Hash paths relative to the checkout, so a fresh clone elsewhere (CI) reuses the cache.
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  if [ ! -f build/build.ninja ]; then
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
  fi
  cmake --build build
}

case "${1:-}" in
  run)
    install_missing; build
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      exec xvfb-run -a build/bin/sonde "${@:2}"
    fi
    exec build/bin/sonde "${@:2}" ;;
  test)
    install_missing; build
    QT_QPA_PLATFORM=offscreen ctest --test-dir build --output-on-failure -j2 "${@:2}" ;;
  bench)
    install_missing; build
    build/bin/sonde-bench-stdio "${@:2}"
    build/bin/sonde-bench-http "${@:2}"
    build/bin/sonde-bench-recovery
    QT_QPA_PLATFORM=offscreen build/bin/sonde-bench-gui ;;
  *)
    echo "usage: ./dev.sh run|test|bench" >&2; exit 2 ;;
esac
