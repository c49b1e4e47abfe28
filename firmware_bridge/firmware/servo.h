/* Cube servo on OC1A = PB1 (Arduino D9): 50 Hz Timer1 PWM, 500-2500 us for 0-180 degrees. */
#ifndef BGB_SERVO_H
#define BGB_SERVO_H
#include <stdint.h>

void servo_init(void);
void servo_set(uint16_t tenths);   /* target angle in tenths of a degree, 0..1800 */
void servo_rest(void);             /* stop the pulse now */
uint16_t servo_target(void);       /* SERVO_NONE before the first command */
uint16_t servo_now(void);
uint8_t servo_pulsing(void);
uint8_t servo_settled(void);       /* at the target for at least one full pulse period */

#endif
