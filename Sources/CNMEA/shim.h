#ifndef GEOTRACK_CNMEA_SHIM_H
#define GEOTRACK_CNMEA_SHIM_H

// Framing an NMEA sentence in one pass, sixteen bytes at a time.
//
// A sentence is framed by finding its end, checking its bytes, computing its checksum and
// finding its commas. Done apart, that was four passes over each line. Done together, each
// sixteen bytes are compared a few times, and each comparison becomes one 16-bit mask: one
// bit per byte. Swift's SIMD types have no operation that turns a comparison into such a mask;
// clang's vector extensions do (a vector of bools cast to an integer), and lower it to one
// instruction where there is one (pmovmskb on x86-64) and to a short sequence elsewhere (and,
// pairwise add on AArch64). No intrinsics, so nothing here depends on the processor.

#include <stdint.h>
#include <string.h>

typedef uint8_t geotrack_u8x16 __attribute__((ext_vector_type(16)));
typedef _Bool geotrack_b16 __attribute__((ext_vector_type(16)));

/// Bytes a line needs readable from its `$` on for geotrack_nmea_scan: its sixteen blocks
/// after the `$`, which may run past the line's end (they are read, not used).
#define GEOTRACK_NMEA_SCAN_READABLE 260

/// Blocks of sixteen bytes geotrack_nmea_scan notes the commas of.
#define GEOTRACK_NMEA_SCAN_BLOCKS 16

static inline uint16_t geotrack_nmea_bits(geotrack_b16 lanes) {
    return __builtin_bit_cast(uint16_t, lanes);
}

/// Frames the plain sentence that starts with the `$` at `line`: `$`, printable ASCII without
/// `$` or `*`, then `*`, two printable characters other than `$`, and LF or CR LF, the line
/// feed less than 256 bytes after the `$`. `GEOTRACK_NMEA_SCAN_READABLE` bytes from `line` on
/// must be readable.
///
/// Returns the offset of the `*` from `line`, and sets `*sum` to the XOR of the bytes between
/// `$` and `*` and `commas[k]` to the commas among the bytes 1 + 16k to 16 + 16k (bit j for the
/// byte 1 + 16k + j), up to the `*`; the blocks after the `*`'s are left as they were. Returns
/// -1 for any other line, which the caller frames byte by byte.
static inline int32_t geotrack_nmea_scan(const uint8_t *line, uint16_t *commas, uint8_t *sum) {
    const geotrack_u8x16 lanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    geotrack_u8x16 folded = 0;
    for (int32_t block = 0; block < GEOTRACK_NMEA_SCAN_BLOCKS; block++) {
        geotrack_u8x16 bytes;
        memcpy(&bytes, line + 1 + 16 * block, sizeof bytes);
        uint16_t stars = geotrack_nmea_bits(__builtin_convertvector(bytes == '*', geotrack_b16));
        // Control characters (CR and LF among them), DEL and above, and a second `$`.
        uint16_t unusual = geotrack_nmea_bits(__builtin_convertvector(
            (bytes < 0x20) | (bytes > 0x7E) | (bytes == '$'), geotrack_b16));
        uint16_t found = geotrack_nmea_bits(__builtin_convertvector(bytes == ',', geotrack_b16));
        if (stars == 0) {
            if (unusual != 0) return -1;
            commas[block] = found;
            folded ^= bytes;
            continue;
        }
        int32_t first = __builtin_ctz(stars);
        uint16_t before = (uint16_t)((1u << first) - 1u);
        if ((unusual & before) != 0) return -1;
        commas[block] = found & before;
        folded ^= bytes & (geotrack_u8x16)(lanes < (uint8_t)first);
        int32_t star = 1 + 16 * block + first;
        // The line feed at star + 3 (no CR) or star + 4 must lie within the 256 bytes.
        if (star > 251) return -1;
        uint8_t high = line[star + 1], low = line[star + 2], after = line[star + 3];
        if ((uint8_t)(high - 0x20) > 0x5E || (uint8_t)(low - 0x20) > 0x5E || high == '$' || low == '$') return -1;
        if (after != '\n' && !(after == '\r' && line[star + 4] == '\n')) return -1;
        *sum = __builtin_reduce_xor(folded);
        return star;
    }
    return -1;
}

#endif
