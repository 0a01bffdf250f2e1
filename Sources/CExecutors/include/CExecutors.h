#ifndef GEOTRACK_CEXECUTORS_H
#define GEOTRACK_CEXECUTORS_H

// What the executors need from libc beyond Swift's Glibc module: eventfd, naming a thread, and
// catching signals.
//
// Catching signals without Dispatch: the handler only writes the signal's number to a pipe
// (write(2) is async-signal-safe); a thread blocked on the pipe's other end does the rest.
// The pipe's write end lives in CExecutors.c, once per process: a `static` variable in this
// header would be one per module that imports it, and a handler could read a copy nobody set.

/// Names the calling thread (the kernel keeps 15 bytes); prctl, because pthread_setname_np
/// needs _GNU_SOURCE, which Swift's Glibc module is not built with.
int geotrack_thread_set_name(const char *name);

/// Sets the pipe that caught signals are written to (its write end, non-blocking).
void geotrack_signal_set_pipe(int fd);

/// Routes `number` to the pipe; SA_RESTART, so blocking calls elsewhere are not interrupted.
int geotrack_signal_catch(int number);

/// Ignores `number` (SIG_IGN).
int geotrack_signal_ignore(int number);

/// A new eventfd (close-on-exec), or -1.
int geotrack_eventfd(void);

/// Adds one to an eventfd, waking a poll(2) on it.
int geotrack_eventfd_signal(int fd);

#endif
