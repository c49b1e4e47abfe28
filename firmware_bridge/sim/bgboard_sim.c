/* bgboard_sim: runs the bgboard firmware .elf on a simulated ATmega328P at 16 MHz (libsimavr),
 * bridges its UART to a pty and watches its pins: the WS2812 data line (PD6) is decoded into
 * LED colours and the servo line (PB1) into an angle, written as JSON to the state file on
 * every change. Simulated time is locked to the wall clock, so the UART's simulated baud rate
 * is the real one.
 *
 * The pty bridge runs in the simulation thread. (simavr's uart_pty part feeds received bytes
 * from its own thread, racing the simulation: under a burst the UART stopped receiving.)
 * Received bytes enter the UART one per byte time, at the pace of simavr's UART model.
 *
 * usage: bgboard_sim FIRMWARE.elf [--state FILE] [--link PATH]
 * First stdout line: "pty: PATH". Standard input takes "press N [MS]": button N (0..4) held
 * MS milliseconds (default 80).
 * SIGTERM / SIGINT stop it cleanly. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pty.h>
#include <termios.h>

#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"

#define FREQUENCY 16000000
#define MAX_LEDS 30
#define BUTTONS 5
#define LATCH_CYCLES (FREQUENCY / 20000)     /* 50 us low latches the strip */
#define SYNC_CYCLES (FREQUENCY / 1000)       /* lock to the wall clock every simulated ms */
#define POLL_CYCLES (FREQUENCY / 5000)       /* read the pty every 200 us */
#define UCSR0A_ADDR 0xC0
#define UBRR0L_ADDR 0xC4
#define UBRR0H_ADDR 0xC5

static volatile sig_atomic_t stop;
static avr_t *avr;
static const char *state_path;

static struct {
    uint8_t bits[MAX_LEDS * 3];
    unsigned count;              /* bits received in the current frame */
    avr_cycle_count_t rise, fall;
    int high;
    unsigned longest_low_ns;     /* between two bits of one frame */
    uint8_t leds[MAX_LEDS][3];   /* what the strip shows */
    unsigned shown;              /* LEDs that ever latched */
    unsigned frames, timing_errors, overflows;
} strip;

static struct {
    avr_cycle_count_t rise;
    int high;
    int tenths;                  /* -1 before the first pulse */
} servo = {0, 0, -1};

static void write_state(void)
{
    if (!state_path)
        return;
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.tmp%d", state_path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "bgboard_sim: cannot write %s: %s\n", tmp, strerror(errno));
        return;
    }
    fputs("{\"leds\": [", f);
    for (unsigned i = 0; i < strip.shown; i++)
        fprintf(f, "%s[%d, %d, %d]", i ? ", " : "", strip.leds[i][0], strip.leds[i][1],
                strip.leds[i][2]);
    if (servo.tenths < 0)
        fputs("], \"servo_deg\": null}\n", f);
    else
        fprintf(f, "], \"servo_deg\": %d.%d}\n", servo.tenths / 10, servo.tenths % 10);
    fclose(f);
    rename(tmp, state_path);
}

/* The strip latches: each LED takes the next 24 bits (green, red, blue); LEDs that got no
 * complete 24 bits keep their colour, as on a real strip. */
static avr_cycle_count_t strip_latch(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a, (void)when, (void)param;
    unsigned n = strip.count / 24;
    int changed = 0;
    for (unsigned i = 0; i < n; i++) {
        uint8_t rgb[3] = {strip.bits[3 * i + 1], strip.bits[3 * i], strip.bits[3 * i + 2]};
        changed |= memcmp(strip.leds[i], rgb, 3) != 0;
        memcpy(strip.leds[i], rgb, 3);
    }
    if (n > strip.shown) {
        strip.shown = n;
        changed = 1;
    }
    strip.frames++;
    strip.count = 0;
    memset(strip.bits, 0, sizeof(strip.bits));
    if (changed)
        write_state();
    return 0;
}

/* WS2812 timing: a 0 is high 250-550 ns, a 1 is high 650-950 ns; lows within a frame are
 * measured (the longest is reported: over ~5 us some strips latch early). */
static void strip_pin(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq, (void)param;
    if (!value == !strip.high)
        return;
    strip.high = value != 0;
    if (value) {
        strip.rise = avr->cycle;
        if (strip.count) {
            unsigned low = (unsigned)((avr->cycle - strip.fall) * 1000000000ULL / FREQUENCY);
            strip.longest_low_ns = low > strip.longest_low_ns ? low : strip.longest_low_ns;
        }
        avr_cycle_timer_cancel(avr, strip_latch, NULL);
        return;
    }
    strip.fall = avr->cycle;
    unsigned ns = (unsigned)((avr->cycle - strip.rise) * 1000000000ULL / FREQUENCY);
    int bit = ns >= 600;
    if (!((ns >= 250 && ns <= 550) || (ns >= 650 && ns <= 950)))
        strip.timing_errors++;
    if (strip.count < MAX_LEDS * 24) {
        if (bit)
            strip.bits[strip.count / 8] |= 0x80 >> (strip.count % 8);
        strip.count++;
    } else {
        strip.overflows++;
    }
    avr_cycle_timer_register(avr, LATCH_CYCLES, strip_latch, NULL);
}

