/* Each bit is 20 cycles (1.25 us): high 6 cycles (375 ns) for a 0, 12 cycles (750 ns) for a 1.
 * Interrupts are off while the strip is clocked; the host never sends during a show because
 * it waits for the ACK, which is sent afterwards. */
#include "ws2812.h"

#include <avr/interrupt.h>
#include <avr/io.h>

#define WS_BIT PD6

void ws2812_init(void)
{
    PORTD &= ~_BV(WS_BIT);
    DDRD |= _BV(WS_BIT);
}

static void send_byte(uint8_t byte, uint8_t hi, uint8_t lo)
{
    uint8_t bits = 8;
    asm volatile(
        "1: out %[port], %[hi]  \n\t"   /* rising edge, cycle 0 */
        "   nop                 \n\t"
        "   nop                 \n\t"
        "   nop                 \n\t"
        "   nop                 \n\t"
        "   sbrs %[byte], 7     \n\t"   /* 1 cycle for a 0 bit, 2 (skip) for a 1 bit */
        "   out %[port], %[lo]  \n\t"   /* 0 bit: falls at cycle 6 */
        "   nop                 \n\t"
        "   nop                 \n\t"
        "   nop                 \n\t"
        "   nop                 \n\t"
        "   nop                 \n\t"
        "   out %[port], %[lo]  \n\t"   /* 1 bit: falls at cycle 12 */
        "   nop                 \n\t"
        "   nop                 \n\t"
        "   nop                 \n\t"
        "   lsl %[byte]         \n\t"
        "   dec %[bits]         \n\t"
        "   brne 1b             \n\t"   /* 2 cycles taken: next rise at cycle 20 */
        : [byte] "+r"(byte), [bits] "+r"(bits)
        : [port] "I"(_SFR_IO_ADDR(PORTD)), [hi] "r"(hi), [lo] "r"(lo));
}

void ws2812_show(const uint8_t *rgb, uint8_t count)
{
    uint8_t sreg = SREG;
    cli();
    uint8_t lo = PORTD & ~_BV(WS_BIT);
    uint8_t hi = lo | _BV(WS_BIT);
    for (uint8_t i = 0; i < count; i++, rgb += 3) {
        send_byte(rgb[1], hi, lo);   /* the strip takes green, red, blue */
        send_byte(rgb[0], hi, lo);
        send_byte(rgb[2], hi, lo);
    }
    SREG = sreg;
}
