/*
 * proto.c: see proto.h. Varints are little-endian groups of 7 bits, the high
 * bit set on every byte but the last; a key is (field << 3) | wire type;
 * negative int64 values take ten bytes (two's complement, not zigzag: pprof's
 * fields are int64, not sint64).
 */
#include <stdlib.h>
#include <string.h>

#include "proto.h"

void statq_pb_init(statq_pb *pb)
{
	memset(pb, 0, sizeof(*pb));
}

void statq_pb_free(statq_pb *pb)
{
	free(pb->data);
	statq_pb_init(pb);
}

void statq_pb_reset(statq_pb *pb)
{
	pb->length = 0;
}

static void statq_pb_room(statq_pb *pb, size_t more)
{
	if (pb->length + more <= pb->capacity) {
		return;
	}
	while (pb->length + more > pb->capacity) {
		pb->capacity = pb->capacity ? pb->capacity * 2 : 256;
	}
	pb->data = statq_realloc(pb->data, pb->capacity);
}

void statq_pb_varint(statq_pb *pb, uint64_t value)
{
	statq_pb_room(pb, 10);
	while (value >= 0x80) {
		pb->data[pb->length++] = (unsigned char) (value | 0x80);
		value >>= 7;
	}
	pb->data[pb->length++] = (unsigned char) value;
}

void statq_pb_uint(statq_pb *pb, uint32_t field, uint64_t value)
{
	statq_pb_varint(pb, (uint64_t) field << 3);
	statq_pb_varint(pb, value);
}

void statq_pb_int(statq_pb *pb, uint32_t field, int64_t value)
{
	statq_pb_uint(pb, field, (uint64_t) value);
}

void statq_pb_bytes(statq_pb *pb, uint32_t field, const void *data, size_t length)
{
	statq_pb_varint(pb, ((uint64_t) field << 3) | 2);
	statq_pb_varint(pb, length);
	statq_pb_room(pb, length);
	if (length) {
		memcpy(pb->data + pb->length, data, length);
	}
	pb->length += length;
}

void statq_pb_string(statq_pb *pb, uint32_t field, const char *text)
{
	statq_pb_bytes(pb, field, text, strlen(text));
}

void statq_pb_message(statq_pb *pb, uint32_t field, const statq_pb *message)
{
	statq_pb_bytes(pb, field, message->data, message->length);
}

void statq_pb_packed(statq_pb *pb, uint32_t field, const uint64_t *values, size_t count)
{
	size_t length = 0, i;

	/* the packed payload's length first: the sum of the varints' sizes */
	for (i = 0; i < count; i++) {
		uint64_t value = values[i];
		size_t size = 1;

		while (value >= 0x80) {
			value >>= 7;
			size++;
		}
		length += size;
	}
	statq_pb_varint(pb, ((uint64_t) field << 3) | 2);
	statq_pb_varint(pb, length);
	for (i = 0; i < count; i++) {
		statq_pb_varint(pb, values[i]);
	}
}
