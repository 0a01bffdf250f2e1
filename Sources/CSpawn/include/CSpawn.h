#ifndef GEOTRACK_CSPAWN_H
#define GEOTRACK_CSPAWN_H

#include <spawn.h>

// What the test harness's posix_spawn needs beyond Swift's Glibc module, which is not built
// with _GNU_SOURCE and so does not declare glibc's close-from file action.

/// Adds a file action that closes every descriptor from `lowest` up in the child, after the
/// actions added before it. Returns 0, or an errno value.
int geotrack_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
