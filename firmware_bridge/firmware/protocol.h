/* Wire protocol constants shared by every firmware module (see ../PROTOCOL.md). */
#ifndef BGB_PROTOCOL_H
#define BGB_PROTOCOL_H

#define PROTOCOL_VERSION 2
#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 1
#ifndef BOARD_ID
#define BOARD_ID 0x0001
#endif

#define LED_COUNT 30
#define BUTTON_COUNT 5      /* double, take, pass, undo, confirm */
#define EVENT_COUNT 6       /* the same and menu: confirm held HOLD_MS */
#define HOLD_MS 1000
#define MAX_PAYLOAD 102
#define MAX_PACKET (2 + MAX_PAYLOAD + 2)   /* seq, type, payload, CRC-16 */
#define MAX_ENCODED (MAX_PACKET + 1)       /* COBS adds one byte per 254 */
#define SILENCE_MS 3000
#define SERVO_NONE 0xFFFF

enum host_type {
    MSG_HELLO = 0x01,
    MSG_HEARTBEAT = 0x02,
    MSG_SET_LEDS = 0x03,
    MSG_SET_SERVO = 0x04,
    MSG_GET_STATE = 0x05,
    MSG_SET_RUN = 0x06,
};

enum device_type {
    MSG_ACK = 0x80,
    MSG_NAK = 0x81,
    MSG_HELLO_REPLY = 0x82,
    MSG_STATE = 0x83,
    MSG_BUTTONS = 0x84,
    MSG_BUTTON_EVENT = 0x85,
};

enum nak_reason {
    NAK_CRC = 1,
    NAK_OVERSIZE = 2,
    NAK_BAD_TYPE = 3,
    NAK_BAD_LENGTH = 4,
    NAK_NO_SESSION = 5,
    NAK_BAD_VALUE = 6,
    NAK_FRAMING = 7,
};

#endif
