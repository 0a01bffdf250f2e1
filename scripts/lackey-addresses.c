/*
 * lackey-addresses.c -- reads `valgrind --tool=lackey --trace-mem=yes` output on stdin and
 * prints, in the order they were first touched, the addresses in [LOW, HIGH) that loads and
 * stores began at (hexadecimal, one per line, each once). A run of geotrack makes hundreds of
 * millions of trace lines; this keeps the few thousand scripts/order-file.sh needs.
 *
 * Usage: lackey-addresses LOW HIGH   (hexadecimal)
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: lackey-addresses LOW HIGH\n");
        return 2;
    }
    unsigned long low = strtoul(argv[1], NULL, 16), high = strtoul(argv[2], NULL, 16);
    if (high <= low) {
        fprintf(stderr, "lackey-addresses: HIGH must be above LOW\n");
        return 2;
    }
    unsigned char *seen = calloc(high - low, 1);
    if (!seen) {
        fprintf(stderr, "lackey-addresses: out of memory\n");
        return 1;
    }
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        /* " L addr,size", " S addr,size", " M addr,size"; "I" lines are instruction fetches. */
        char *p = line;
        while (*p == ' ') p++;
        if (*p != 'L' && *p != 'S' && *p != 'M') continue;
        p++;
        char *end;
        unsigned long address = strtoul(p, &end, 16);
        if (address >= low && address < high && !seen[address - low]) {
            seen[address - low] = 1;
            printf("%lx\n", address);
        }
    }
    return 0;
}
