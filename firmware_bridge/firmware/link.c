/* Bad frames (noise, a wrong baud rate, half frames, frames over the size limit) are dropped
 * and counted; the receiver resynchronises on the next 0x00. */
#include "link.h"

#include <util/crc16.h>

#include "uart.h"

uint16_t link_crc_errors, link_oversize, link_bad_packets;

static uint8_t raw[MAX_ENCODED];
static uint8_t raw_len;
static uint8_t overflowed;

static uint16_t crc16(const uint8_t *data, uint8_t len)
{
    uint16_t crc = 0xFFFF;
    while (len--)
        crc = _crc_xmodem_update(crc, *data++);
    return crc;
}

/* Decode raw[0..raw_len) into dst; returns the decoded length or -1 on a malformed frame. */
static int16_t cobs_decode(uint8_t *dst)
{
    uint8_t in = 0, out = 0;
    while (in < raw_len) {
        uint8_t code = raw[in++];
        if (code == 0 || in + code - 1 > raw_len)
            return -1;
        for (uint8_t i = 1; i < code; i++)
            dst[out++] = raw[in++];
        if (in < raw_len)
            dst[out++] = 0;
    }
    return out;
}

static int8_t finish_frame(packet_t *out)
{
    static uint8_t buf[MAX_ENCODED];
    int16_t n = cobs_decode(buf);
    out->seq = n > 0 ? buf[0] : 0;
    if (n < 4) {
        link_bad_packets++;
        return -NAK_FRAMING;
    }
    uint16_t crc = buf[n - 2] | (buf[n - 1] << 8);
    if (crc16(buf, n - 2) != crc) {
        link_crc_errors++;
        return -NAK_CRC;
    }
    out->type = buf[1];
    out->len = n - 4;
    for (uint8_t i = 0; i < out->len; i++)
        out->payload[i] = buf[2 + i];
    return 1;
}

int8_t link_feed(uint8_t byte, packet_t *out)
{
    if (byte != 0) {
        if (raw_len < sizeof(raw))
            raw[raw_len++] = byte;
        else
            overflowed = 1;
        return 0;
    }
    int8_t result = 0;
    if (overflowed) {
        link_oversize++;
        out->seq = raw[1];
        result = -NAK_OVERSIZE;
    } else if (raw_len) {
        result = finish_frame(out);
    }
    raw_len = 0;
    overflowed = 0;
    return result;
}

static void send_block(const uint8_t *data, uint8_t len)
{
    uint8_t start = 0;
    for (uint8_t i = 0; i <= len; i++) {
        if (i < len && data[i] != 0)
            continue;
        uart_write(i - start + 1);
        while (start < i)
            uart_write(data[start++]);
        start = i + 1;
    }
    uart_write(0);
}

void link_send(uint8_t seq, uint8_t type, const uint8_t *payload, uint8_t len)
{
    static uint8_t buf[MAX_PACKET];
    buf[0] = seq;
    buf[1] = type;
    for (uint8_t i = 0; i < len; i++)
        buf[2 + i] = payload[i];
    uint16_t crc = crc16(buf, len + 2);
    buf[len + 2] = crc & 0xFF;
    buf[len + 3] = crc >> 8;
    send_block(buf, len + 4);
}
