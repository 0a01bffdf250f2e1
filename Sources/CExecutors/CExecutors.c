#include "CExecutors.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

int geotrack_thread_set_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

// The pipe's write end, set once before the first handler is installed; atomic, as the handler
// may run on any thread.
static atomic_int signal_pipe = -1;

static void signal_handler(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    int fd = atomic_load_explicit(&signal_pipe, memory_order_relaxed);
    if (fd >= 0) {
        // A full pipe (non-blocking) drops the byte: that signal is already pending there.
        (void)!write(fd, &byte, 1);
    }
    errno = saved;
}

void geotrack_signal_set_pipe(int fd) {
    atomic_store(&signal_pipe, fd);
}

int geotrack_signal_catch(int number) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(number, &action, NULL);
}

int geotrack_signal_ignore(int number) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_IGN;
    sigemptyset(&action.sa_mask);
    return sigaction(number, &action, NULL);
}

int geotrack_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC);
}

int geotrack_eventfd_signal(int fd) {
    return eventfd_write(fd, 1);
}
