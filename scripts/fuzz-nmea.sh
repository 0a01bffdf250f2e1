#!/usr/bin/env bash
# Fuzzes what GeoTrack reads from outside with libFuzzer and the address sanitizer: the NMEA
# and GPX decoders, and the checks on what gpsd sends (line framing, strict JSON, libgps's
# parse, the decoder's range checks).
#
#   scripts/fuzz-nmea.sh [SECONDS] [CORPUS_DIR]
#   FUZZ_TARGETS=gpsd scripts/fuzz-nmea.sh 600      # one of them
#
# Builds GPSReports, NMEA and TPVJSONBulk, and GPSD's decoding sources with libgps, all with
# -sanitize=fuzzer,address into .build/fuzz/; seeds the NMEA fuzzer with the corpus logs (cut
# into small pieces) and the gpsd fuzzer with gpsdecode's JSON for them; runs each for SECONDS
# (default 120). Prints libFuzzer's summary of each, including how many inputs ran; exits
# non-zero on a crash, with the crashing input saved under .build/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-120}"
CORPUS="${2:-Tests/Fixtures/nmea-corpus}"
OUT=.build/fuzz
mkdir -p "$OUT/seeds" "$OUT/lib"
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name GeoTrack)

# The gold linker warns about every sanitizer helper symbol; keep that in build.log.
# The NMEA sources start their threads through Executors, built here the same way (with its C
# part, CExecutors). NMEA is built for testing, since the fuzzer drives its internal decoders,
# and TPVJSONBulk (the chunked replay it compares with one decoder's) on top of it.
if ! { clang -O -g -fsanitize=address -c Sources/CExecutors/CExecutors.c -I Sources/CExecutors/include \
         -o "$OUT/lib/CExecutors.o" &&
       clang -O -g -fsanitize=address -c Sources/CGPS/CGPS.c -I Sources/CGPS/include -o "$OUT/lib/CGPS.o" &&
       swiftc "${FLAGS[@]}" -emit-module -emit-library -static -module-name GPSReports \
         -emit-module-path "$OUT/lib/GPSReports.swiftmodule" -o "$OUT/lib/libGPSReports.a" Sources/GPSReports/*.swift &&
       swiftc "${FLAGS[@]}" -emit-module -emit-library -static -module-name Executors -I Sources/CExecutors/include \
         -emit-module-path "$OUT/lib/Executors.swiftmodule" -o "$OUT/lib/libExecutors.a" Sources/Executors/*.swift &&
       swiftc "${FLAGS[@]}" -enable-testing -emit-module -emit-library -static -module-name NMEA -I "$OUT/lib" \
         -I Sources/CExecutors/include -I Sources/CNMEA -emit-module-path "$OUT/lib/NMEA.swiftmodule" \
         -o "$OUT/lib/libNMEA.a" Sources/NMEA/*.swift &&
       swiftc "${FLAGS[@]}" -emit-module -emit-library -static -module-name TPVJSONBulk -I "$OUT/lib" \
         -I Sources/CExecutors/include -I Sources/CNMEA -emit-module-path "$OUT/lib/TPVJSONBulk.swiftmodule" \
         -o "$OUT/lib/libTPVJSONBulk.a" Sources/TPVJSONBulk/*.swift &&
       swiftc "${FLAGS[@]}" -module-name NMEAFuzz -I "$OUT/lib" -I Sources/CExecutors/include -I Sources/CNMEA -L "$OUT/lib" \
         -lTPVJSONBulk -lNMEA -lGPSReports -lExecutors \
         "$OUT/lib/CExecutors.o" scripts/fuzz/NMEAFuzzer.swift -o "$OUT/fuzz-nmea" &&
       swiftc "${FLAGS[@]}" -module-name GPSDFuzz -I "$OUT/lib" -I Sources/CGPS/include -L "$OUT/lib" -lGPSReports "$OUT/lib/CGPS.o" \
         Sources/GPSD/GPSDLineBuffer.swift Sources/GPSD/JSONSyntax.swift Sources/GPSD/GPSDMessageDecoder.swift \
         Sources/GPSD/GPSDMessageDecoder+Reports.swift Sources/GPSD/LibGPS.swift \
         scripts/fuzz/GPSDFuzzer.swift -o "$OUT/fuzz-gpsd"; } > "$OUT/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$OUT/build.log" >&2
    exit 2
fi

# Seeds: pieces of real logs (≤ 4 KiB) and the GPX shapes the tests use.
if [ -d "$CORPUS" ]; then
    for f in "$CORPUS"/*.raw.log "$CORPUS"/*.nmea; do
        split -b 4096 -d "$f" "$OUT/seeds/$(basename "$f")." 2>/dev/null || true
    done
fi
# gpsd's seeds: what gpsd decodes from the same logs, and the lines it sends on connecting.
mkdir -p "$OUT/seeds-gpsd"
if [ -d "$CORPUS" ] && command -v gpsdecode >/dev/null; then
    for f in "$CORPUS"/*.nmea; do
        gpsdecode < "$f" 2>/dev/null | head -c 4096 > "$OUT/seeds-gpsd/$(basename "$f").json" || true
    done
fi
printf '%s\r\n' '{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}' \
    '{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox","activated":"2024-05-01T10:00:00.000Z","native":0,"bps":9600,"cycle":1.00}]}' \
    '{"class":"ATT","device":"/dev/ttyACM0","time":"2024-05-01T10:00:01.000Z","heading":271.5,"pitch":1.2,"roll":-0.4}' \
    > "$OUT/seeds-gpsd/handshake.json"

printf '<gpx><trk><trkseg><trkpt lat="44.0689" lon="-121.3142"><ele>1144.9</ele><time>2017-01-10T00:09:42Z</time><extensions><gpxtpx:speed>1.5</gpxtpx:speed></extensions></trkpt></trkseg></trk></gpx>' > "$OUT/seeds/track.gpx"

cd "$OUT"
mkdir -p corpus-run corpus-gpsd
status=0
for target in ${FUZZ_TARGETS:-nmea gpsd}; do
    if [ "$target" = nmea ]; then dirs=(corpus-run seeds); else dirs=(corpus-gpsd seeds-gpsd); fi
    echo "fuzz-$target:"
    ./fuzz-$target -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -timeout=5 -rss_limit_mb=1024 \
        -print_final_stats=1 "${dirs[@]}" 2>&1 | tee "fuzz-$target.log" | grep -E "^(#[0-9]+ +DONE|stat::|==|SUMMARY|artifact)" || true
    grep -q "DONE" "fuzz-$target.log" && ! grep -q "ERROR: libFuzzer\|SUMMARY: AddressSanitizer" "fuzz-$target.log" || status=1
done
exit $status
