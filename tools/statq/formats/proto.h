/*
 * proto.h: the few pieces of the protocol buffers wire format that statq's
 * pprof writer needs: a growable byte buffer, varints, and fields of wire
 * types 0 (varint) and 2 (length-delimited). A nested message is encoded
 * into its own buffer and appended as bytes. Single-threaded, like statq.
 */
#ifndef STATQ_PROTO_H
#define STATQ_PROTO_H

#include "../statq.h"

typedef struct _statq_pb {
	unsigned char *data;
	size_t         length;
	size_t         capacity;
} statq_pb;

void statq_pb_init(statq_pb *pb);
void statq_pb_free(statq_pb *pb);
/* Empty the buffer, keeping its memory. */
void statq_pb_reset(statq_pb *pb);

void statq_pb_varint(statq_pb *pb, uint64_t value);
/* field of wire type 0; a value of 0 is written too (callers skip defaults) */
void statq_pb_uint(statq_pb *pb, uint32_t field, uint64_t value);
void statq_pb_int(statq_pb *pb, uint32_t field, int64_t value);
/* field of wire type 2 */
void statq_pb_bytes(statq_pb *pb, uint32_t field, const void *data, size_t length);
void statq_pb_string(statq_pb *pb, uint32_t field, const char *text);
void statq_pb_message(statq_pb *pb, uint32_t field, const statq_pb *message);
/* a packed repeated field of varints */
void statq_pb_packed(statq_pb *pb, uint32_t field, const uint64_t *values, size_t count);

#endif
