"""The sensor kit: gpiozero devices, the Pico hub's host driver, debouncing and health."""
