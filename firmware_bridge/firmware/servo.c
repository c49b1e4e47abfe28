/* The angle ramps at 120 degrees/s so the cube turns slowly; the pulse is held 0.5 s after the
 * target is reached and then stopped, so the servo neither hums nor jitters at rest. Every
 * change is made in the Timer1 overflow interrupt, at the start of a 20 ms period. */
#include "servo.h"

#include <avr/interrupt.h>
#include <avr/io.h>

#include "protocol.h"

#define STEP_TENTHS 24      /* per 20 ms period: 120 degrees per second */
#define HOLD_PERIODS 25     /* 0.5 s */
#define CLOCK_OFF (_BV(WGM13) | _BV(WGM12))
#define CLOCK_ON (CLOCK_OFF | _BV(CS11))          /* prescaler 8: 0.5 us per tick */

static volatile uint16_t target = SERVO_NONE, now = SERVO_NONE;
static volatile uint8_t hold, moved;

void servo_init(void)
{
    PORTB &= ~_BV(PB1);
    DDRB |= _BV(PB1);
    ICR1 = 39999;                                 /* 20 ms period */
    TCCR1A = _BV(WGM11);                          /* fast PWM, TOP = ICR1, pin off */
    TCCR1B = CLOCK_ON;
    TIMSK1 = _BV(TOIE1);
}

static void apply(uint16_t tenths)
{
    OCR1A = 1000 + (uint16_t)((uint32_t)tenths * 20 / 9);   /* 500 us + tenths * 2000/1800 us */
    TCCR1A |= _BV(COM1A1);
    /* Restarting the clock costs the chip one tick; simavr 1.6 takes a new OCR1A into its
     * PWM model only when the clock is configured. */
    TCCR1B = CLOCK_OFF;
    TCCR1B = CLOCK_ON;
}

void servo_set(uint16_t tenths)
{
    uint8_t sreg = SREG;
    cli();
    if (now == SERVO_NONE)
        now = tenths;              /* position unknown after power-up: go straight there */
    target = tenths;
    hold = HOLD_PERIODS;
    moved = 1;
    SREG = sreg;
}

ISR(TIMER1_OVF_vect)
{
    if (target == SERVO_NONE || !hold)
        return;
    if (now < target)
        now = (target - now > STEP_TENTHS) ? now + STEP_TENTHS : target;
    else if (now > target)
        now = (now - target > STEP_TENTHS) ? now - STEP_TENTHS : target;
    else if (!moved && --hold == 0) {
        servo_rest();
        return;
    }
    if (moved || now != target || hold == HOLD_PERIODS)
        apply(now);
    moved = 0;
}

void servo_rest(void)
{
    hold = 0;
    TCCR1A &= ~(_BV(COM1A1) | _BV(COM1A0));
}

uint16_t servo_target(void)
{
    return target;
}

uint16_t servo_now(void)
{
    return now;
}

uint8_t servo_settled(void)
{
    return target != SERVO_NONE && now == target && hold != HOLD_PERIODS;
}

uint8_t servo_pulsing(void)
{
    return (TCCR1A & _BV(COM1A1)) != 0;
}
