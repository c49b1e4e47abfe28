/* Five buttons on PC0..PC4 (Arduino A0..A4) to ground, internal pull-ups, debounced. */
#ifndef BGB_BUTTONS_H
#define BGB_BUTTONS_H
#include <stdint.h>

#include "protocol.h"

void buttons_init(void);
void buttons_tick_1ms(void);
extern volatile uint8_t button_presses[EVENT_COUNT];   /* wrapping counter per event */

#endif