/* Servo: a 500-2500 us pulse is 0-180 degrees. */
static void servo_pin(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq, (void)param;
    if (!value == !servo.high)
        return;
    servo.high = value != 0;
    if (value) {
        servo.rise = avr->cycle;
        return;
    }
    long us10 = (long)((avr->cycle - servo.rise) * 10000000ULL / FREQUENCY);
    if (us10 < 4000 || us10 > 26000)
        return;
    int tenths = (int)((us10 - 5000) * 1800 / 20000);
    if (tenths < 0)
        tenths = 0;
    if (tenths > 1800)
        tenths = 1800;
    if (tenths != servo.tenths) {
        servo.tenths = tenths;
        write_state();
    }
}

static struct {
    int master;
    char name[64];
    uint8_t ring[1 << 16];
    unsigned head, tail;
    int feeding;
    avr_irq_t *input;
} line;

/* One byte time as simavr's UART model counts it: 11 bits at the baud rate UBRR0 sets. */
static avr_cycle_count_t byte_cycles(void)
{
    unsigned ubrr = avr->data[UBRR0L_ADDR] | (avr->data[UBRR0H_ADDR] << 8);
    unsigned divider = (avr->data[UCSR0A_ADDR] & 2) ? 8 : 16;
    return (avr_cycle_count_t)11 * divider * (ubrr + 1);
}

static avr_cycle_count_t line_feed(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a, (void)param;
    if (line.head == line.tail) {
        line.feeding = 0;
        return 0;
    }
    avr_raise_irq(line.input, line.ring[line.tail++ % sizeof(line.ring)]);
    return when + byte_cycles();
}

static avr_cycle_count_t line_poll(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a, (void)param;
    uint8_t buf[512];
    unsigned room = sizeof(line.ring) - (line.head - line.tail);
    ssize_t n = read(line.master, buf, room < sizeof(buf) ? room : sizeof(buf));
    for (ssize_t i = 0; i < n; i++)
        line.ring[line.head++ % sizeof(line.ring)] = buf[i];
    if (line.head != line.tail && !line.feeding) {
        line.feeding = 1;
        avr_cycle_timer_register(avr, 1, line_feed, NULL);
    }
    return when + POLL_CYCLES;
}

/* Bytes the firmware sends go out at once (the UART model paces them); with no reader they
 * pile up in the pty until it is full, then they are lost, as on a real line. */
static void line_output(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq, (void)param;
    uint8_t byte = value;
    if (write(line.master, &byte, 1) != 1 && errno != EAGAIN)
        fprintf(stderr, "bgboard_sim: pty write: %s\n", strerror(errno));
}

/* The slave end stays open here too, so the line survives the host closing and reopening. */
static int line_open(void)
{
    int slave;
    struct termios tio;
    if (openpty(&line.master, &slave, line.name, NULL, NULL) != 0)
        return -1;
    tcgetattr(slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(slave, TCSANOW, &tio);
    fcntl(line.master, F_SETFL, fcntl(line.master, F_GETFL) | O_NONBLOCK);
    uint32_t flags = 0;                       /* no stdio echo of what the firmware sends */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    line.input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            line_output, NULL);
    avr_cycle_timer_register(avr, POLL_CYCLES, line_poll, NULL);
    return 0;
}

static void set_button(int i, int level)
{
    avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('C'), i), level);
}

static int pressed_button = -1;
static unsigned held_ms;

/* A press bounces for 2 ms, is held `held_ms` and released. */
static avr_cycle_count_t button_step(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a, (void)when;
    int step = (int)(intptr_t)param;
    set_button(pressed_button, step == 0 || step == 2 ? 0 : 1);
    if (step == 3) {
        pressed_button = -1;
        return 0;
    }
    avr_cycle_count_t wait = (avr_cycle_count_t)FREQUENCY / 1000 * (step == 2 ? held_ms : 1);
    avr_cycle_timer_register(avr, wait, button_step, (void *)(intptr_t)(step + 1));
    return 0;
}

static void read_commands(void)
{
    static char line[128];
    static size_t len;
    static int eof;
    struct pollfd ready = {.fd = 0, .events = POLLIN};
    if (!eof && len < sizeof(line) - 1 && poll(&ready, 1, 0) > 0) {
        ssize_t n = read(0, line + len, sizeof(line) - 1 - len);
        eof = n == 0;
        len += n > 0 ? n : 0;
    }
    char *nl;
    while (pressed_button < 0 && (nl = memchr(line, '\n', len))) {   /* one press at a time */
        *nl = 0;
        int b, ms = 80;
        if (sscanf(line, "press %d %d", &b, &ms) >= 1 && b >= 0 && b < BUTTONS && ms > 0) {
            pressed_button = b;
            held_ms = ms;
            button_step(avr, avr->cycle, 0);
        } else {
            fprintf(stderr, "bgboard_sim: ignored command: %s\n", line);
        }
        len -= nl + 1 - line;
        memmove(line, nl + 1, len);
    }
    if (len == sizeof(line) - 1)
        len = 0;
}

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

