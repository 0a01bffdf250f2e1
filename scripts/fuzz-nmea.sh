#!/usr/bin/env bash
# Fuzzes the NMEA and GPX decoders with libFuzzer and the address sanitizer.
#
#   scripts/fuzz-nmea.sh [SECONDS] [CORPUS_DIR]
#
# Builds GPSReports and the NMEA sources with -sanitize=fuzzer,address into .build/fuzz/,
# seeds the fuzzer with the corpus logs (cut into small pieces) and runs it for SECONDS
# (default 120). Prints libFuzzer's summary, including how many inputs ran; exits non-zero
# on a crash, with the crashing input saved under .build/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-120}"
CORPUS="${2:-../shared/nmea-corpus}"
OUT=.build/fuzz
mkdir -p "$OUT/seeds" "$OUT/lib"
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name GeoTrack)

# The gold linker warns about every sanitizer helper symbol; keep that in build.log.
if ! { swiftc "${FLAGS[@]}" -emit-module -emit-library -static -module-name GPSReports \
         -emit-module-path "$OUT/lib/GPSReports.swiftmodule" -o "$OUT/lib/libGPSReports.a" Sources/GPSReports/*.swift &&
       swiftc "${FLAGS[@]}" -module-name NMEAFuzz -I "$OUT/lib" -L "$OUT/lib" -lGPSReports \
         Sources/NMEA/*.swift scripts/fuzz/NMEAFuzzer.swift -o "$OUT/fuzz-nmea"; } > "$OUT/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$OUT/build.log" >&2
    exit 2
fi

# Seeds: pieces of real logs (≤ 4 KiB) and the GPX shapes the tests use.
if [ -d "$CORPUS" ]; then
    for f in "$CORPUS"/*.raw.log "$CORPUS"/*.nmea; do
        split -b 4096 -d "$f" "$OUT/seeds/$(basename "$f")." 2>/dev/null || true
    done
fi
printf '<gpx><trk><trkseg><trkpt lat="44.0689" lon="-121.3142"><ele>1144.9</ele><time>2017-01-10T00:09:42Z</time><extensions><gpxtpx:speed>1.5</gpxtpx:speed></extensions></trkpt></trkseg></trk></gpx>' > "$OUT/seeds/track.gpx"

cd "$OUT"
mkdir -p corpus-run
./fuzz-nmea -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -timeout=5 -rss_limit_mb=1024 \
    -print_final_stats=1 corpus-run seeds 2>&1 | tee fuzz.log | grep -E "^(#[0-9]+ +DONE|stat::|==|SUMMARY|artifact)" || true
grep -q "DONE" fuzz.log && ! grep -q "ERROR: libFuzzer\|SUMMARY: AddressSanitizer" fuzz.log
