/* A button counts as pressed once its pin has read low for 20 consecutive milliseconds, and
 * released after 20 ms high; each press increments its wrapping 8-bit counter. */
#include "buttons.h"

#include <avr/io.h>

#define STABLE_MS 20
#define MASK ((1 << BUTTON_COUNT) - 1)

volatile uint8_t button_presses[BUTTON_COUNT];
static uint8_t stable = MASK;           /* 1 = released (pulled up) */
static uint8_t counts[BUTTON_COUNT];

void buttons_init(void)
{
    DDRC &= ~MASK;
    PORTC |= MASK;
}

void buttons_tick_1ms(void)
{
    uint8_t raw = PINC & MASK;
    for (uint8_t i = 0; i < BUTTON_COUNT; i++) {
        uint8_t bit = _BV(i);
        if ((raw & bit) == (stable & bit)) {
            counts[i] = 0;
            continue;
        }
        if (++counts[i] < STABLE_MS)
            continue;
        counts[i] = 0;
        stable ^= bit;
        if (!(stable & bit))
            button_presses[i]++;
    }
}
