#ifndef GEOTRACK_CEXECUTORS_SHIM_H
#define GEOTRACK_CEXECUTORS_SHIM_H

// What the executors need from libc beyond Swift's Glibc module: eventfd, and catching signals.
//
// Catching signals without Dispatch: the handler only writes the signal's number to a pipe
// (write(2) is async-signal-safe); a thread blocked on the pipe's other end does the rest.

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

/// Names the calling thread (the kernel keeps 15 bytes); prctl, because pthread_setname_np
/// needs _GNU_SOURCE, which Swift's Glibc module is not built with.
static inline int geotrack_thread_set_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

// The pipe's write end, set once before the first handler is installed.
static int geotrack_signal_pipe = -1;

static inline void geotrack_signal_handler(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    if (geotrack_signal_pipe >= 0) {
        // A full pipe (non-blocking) drops the byte: that signal is already pending there.
        (void)!write(geotrack_signal_pipe, &byte, 1);
    }
    errno = saved;
}

/// Sets the pipe that caught signals are written to (its write end, non-blocking).
static inline void geotrack_signal_set_pipe(int fd) {
    geotrack_signal_pipe = fd;
}

/// Routes `number` to the pipe; SA_RESTART, so blocking calls elsewhere are not interrupted.
static inline int geotrack_signal_catch(int number) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = geotrack_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(number, &action, NULL);
}

/// Ignores `number` (SIG_IGN).
static inline int geotrack_signal_ignore(int number) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_IGN;
    sigemptyset(&action.sa_mask);
    return sigaction(number, &action, NULL);
}

/// A new eventfd (close-on-exec), or -1.
static inline int geotrack_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC);
}

/// Adds one to an eventfd, waking a poll(2) on it.
static inline int geotrack_eventfd_signal(int fd) {
    return eventfd_write(fd, 1);
}

#endif
