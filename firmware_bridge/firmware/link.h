/* Packet framing: COBS, 0x00 delimiter, seq + type + payload + CRC-16/CCITT-FALSE (LE). */
#ifndef BGB_LINK_H
#define BGB_LINK_H
#include <stdint.h>

#include "protocol.h"

typedef struct {
    uint8_t seq;
    uint8_t type;
    uint8_t len;
    uint8_t payload[MAX_PAYLOAD];
} packet_t;

/* Feed one received byte: 0 = nothing yet, 1 = a good packet in *out, or -reason for a bad
 * frame (out->seq then holds the best guess of its sequence number). */
int8_t link_feed(uint8_t byte, packet_t *out);
void link_send(uint8_t seq, uint8_t type, const uint8_t *payload, uint8_t len);

extern uint16_t link_crc_errors, link_oversize, link_bad_packets;

#endif
