/* bgboard LED + cube firmware for the ATmega328P at 16 MHz (Arduino Nano / Uno).
 * The main loop decodes packets and drives the strip; Timer0 ticks at 1 kHz for the buttons
 * and the host-silence watchdog, Timer1 times the servo; the CPU idles between events. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

#include "buttons.h"
#include "link.h"
#include "protocol.h"
#include "servo.h"
#include "uart.h"
#include "ws2812.h"

static uint8_t leds[LED_COUNT * 3];
static uint8_t session;                 /* a matching HELLO was received */
static uint8_t event_seq;
static uint8_t sent_presses[EVENT_COUNT];
static volatile uint16_t silent_ms;
static volatile uint8_t silence_expired;

ISR(TIMER0_COMPA_vect)
{
    buttons_tick_1ms();
    if (silent_ms < SILENCE_MS && ++silent_ms == SILENCE_MS)
        silence_expired = 1;
}

static void tick_init(void)
{
    TCCR0A = _BV(WGM01);                /* CTC */
    OCR0A = 249;                        /* 16 MHz / 64 / 250 = 1 kHz */
    TCCR0B = _BV(CS01) | _BV(CS00);
    TIMSK0 = _BV(OCIE0A);
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v & 0xFF;
    p[1] = v >> 8;
}

static void reply_nak(uint8_t seq, uint8_t reason)
{
    link_send(seq, MSG_NAK, &reason, 1);
}

static void reply_hello(const packet_t *p)
{
    if (p->len != 1) {
        reply_nak(p->seq, NAK_BAD_LENGTH);
        return;
    }
    session = p->payload[0] == PROTOCOL_VERSION;
    uint8_t out[9 + EVENT_COUNT] = {PROTOCOL_VERSION, FIRMWARE_MAJOR, FIRMWARE_MINOR, 0, 0,
                                     LED_COUNT, EVENT_COUNT};
    put16(out + 3, BOARD_ID);
    put16(out + 7, SILENCE_MS);
    for (uint8_t i = 0; i < EVENT_COUNT; i++)
        out[9 + i] = sent_presses[i] = button_presses[i];
    link_send(p->seq, MSG_HELLO_REPLY, out, sizeof(out));
}

static void reply_buttons(uint8_t seq, uint8_t type)
{
    uint8_t out[EVENT_COUNT];
    for (uint8_t i = 0; i < EVENT_COUNT; i++)
        out[i] = sent_presses[i] = button_presses[i];
    link_send(seq, type, out, EVENT_COUNT);
}

static void reply_state(uint8_t seq)
{
    static uint8_t out[12 + LED_COUNT * 3];
    cli();
    put16(out, servo_target());
    put16(out + 2, servo_now());
    out[4] = servo_pulsing() | (session << 1) | (servo_settled() << 2);
    sei();
    put16(out + 5, link_crc_errors);
    put16(out + 7, link_oversize);
    put16(out + 9, link_bad_packets);
    out[11] = LED_COUNT;
    for (uint8_t i = 0; i < sizeof(leds); i++)
        out[12 + i] = leds[i];
    link_send(seq, MSG_STATE, out, sizeof(out));
}

/* Clocks the buffer out to the strip, then ACKs. The blocking ACK keeps the line low >300 us:
 * the strip latches before any next frame can arrive. */
static void show(uint8_t seq)
{
    ws2812_show(leds, LED_COUNT);
    link_send(seq, MSG_ACK, 0, 0);
}

static void set_leds(const packet_t *p)
{
    if (p->len % 3 || p->len > sizeof(leds)) {
        reply_nak(p->seq, NAK_BAD_LENGTH);
        return;
    }
    for (uint8_t i = 0; i < sizeof(leds); i++)
        leds[i] = i < p->len ? p->payload[i] : 0;
    show(p->seq);
}

/* A start index and the colours of the LEDs from there on; the others keep theirs. */
static void set_run(const packet_t *p)
{
    if (p->len < 1 || (p->len - 1) % 3) {
        reply_nak(p->seq, NAK_BAD_LENGTH);
        return;
    }
    uint16_t start = p->payload[0] * 3;
    uint8_t count = p->len - 1;
    if (start + count > sizeof(leds)) {
        reply_nak(p->seq, NAK_BAD_VALUE);
        return;
    }
    for (uint8_t i = 0; i < count; i++)
        leds[start + i] = p->payload[1 + i];
    show(p->seq);
}

static void set_servo(const packet_t *p)
{
    if (p->len != 2) {
        reply_nak(p->seq, NAK_BAD_LENGTH);
        return;
    }
    uint16_t tenths = p->payload[0] | (p->payload[1] << 8);
    if (tenths > 1800) {
        reply_nak(p->seq, NAK_BAD_VALUE);
        return;
    }
    servo_set(tenths);
    link_send(p->seq, MSG_ACK, 0, 0);
}

static void handle(const packet_t *p)
{
    cli();
    silent_ms = 0;
    sei();
    if (p->type == MSG_HELLO) {
        reply_hello(p);
        return;
    }
    if (!session) {
        reply_nak(p->seq, NAK_NO_SESSION);
        return;
    }
    switch (p->type) {
    case MSG_HEARTBEAT:
        reply_buttons(p->seq, MSG_BUTTONS);
        break;
    case MSG_SET_LEDS:
        set_leds(p);
        break;
    case MSG_SET_RUN:
        set_run(p);
        break;
    case MSG_SET_SERVO:
        set_servo(p);
        break;
    case MSG_GET_STATE:
        reply_state(p->seq);
        break;
    default:
        link_bad_packets++;
        reply_nak(p->seq, NAK_BAD_TYPE);
    }
}

static void go_dark(void)
{
    silence_expired = 0;
    session = 0;
    for (uint8_t i = 0; i < sizeof(leds); i++)
        leds[i] = 0;
    ws2812_show(leds, LED_COUNT);
    cli();
    servo_rest();
    sei();
}

static uint8_t presses_changed(void)
{
    for (uint8_t i = 0; i < EVENT_COUNT; i++)
        if (button_presses[i] != sent_presses[i])
            return 1;
    return 0;
}

int main(void)
{
    static packet_t packet;
    uart_init();
    ws2812_init();
    servo_init();
    buttons_init();
    tick_init();
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();
    ws2812_show(leds, LED_COUNT);
    for (;;) {
        int16_t byte;
        while ((byte = uart_read()) >= 0) {
            int8_t result = link_feed(byte, &packet);
            if (result > 0)
                handle(&packet);
            else if (result < 0)
                reply_nak(packet.seq, -result);
        }
        if (silence_expired)
            go_dark();
        if (session && presses_changed())
            reply_buttons(event_seq++, MSG_BUTTON_EVENT);
        cli();
        if (!uart_available() && !silence_expired) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
