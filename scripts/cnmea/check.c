// Holds geotrack_nmea_scan (Sources/CNMEA/shim.h) to a byte-by-byte reading of the same rule,
// on lines cut from NMEA logs and on random mutations of them. Built and run for each
// architecture by scripts/cnmea-check.sh (AArch64 under qemu-user), since the kernel's masks
// compile to different instructions on each.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shim.h"

// The rule, a byte at a time: the first `*` after the `$` within the line's 256 bytes; every
// byte before it printable and not `$`; two printable non-`$` bytes after it, then LF or CR LF.
static int32_t reference(const uint8_t *line, uint16_t *commas, uint8_t *sum) {
    uint8_t x = 0;
    for (int32_t i = 1; i < 256; i++) {
        uint8_t c = line[i];
        if (c == '*') {
            if (i > 251) return -1;
            uint8_t h = line[i + 1], l = line[i + 2], a = line[i + 3];
            if (h < 0x20 || h > 0x7E || l < 0x20 || l > 0x7E || h == '$' || l == '$') return -1;
            if (a != '\n' && !(a == '\r' && line[i + 4] == '\n')) return -1;
            *sum = x;
            return i;
        }
        if (c < 0x20 || c > 0x7E || c == '$') return -1;
        x ^= c;
        if (c == ',') commas[(i - 1) / 16] |= (uint16_t)(1u << ((i - 1) % 16));
    }
    return -1;
}

static uint64_t state = 0x9E3779B97F4A7C15u;
static uint64_t next(void) {
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    return state;
}

int main(int argc, char **argv) {
    static uint8_t text[1 << 22];
    size_t length = 0;
    for (int k = 1; k < argc; k++) {
        FILE *f = fopen(argv[k], "rb");
        if (!f) { fprintf(stderr, "cannot read %s\n", argv[k]); return 2; }
        length += fread(text + length, 1, sizeof text - length - 512, f);
        fclose(f);
    }
    const uint8_t odd[] = {0x00, 0x0A, 0x0D, 0x20, 0x24, 0x2A, 0x2C, 0x7E, 0x7F, 0x80, 0xFF, 'A', '0'};
    long checked = 0, framed = 0;
    for (size_t at = 0; at + 300 < length; at++) {
        if (text[at] != '$') continue;
        for (int round = 0; round < 8; round++) {
            uint8_t line[300];
            memcpy(line, text + at, sizeof line);
            // Round 0 as logged; then up to three bytes changed near the start, the star or anywhere.
            for (int m = 0; m < round % 4; m++) line[1 + next() % 120] = odd[next() % sizeof odd];
            uint16_t a[GEOTRACK_NMEA_SCAN_BLOCKS] = {0}, b[GEOTRACK_NMEA_SCAN_BLOCKS] = {0};
            uint8_t sa = 0, sb = 0;
            int32_t got = geotrack_nmea_scan(line, a, &sa), want = reference(line, b, &sb);
            int same = got == want;
            if (same && got >= 0) {
                same = sa == sb;
                for (int k = 0; k <= (got - 1) / 16; k++) same = same && a[k] == b[k];
            }
            if (!same) {
                fprintf(stderr, "differs at byte %zu, round %d: kernel %d, reference %d\n", at, round, got, want);
                return 1;
            }
            checked++;
            if (got >= 0) framed++;
        }
    }
    // Long lines, their star on each side of the last place the line feed can follow it.
    for (int32_t star = 200; star < 260; star++) {
        for (int crlf = 0; crlf < 2; crlf++) {
            uint8_t line[300];
            memset(line, 'x', sizeof line);
            line[0] = '$';
            line[7] = ',';
            memcpy(line + star, crlf ? "*00\r\n" : "*00\n", crlf ? 5 : 4);
            uint16_t a[GEOTRACK_NMEA_SCAN_BLOCKS] = {0}, b[GEOTRACK_NMEA_SCAN_BLOCKS] = {0};
            uint8_t sa = 0, sb = 0;
            int32_t got = geotrack_nmea_scan(line, a, &sa), want = reference(line, b, &sb);
            if (got != want || (got >= 0 && (sa != sb || a[0] != b[0]))) {
                fprintf(stderr, "differs on a long line, star at %d: kernel %d, reference %d\n", star, got, want);
                return 1;
            }
            checked++;
        }
    }
    printf("%ld lines checked, %ld framed by both, none different\n", checked, framed);
    return checked > 0 && framed > 0 ? 0 : 1;
}
