/* 115200 baud 8N1 with U2X (UBRR 16 at 16 MHz); a 256-byte receive ring. */
#include "uart.h"

#include <avr/interrupt.h>
#include <avr/io.h>

static volatile uint8_t ring[256];
static volatile uint8_t head, tail;

void uart_init(void)
{
    UCSR0A = _BV(U2X0);
    UBRR0H = 0;
    UBRR0L = 16;
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = head + 1;
    if (next == tail)
        return;           /* never with stop-and-wait; the broken frame fails its CRC */
    ring[head] = byte;
    head = next;
}

uint8_t uart_available(void)
{
    return head != tail;
}

int16_t uart_read(void)
{
    if (head == tail)
        return -1;
    uint8_t byte = ring[tail];
    tail++;
    return byte;
}

void uart_write(uint8_t byte)
{
    loop_until_bit_is_set(UCSR0A, UDRE0);
    UDR0 = byte;
}
