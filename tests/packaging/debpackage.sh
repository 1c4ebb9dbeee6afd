#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian package as a user gets it: cpack makes it into a temporary folder, and it must
# carry Depends from dpkg-shlibdeps naming the Qt 6 libraries the programs link, list every
# file it is meant to install, hold stripped programs without a build RPATH that work once
# extracted (sonde-cli talks to the extracted demo server; --version of all three; the window
# starts the demo server next to itself), a changelog, and a desktop file and AppStream
# metainfo the freedesktop tools accept.
# usage: debpackage.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# A missing tool is a failure, never a skip: ./dev.sh installs every one of them.
for tool in cpack:cmake dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev file:file readelf:binutils \
    desktop-file-validate:desktop-file-utils appstreamcli:appstream gzip:gzip; do
    command -v "${tool%%:*}" >/dev/null ||
        fail "${tool%%:*} is missing (Debian package ${tool#*:}; ./dev.sh installs it)"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sonde-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# gzip: this is about what the package holds, and xz would take longer than the checks.
if ! cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/out" \
    -D CPACK_DEBIAN_COMPRESSION_TYPE=gzip >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log" >&2
    fail "cpack -G DEB failed"
fi
debs=("$tmp"/out/*.deb)
[ "${#debs[@]}" -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack made ${#debs[@]} .deb files: ${debs[*]}"
deb=${debs[0]}
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

# The control fields, against the metainfo they come from.
metainfo=$source/packaging/linux/io.github.sonde.Sonde.metainfo.xml
version=$(sed -n 's/^project(Sonde VERSION \([0-9.]*\).*/\1/p' "$source/CMakeLists.txt")
summary=$(sed -n 's:.*<summary>\(.*\)</summary>.*:\1:p' "$metainfo")
homepage=$(sed -n 's:.*<url type="homepage">\(.*\)</url>.*:\1:p' "$metainfo")
contact=$(sed -n 's:.*<update_contact>\(.*\)</update_contact>.*:\1:p' "$metainfo")
field() { dpkg-deb -f "$deb" "$1"; }
expect_field() {
    local value
    value=$(field "$1")
    [ "$value" = "$2" ] || fail "$1 is \"$value\", expected \"$2\""
}
expect_field Package sonde
expect_field Version "$version"
expect_field Architecture "$(dpkg --print-architecture)"
expect_field Section devel
expect_field Homepage "$homepage"
[[ $(field Maintainer) == *"<$contact>" ]] || fail "Maintainer \"$(field Maintainer)\" lacks <$contact>"
[ "$(field Description | head -1)" = "$summary" ] ||
    fail "the Description's first line is not the metainfo's summary: $(field Description | head -1)"
[ "$(field Description | wc -l)" -gt 2 ] || fail "no extended Description"
long=$(field Description | awk 'length > 80' || true)
[ -z "$long" ] || fail "Description lines over 80 columns: $long"

# Every file the package is for.
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's:^\./:/:' >"$tmp/contents"
expected=(/usr/bin/sonde /usr/bin/sonde-cli /usr/bin/sonde-demo-server
    /usr/share/applications/io.github.sonde.Sonde.desktop
    /usr/share/metainfo/io.github.sonde.Sonde.metainfo.xml
    /usr/share/icons/hicolor/scalable/apps/io.github.sonde.Sonde.svg
    /usr/share/man/man1/sonde.1.gz /usr/share/man/man1/sonde-cli.1.gz
    /usr/share/man/man1/sonde-demo-server.1.gz
    /usr/share/bash-completion/completions/sonde-cli
    /usr/share/bash-completion/completions/sonde-demo-server
    /usr/share/doc/sonde/copyright /usr/share/doc/sonde/changelog.gz)
for size in 32 48 64 128 256; do
    expected+=("/usr/share/icons/hicolor/${size}x${size}/apps/io.github.sonde.Sonde.png")
done
for f in "${expected[@]}"; do
    grep -qxF "$f" "$tmp/contents" || fail "the package does not install $f"
done
outside=$(grep -v '^/usr/' "$tmp/contents" | grep -vx '/' || true)
[ -z "$outside" ] || fail "files outside /usr: $outside"

root=$tmp/root
dpkg-deb -x "$deb" "$root"

# Depends: what dpkg-shlibdeps made of the libraries each program links. Each Qt library a
# program needs must be there under its Debian name (libQt6Widgets.so.6 -> libqt6widgets6),
# with a version.
depends=$(field Depends)
echo "Depends: $depends"
[[ $depends == *"libqt6core6 (>= 6."* ]] || fail "Depends does not name libqt6core6 (>= 6.x)"
[[ $depends == *"libc6 (>= "* ]] || fail "Depends does not name libc6"
[[ $depends == *"libqt6sql6-sqlite"* ]] || fail "Depends does not name libqt6sql6-sqlite (the history's SQLite driver, a plugin)"
for program in sonde sonde-cli sonde-demo-server; do
    binary=$root/usr/bin/$program
    info=$(file -b "$binary")
    [[ $info == ELF*", stripped"* ]] || fail "$program is not a stripped ELF program: $info"
    dynamic=$(readelf -d "$binary")
    if grep -Eq '\((RPATH|RUNPATH)\)' <<<"$dynamic"; then
        fail "$program keeps a run path: $(grep -E 'RPATH|RUNPATH' <<<"$dynamic")"
    fi
    for lib in $(sed -n 's/.*Shared library: \[libQt6\([A-Za-z]*\)\.so\.6\].*/\1/p' <<<"$dynamic"); do
        name="libqt6${lib,,}6"
        [[ $depends == *"$name (>= 6."* ]] || fail "$program links libQt6$lib.so.6 but Depends lacks $name"
    done
done
# What only a flow that asks for it needs is in a module loaded on first use, not linked into
# the programs (it cost every sonde-cli start its loading time): the keyring (qtkeychain).
# The OAuth redirect listener is Sonde's own, on Qt Network, which the programs link anyway.
for module in libsonde-keyring.so:libqt6keychain; do
    file=${module%%:*} lib=${module##*:}
    found=$(find "$root/usr/lib" -path "*/sonde/$file" | head -1)
    [[ -n $found ]] || fail "the package has no $file under /usr/lib/<triplet>/sonde"
    grep -qi "$lib" <<<"$(readelf -d "$found")" || fail "$file does not link $lib"
    for program in sonde sonde-cli; do
        ! grep -qi "$lib" <<<"$(readelf -d "$root/usr/bin/$program")" ||
            fail "$program links $lib itself: it belongs in $file, loaded on first use"
    done
done
# sonde-cli binds every symbol at load (app/CMakeLists.txt says why).
grep -Eq '\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*NOW' <<<"$(readelf -d "$root/usr/bin/sonde-cli")" ||
    fail "sonde-cli is not linked with -z now"
grep -q 'libQt6Widgets' <<<"$(readelf -d "$root/usr/bin/sonde")" ||
    fail "sonde does not link Qt Widgets: the Depends check above checked nothing for it"

# The extracted programs, with the system's Qt and no display.
run() { env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM -u LD_LIBRARY_PATH "$@"; }
answer=$(run "$root/usr/bin/sonde-cli" --command "$root/usr/bin/sonde-demo-server" \
    tools call echo '{"message":"hi"}') || fail "sonde-cli tools call echo exited $?: $answer"
echo "tools call echo: $answer"
[[ $answer == *'"result"'*hi* ]] || fail "the echo answer has no \"hi\" result: $answer"
for program in sonde sonde-cli sonde-demo-server; do
    out=$(run "$root/usr/bin/$program" --version) || fail "$program --version exited $?"
    echo "$program --version: $out"
    [[ $out == *" $version" ]] || fail "$program --version says \"$out\", not $version"
done

# The packaged window starts (offscreen) on its first run with the demo server it finds next
# to itself: a child process whose program is $root/usr/bin/sonde-demo-server. Read from
# /proc in bash alone (procps is not on every Debian, and a scan that forks per process is
# slow enough on a loaded machine to miss the window's lifetime).
children_of() {
    local p stat ppid
    for p in /proc/[0-9]*; do
        read -r stat <"$p/stat" 2>/dev/null || continue
        stat=${stat##*) }
        ppid=${stat#* }
        [ "${ppid%% *}" = "$1" ] && readlink "$p/exe"
    done
    return 0
}
mkdir -p "$tmp/home"
env -u DISPLAY -u WAYLAND_DISPLAY -u LD_LIBRARY_PATH HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
    QT_QPA_PLATFORM=offscreen "$root/usr/bin/sonde" --no-saved-workspace \
    --screenshot "$tmp/window.png" --screenshot-delay 3000 >"$tmp/sonde.log" 2>&1 &
window=$!
demo_child=
# Until it is seen or the window has gone (it closes itself after the screenshot).
while kill -0 "$window" 2>/dev/null; do
    demo_child=$(children_of "$window" | grep -xF "$root/usr/bin/sonde-demo-server" || true)
    [ -n "$demo_child" ] && break
    sleep 0.05
done
wait "$window" || { rc=$?; cat "$tmp/sonde.log" >&2; fail "the packaged sonde exited $rc"; }
[ -n "$demo_child" ] || { cat "$tmp/sonde.log" >&2; fail "the packaged sonde started no $root/usr/bin/sonde-demo-server"; }
echo "sonde's first run started: $demo_child"
[ "$(head -c 8 "$tmp/window.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "the packaged sonde saved no PNG of its window"

# The packaged pages and completions are the sources, and the pages format cleanly.
for page in sonde sonde-cli sonde-demo-server; do
    gzip -dc "$root/usr/share/man/man1/$page.1.gz" | cmp -s - "$source/docs/man/$page.1" ||
        fail "the packaged $page.1.gz is not docs/man/$page.1"
done
# The changelog's newest entry is this version, and the metainfo's newest release too.
command -v dpkg-parsechangelog >/dev/null || fail "dpkg-parsechangelog is missing (Debian package dpkg-dev)"
gzip -dc "$root/usr/share/doc/sonde/changelog.gz" >"$tmp/changelog"
changelog_version=$(dpkg-parsechangelog -l "$tmp/changelog" -S Version) || fail "the changelog does not parse"
[ "$changelog_version" = "$version" ] || fail "the changelog's newest entry is $changelog_version, not $version"
release=$(grep -o '<release version="[^"]*"' "$metainfo" | head -1 | cut -d'"' -f2)
[ "$release" = "$version" ] || fail "the metainfo's newest release is $release, not $version"
for c in sonde-cli sonde-demo-server; do
    cmp -s "$root/usr/share/bash-completion/completions/$c" "$source/packaging/linux/completion/$c" ||
        fail "the packaged completion for $c is not packaging/linux/completion/$c"
done

# The freedesktop checks, on the files as packaged. The one note allowed is AppStream's
# pedantic remark on the capital in the id: it is the reverse-DNS id the desktop file, icons
# and the window's desktopFileName share (renaming all of them would orphan users' launchers).
desktop=$root/usr/share/applications/io.github.sonde.Sonde.desktop
out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $out"
[ -z "$out" ] || fail "desktop-file-validate reports: $out"
icon=$(sed -n 's/^Icon=//p' "$desktop")
[ -f "$root/usr/share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "no icon named $icon"
[ "$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")" = sonde ] || fail "Exec is not sonde"
out=$(appstreamcli validate --pedantic --strict --no-net --no-color \
    "$root/usr/share/metainfo/io.github.sonde.Sonde.metainfo.xml" 2>&1) ||
    fail "appstreamcli validate --pedantic: $out"
issues=$(grep -E '^[EWIP]: ' <<<"$out" | grep -v ': cid-contains-uppercase-letter ' || true)
[ -z "$issues" ] || fail "appstreamcli validate --pedantic reports: $issues"
grep -q 'Validation was successful' <<<"$out" || fail "appstreamcli did not say it validated: $out"
# The tree as installed: the metainfo with the desktop file and icons it points at.
out=$(appstreamcli validate-tree --pedantic --no-net --no-color "$root" 2>&1) ||
    fail "appstreamcli validate-tree --pedantic: $out"
issues=$(grep -E '^ *[EWIP]: ' <<<"$out" | grep -v ': cid-contains-uppercase-letter ' || true)
[ -z "$issues" ] || fail "appstreamcli validate-tree --pedantic reports: $issues"
# Software centres offer the package for each program it provides.
for program in "$root"/usr/bin/*; do
    grep -qF "<binary>$(basename "$program")</binary>" "$root/usr/share/metainfo/io.github.sonde.Sonde.metainfo.xml" ||
        fail "the metainfo does not provide $(basename "$program")"
done
echo "desktop-file-validate, appstreamcli validate and validate-tree --pedantic: clean"
echo "PASS"
