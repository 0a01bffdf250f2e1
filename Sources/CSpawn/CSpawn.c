#define _GNU_SOURCE
#include "CSpawn.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

int geotrack_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    // Older C libraries: one close action per descriptor open now. A descriptor opened by
    // another thread after this list is read can still reach the child.
    DIR *folder = opendir("/proc/self/fd");
    if (folder == NULL) return errno;
    int own = dirfd(folder);
    struct dirent *entry;
    int result = 0;
    while (result == 0 && (entry = readdir(folder)) != NULL) {
        char *end;
        long fd = strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0' || fd < lowest || fd == own) continue;
        result = posix_spawn_file_actions_addclose(actions, (int)fd);
    }
    closedir(folder);
    return result;
#endif
}
