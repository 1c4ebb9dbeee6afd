#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Starts Sonde under Xvfb against the built-in demo server, exercises it (a tool call, then a
# session expired under a write) and saves one screenshot per view into docs/screenshots/.
# Run after a build: docs/make-screenshots.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
out=docs/screenshots
mkdir -p "$out"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
shot() { # tab-index name [extra sonde options]
  HOME="$home" XDG_CONFIG_HOME="$home/.config" xvfb-run -a -s "-screen 0 1280x800x24" \
    "$build/bin/sonde" --no-saved-workspace --exercise --tab "$1" --screenshot "$out/$2.png" --screenshot-delay 3200 "${@:3}"
  echo "wrote $out/$2.png"
}
shot 0 session
shot 1 tools
shot 2 health
shot 4 transcript
shot 5 timeline
shot 6 resources
shot 1 tools-dark --dark
# The Doctor tab on the stdio demo: a live finding, and a Run beside it (without --exercise,
# whose faults and calls belong to the other pictures; the run takes a few seconds).
HOME="$home" XDG_CONFIG_HOME="$home/.config" xvfb-run -a -s "-screen 0 1280x800x24" \
  "$build/bin/sonde" --no-saved-workspace --server demo --tab 10 --exercise-doctor \
  --screenshot "$out/doctor.png" --screenshot-delay 10000
echo "wrote $out/doctor.png"
# The demo's counter App in the answer's App tab (docs/apps.md).
HOME="$home" XDG_CONFIG_HOME="$home/.config" xvfb-run -a -s "-screen 0 1280x800x24" \
  "$build/bin/sonde" --no-saved-workspace --server demo --tab 1 --exercise-app \
  --screenshot "$out/app.png" --screenshot-delay 3500
echo "wrote $out/app.png"
