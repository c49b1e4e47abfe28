/* A button counts as pressed once its pin has read low for 20 consecutive milliseconds, and
 * released after 20 ms high. Each event increments its wrapping 8-bit counter: double, take,
 * pass and undo on press; confirm on release, unless it was held 1 s, which is menu. */
#include "buttons.h"

#include <avr/io.h>

#define STABLE_MS 20
#define MASK ((1 << BUTTON_COUNT) - 1)
#define CONFIRM 4
#define MENU 5

volatile uint8_t button_presses[EVENT_COUNT];
static uint8_t stable = MASK;           /* 1 = released (pulled up) */
static uint8_t counts[BUTTON_COUNT];
static uint16_t held_ms;                /* confirm: how long it has been down */

void buttons_init(void)
{
    DDRC &= ~MASK;
    PORTC |= MASK;
}

static void changed(uint8_t i, uint8_t down)
{
    if (i != CONFIRM) {
        if (down)
            button_presses[i]++;
    } else if (down) {
        held_ms = 1;
    } else {
        if (held_ms < HOLD_MS)
            button_presses[CONFIRM]++;
        held_ms = 0;
    }
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
        changed(i, !(stable & bit));
    }
    if (held_ms && held_ms < HOLD_MS && ++held_ms == HOLD_MS)
        button_presses[MENU]++;
}
