#!/usr/bin/env bash
# Installs geotrack into a scratch prefix with `make install`, then checks what a user would:
# `man geotrack` shows the generated page (its name, every subcommand, the exit codes and the
# environment), and the installed binary runs. Exits non-zero, saying why, on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
make --no-print-directory install PREFIX="$prefix" >/dev/null
page=$(MANPATH="$prefix/share/man" MANWIDTH=100 LANG=C.UTF-8 man -P cat geotrack 2>/dev/null)
# The page renders without a warning from man or groff (mdoc complains of blank input lines).
warnings=$(MANPATH="$prefix/share/man" LANG=C.UTF-8 man geotrack 2>&1 >/dev/null)
if [ -n "$warnings" ]; then
    echo "check-install: 'man geotrack' warns: $warnings" >&2
    exit 1
fi
for expected in "geotrack" "NAME" "watch" "replay" "auth" "devices" "--approximate" "GEOTRACK_CONFIG" "XDG_STATE_HOME" "Exit status" "74  reading or writing failed" "79  location access undecided"; do
    if ! grep -qF -- "$expected" <<<"$page"; then
        echo "check-install: 'man geotrack' after make install lacks '$expected'" >&2
        exit 1
    fi
done
version=$("$prefix/bin/geotrack" --version)
# make check-install GPSD_PREFIX=DIR builds in a scratch path of its own (Makefile: SCRATCH).
scratch=${GEOTRACK_SCRATCH:-.build}
if [ "$version" != "$("$scratch/release/geotrack" --version)" ]; then
    echo "check-install: the installed geotrack says '$version'" >&2
    exit 1
fi
# The footprint the release link promises (Makefile's RELEASE_FLAGS): at start, only the C
# library and libm are loaded. libsqlite3, libgps, libmosquitto and libcurl are opened when first used,
# and the C++ runtime is linked in wherever GCC's static archive is installed.
# The shared libraries a binary names (readelf's NEEDED entries), on one line.
needed_by() {
    readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '
}
needed=$(needed_by "$prefix/bin/geotrack")
for library in libsqlite3 libgps libmosquitto libcurl libswiftCore libFoundation; do
    if [[ " $needed" == *" $library"* ]]; then
        echo "check-install: the installed geotrack loads $library at every start (NEEDED: $needed)" >&2
        exit 1
    fi
done
if [ -f "$(gcc -print-file-name=libstdc++.a 2>/dev/null)" ]; then
    if [[ " $needed" == *" libstdc++"* ]]; then
        echo "check-install: libstdc++.a is installed, yet the installed geotrack loads libstdc++ (NEEDED: $needed)" >&2
        exit 1
    fi
    # Whether the link above went through a response file depends on how long the checkout's
    # path is (scripts/ld-static-cxx): clang switches to one past 64 KB of arguments, which CI's
    # checkout reached and this one may not. So a small program is linked through the wrapper
    # both ways, the second with enough unused -L folders to pass the line, and neither may load
    # the C++ runtime.
    echo 'print("linked")' >"$prefix/hello.swift"
    padding=()
    for i in $(seq 1 1200); do
        padding+=(-Xlinker "-L$prefix/unused-folder-that-pushes-the-arguments-past-64-KB/$i")
    done
    for way in arguments response-file; do
        extra=()
        [ "$way" = response-file ] && extra=("${padding[@]}")
        "${SWIFTC:-swiftc}" -static-stdlib -use-ld=lld -Xclang-linker "--ld-path=$PWD/scripts/ld-static-cxx" \
            ${extra[@]+"${extra[@]}"} "$prefix/hello.swift" -o "$prefix/hello-$way"
        hello_needed=$(needed_by "$prefix/hello-$way")
        if [[ " $hello_needed" == *" libstdc++"* || " $hello_needed" == *" libgcc_s"* ]] || [ "$("$prefix/hello-$way")" != linked ]; then
            echo "check-install: a program linked by scripts/ld-static-cxx, its arguments in $way, loads $hello_needed" >&2
            exit 1
        fi
    done
fi
# Where libgps.a is installed the release link takes libgps's parser, gps_unpack(), from it
# (Makefile: LIBGPS_ARCHIVE): the installed geotrack lists gpsfake's receiver, parsing gpsd's
# DEVICES message, without opening libgps.so and the ten libraries behind it. (Built against
# GPSD_PREFIX, the archive is looked for there: gpsd's own install has none, and then
# libgps.so is opened from there.)
parser="libgps.so, opened at the first connection"
libdir=$(pkg-config --variable=libdir libgps 2>/dev/null)
[ -n "${GEOTRACK_TEST_GPSD_PREFIX:-}" ] && libdir=$GEOTRACK_TEST_GPSD_PREFIX/lib
if [ -f "$libdir/libgps.a" ]; then
    # gpsd is asked for its receiver only once gpsfake has added it (scripts/gpsfake-up): a
    # watch sent earlier may go unanswered, and CI saw exactly that fail this check.
    read -r port gpsfake_group < <(scripts/gpsfake-up Tests/GPSDTests/Logs/garmin15x.nmea "$prefix/gpsfake.log" -c 0.1) || true
    if [ -z "${gpsfake_group:-}" ]; then
        echo "check-install: gpsfake did not start a gpsd (above); the installed geotrack was not run against one" >&2
        exit 1
    fi
    trap 'scripts/gpsfake-up --stop "$gpsfake_group"; rm -rf "$prefix"' EXIT
    devices=$(LD_DEBUG=files "$prefix/bin/geotrack" devices --json --gpsd "127.0.0.1:$port" --timeout 10 2>"$prefix/ld-debug.txt") || {
        echo "check-install: the installed geotrack devices failed against gpsfake on port $port: $(grep -v '^ *[0-9]*:' "$prefix/ld-debug.txt" | tail -3)" >&2
        exit 1
    }
    if [[ "$devices" != *'"class":"DEVICE"'* ]]; then
        echo "check-install: the installed geotrack listed no receiver from gpsfake on port $port: '$devices'" >&2
        exit 1
    fi
    if grep -q "file=libgps" "$prefix/ld-debug.txt"; then
        echo "check-install: libgps.a is installed, yet the installed geotrack opened libgps.so to parse gpsd's JSON" >&2
        exit 1
    fi
    parser="libgps's parser linked in from libgps.a (devices --json against gpsfake, no libgps.so opened)"
fi
echo "check-install: man geotrack and $prefix/bin/geotrack --version ($version) work after make install; it loads $needed; $parser"
