#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The manual pages cannot drift from the programs: every option each program's usage prints
# (and every sonde-cli command) is in its page, and groff formats each page without a warning.
# usage: manpage.sh MAN_DIR SONDE SONDE_CLI SONDE_DEMO_SERVER
set -euo pipefail
man=$1 sonde=$2 cli=$3 demo=$4

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
command -v groff >/dev/null || fail "groff is missing (Debian package groff-base; ./dev.sh installs it)"

# The page's text with roff's escapes undone: \- is -, \fB...\fR are fonts.
plain() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(dq/"/g' "$1"; }

# $1 page, $2 program, then the usage text on stdin.
check_options() {
    local page=$man/$1.1 usage options opt text missing=()
    usage=$(cat)
    text=$(plain "$page")
    options=$(grep -oE -- '--[a-z][a-z-]*' <<<"$usage" | sort -u)
    [ "$(wc -l <<<"$options")" -ge "$3" ] ||
        fail "$2's usage names only $(wc -l <<<"$options") options (at least $3 expected): $usage"
    for opt in $options; do
        grep -Eq -- "(^|[^a-z-])$opt([^a-z-]|\$)" <<<"$text" || missing+=("$opt")
    done
    [ "${#missing[@]}" -eq 0 ] || fail "$1.1 lacks options its program prints: ${missing[*]}"
    echo "$1.1: all $(wc -l <<<"$options") options of the usage"
}

"$cli" --help | check_options sonde-cli sonde-cli 25
# The demo server prints its usage line for any option it does not know.
{ "$demo" --help 2>&1 || true; } | check_options sonde-demo-server sonde-demo-server 3
# Qt's own help text; QApplication needs a platform, not a display.
QT_QPA_PLATFORM=offscreen "$sonde" --help | check_options sonde sonde 5
# `sonde app-snapshot`'s own options (answered before the application starts).
"$sonde" app-snapshot --help | check_options sonde "sonde app-snapshot" 10

# sonde-cli's commands, as its usage lists them after COMMAND: ("tools call NAME [JSON]" is
# the command "tools call").
commands=$("$cli" --help | sed -n '/^COMMAND:/,$p' | sed 's/^COMMAND://' | tr '|' '\n' |
    sed -E 's/^ *//; s/ *\(.*//' | grep -oE '^[a-z][a-z-]*( [a-z]+)?' | sort -u)
[ "$(wc -l <<<"$commands")" -ge 10 ] || fail "found only these commands in the usage: $commands"
missing=()
text=$(plain "$man/sonde-cli.1")
while read -r c; do
    grep -qF -- "$c" <<<"$text" || missing+=("$c")
done <<<"$commands"
[ "${#missing[@]}" -eq 0 ] || fail "sonde-cli.1 lacks commands: ${missing[*]}"
echo "sonde-cli.1: all $(wc -l <<<"$commands") commands"

for section in NAME SYNOPSIS DESCRIPTION CONNECTION OPTIONS COMMANDS 'EXEC OPS' 'EXIT STATUS' \
    ENVIRONMENT FILES EXAMPLES 'SEE ALSO'; do
    grep -qxF ".SH $section" "$man/sonde-cli.1" || fail "sonde-cli.1 has no $section section"
done

for page in sonde sonde-cli sonde-demo-server; do
    out=$(groff -man -ww -z "$man/$page.1" 2>&1) || fail "groff failed on $page.1: $out"
    [ -z "$out" ] || fail "groff -man -ww warns about $page.1: $out"
done
echo "groff -man -ww -z: no warnings"
echo PASS
