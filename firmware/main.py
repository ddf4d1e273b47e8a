# The Pico sensor hub: edges by interrupt, logic in hubcore, lines out over USB serial (see README.md).
import sys
import time

from machine import Pin

import hub_pins
import hubcore


def run(loops=-1):
    pulls = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN, "none": None}
    pins = [Pin(gp, Pin.IN, pulls[hub_pins.PULL[i]]) for i, gp in enumerate(hub_pins.GP)]
    hub = hubcore.Hub(hub_pins.NAMES, hub_pins.ACTIVE_HIGH, hub_pins.DEBOUNCE_US, time, hub_pins.PINMAP_ID,
                      sys.stdout.write, [p.value() for p in pins])
    for i, pin in enumerate(pins):
        pin.irq(handler=hub.irq_handler(i, pin), trigger=Pin.IRQ_RISING | Pin.IRQ_FALLING)
    led = Pin("LED", Pin.OUT)
    n = 0
    while loops < 0 or n < loops:
        hub.step()
        led.value(1 if (time.ticks_ms() // 500) % 2 else 0)
        time.sleep_ms(1)
        n += 1


if __name__ == "__main__":
    run()
