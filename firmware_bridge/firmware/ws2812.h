/* WS2812 strip on PD6 (Arduino D6), bit-banged with cycle-exact timing at 16 MHz. */
#ifndef BGB_WS2812_H
#define BGB_WS2812_H
#include <stdint.h>

void ws2812_init(void);
void ws2812_show(const uint8_t *rgb, uint8_t count);

#endif