static void no_sleep(avr_t *a, avr_cycle_count_t how_long)
{
    (void)a, (void)how_long;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Sleep while simulated time is ahead of the wall clock; returns the lag behind it, s. */
static double lock_to_wall_clock(double start, avr_cycle_count_t base)
{
    double ahead = (double)(avr->cycle - base) / FREQUENCY - (now_s() - start);
    if (ahead > 0) {
        struct timespec ts = {0, (long)(ahead * 1e9)};
        nanosleep(&ts, NULL);
        return 0;
    }
    return -ahead;
}

static void make_link(const char *link, const char *target)
{
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.tmp%d", link, (int)getpid());
    unlink(tmp);
    if (symlink(target, tmp) != 0 || rename(tmp, link) != 0)
        fprintf(stderr, "bgboard_sim: cannot link %s: %s\n", link, strerror(errno));
}

static void remove_link(const char *link, const char *target)
{
    char buf[256];
    ssize_t n = readlink(link, buf, sizeof(buf) - 1);
    if (n > 0) {
        buf[n] = 0;
        if (strcmp(buf, target) == 0)
            unlink(link);
    }
}

int main(int argc, char **argv)
{
    const char *elf = NULL, *link = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--state") && i + 1 < argc)
            state_path = argv[++i];
        else if (!strcmp(argv[i], "--link") && i + 1 < argc)
            link = argv[++i];
        else if (argv[i][0] != '-' && !elf)
            elf = argv[i];
        else {
            fprintf(stderr, "usage: %s FIRMWARE.elf [--state FILE] [--link PATH]\n", argv[0]);
            return 2;
        }
    }
    if (!elf) {
        fprintf(stderr, "usage: %s FIRMWARE.elf [--state FILE] [--link PATH]\n", argv[0]);
        return 2;
    }
    if (fcntl(0, F_GETFD) == -1)              /* keep fd 0 from becoming the pty */
        open("/dev/null", O_RDONLY);
    signal(SIGTTIN, SIG_IGN);                 /* run in the background of a shell: reads fail */
    /* simavr chatters on stdout; keep stdout for our own first line. */
    int out = dup(1);
    dup2(2, 1);

    elf_firmware_t fw;
    memset(&fw, 0, sizeof(fw));
    if (elf_read_firmware(elf, &fw) != 0) {
        fprintf(stderr, "bgboard_sim: cannot read firmware %s\n", elf);
        return 2;
    }
    strcpy(fw.mmcu, "atmega328p");
    fw.frequency = FREQUENCY;
    avr = avr_make_mcu_by_name(fw.mmcu);
    if (!avr || avr_init(avr) != 0) {
        fprintf(stderr, "bgboard_sim: simavr has no atmega328p\n");
        return 2;
    }
    avr_load_firmware(avr, &fw);
    avr->sleep = no_sleep;

    if (line_open() != 0) {
        fprintf(stderr, "bgboard_sim: cannot open a pty: %s\n", strerror(errno));
        return 2;
    }
    const char *path = line.name;

    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 6), strip_pin, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 1), servo_pin, NULL);
    for (int i = 0; i < BUTTONS; i++)
        set_button(i, 1);

    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    /* Boot the firmware (it clocks out a dark strip) before anyone sees the pty. */
    int state = cpu_Running;
    while (!strip.frames && avr->cycle < FREQUENCY / 10 && state != cpu_Crashed)
        state = avr_run(avr);
    write_state();
    if (link)
        make_link(link, path);
    dprintf(out, "pty: %s\n", path);
    close(out);

    double start = now_s(), lag = 0;
    avr_cycle_count_t base = avr->cycle, next_sync = base + SYNC_CYCLES;
    while (!stop && state != cpu_Done && state != cpu_Crashed) {
        state = avr_run(avr);
        if (avr->cycle >= next_sync) {
            next_sync = avr->cycle + SYNC_CYCLES;
            double l = lock_to_wall_clock(start, base);
            lag = l > lag ? l : lag;
            read_commands();
        }
    }
    double wall = now_s() - start;
    fprintf(stderr, "bgboard_sim: %.3f s simulated in %.3f s, max lag %.3f s; ws2812: %u frames, "
            "%u timing errors, %u overflow bits, longest low %u ns\n", (double)avr->cycle / FREQUENCY,
            wall, lag, strip.frames, strip.timing_errors, strip.overflows, strip.longest_low_ns);
    if (link)
        remove_link(link, path);
    return state == cpu_Crashed ? 1 : 0;
}
