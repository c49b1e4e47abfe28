/* Interrupt-driven UART receive into a ring buffer; blocking transmit. */
#ifndef BGB_UART_H
#define BGB_UART_H
#include <stdint.h>

void uart_init(void);
int16_t uart_read(void);            /* next received byte, or -1 when none */
uint8_t uart_available(void);
void uart_write(uint8_t byte);

#endif
