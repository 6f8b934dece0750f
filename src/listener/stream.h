/*
 * stream.h: the sample stream's clients.
 *
 * The listener process only. Each client has its own cursor into the ring (reads
 * are not destructive: every client gets every sample) and its own output
 * buffer, bounded: a client that does not keep up stops being filled, falls
 * behind the ring, and is told how many samples it lost with a `lost` line.
 */
#ifndef STAT_STREAM_H
#define STAT_STREAM_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Accept waiting connections: served at once, or held for their secret on a remote socket (handshake.h). */
void stat_stream_accept(int listen_fd);
/* Serve a connection (accepted, or through the handshake): its status line, then the ring. */
void stat_stream_add(int fd);
size_t stat_stream_count(void);
/* Describe the clients' interest in fds[0..]; returns how many were written. */
size_t stat_stream_poll(struct pollfd *fds);
/* Act on the poll results for the same clients, in the same order. */
void stat_stream_events(const struct pollfd *fds, size_t count);
/* Move new samples into buffers and send what the sockets take; whether any client's cursor moved. */
bool stat_stream_fill(uint64_t now);
/*
 * Nothing to do for the stream until a sample is written at or past `head`
 * or a client's socket is ready: every client has read up to head, or has a
 * full buffer (it polls for writing).
 */
bool stat_stream_idle(uint64_t head);
/* No client can take a sample now (each has a full buffer; or there is none): only sockets can give the stream work. */
bool stat_stream_full(void);
/* Everything up to the ring's head is sent (or the client is gone). */
bool stat_stream_drained(void);
void stat_stream_close_all(void);

#endif
