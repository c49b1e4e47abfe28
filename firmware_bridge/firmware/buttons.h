/* Up to six buttons on PC0..PC5 (Arduino A0..A5) to ground, internal pull-ups, debounced. */
#ifndef BGB_BUTTONS_H
#define BGB_BUTTONS_H
#include <stdint.h>

#include "protocol.h"

void buttons_init(void);
void buttons_tick_1ms(void);
extern volatile uint8_t button_presses[BUTTON_COUNT];   /* wrapping press counters */

#endif
