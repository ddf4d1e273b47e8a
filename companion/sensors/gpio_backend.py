"""Sensors wired straight to the Pi's GPIO, through gpiozero; "mock" is the same with gpiozero's MockFactory.

Each sensor is a DigitalInputDevice with its pull from the pin map and no `bounce_time` (the kit debounces).
The clock is read in gpiozero's callback, the moment the edge is seen. On a Pi 5 gpiozero uses lgpio,
which writes files into its working directory (LG_WD): run the service with a writable one.
"""
from __future__ import annotations

import warnings

from .pinmap import HEADER_GPIO_TO_PIN, SensorPins


NO_GPIO_LIBRARY = ("gpiozero has no GPIO library to use: on a Raspberry Pi, sudo apt install python3-lgpio "
                   "(systemd/install.sh does; a virtual environment sees it only if made with "
                   "--system-site-packages); on another machine, set sensors.backend = \"none\" "
                   "(`companion sensors test --backend mock` shows a demo)")


def _where(pins: SensorPins) -> str:
    return f"GPIO{pins.gpio}, pin {HEADER_GPIO_TO_PIN[pins.gpio]}"


class GpioBackend:
    name = "gpio"
    debounces = False

    def __init__(self, pin_factory=None):
        self.pin_factory = pin_factory
        self.devices: dict[str, object] = {}

    def start(self, kit) -> None:
        kit.pin_map.require("gpio")
        try:
            from gpiozero import DigitalInputDevice
            from gpiozero.exc import BadPinFactory, PinFactoryFallback
        except ImportError as exc:  # pragma: no cover - gpiozero is a dependency
            self._no_library(kit, list(kit.pin_map), f"gpiozero is not available: {exc}")
            return
        sensors = list(kit.pin_map)
        for n, pins in enumerate(sensors):
            where = _where(pins)
            pull_up = {"up": True, "down": False, "none": None}[pins.pull]
            try:
                with warnings.catch_warnings():  # one per GPIO library it cannot load, for every sensor again
                    warnings.simplefilter("ignore", PinFactoryFallback)
                    device = DigitalInputDevice(pins.gpio, pull_up=pull_up,
                                                active_state=True if pull_up is None else None,
                                                pin_factory=self.pin_factory)
            except BadPinFactory:  # the same for every pin: the rest are not tried
                self._no_library(kit, sensors[n:], NO_GPIO_LIBRARY)
                return
            except Exception as exc:  # noqa: BLE001 - any gpiozero failure degrades this one sensor
                kit.report(pins.name, "error", f"{pins.label} ({where}) cannot be opened: {exc}")
                continue
            self.devices[pins.name] = device
            line_low_when_active = pull_up is True  # gpiozero's "active" is the line low with a pull-up
            kit.initial(pins.name, self._sensor_active(pins, device.is_active, line_low_when_active), kit.clock(), where)
            device.when_activated = self._callback(kit, pins, True, line_low_when_active)
            device.when_deactivated = self._callback(kit, pins, False, line_low_when_active)

    @staticmethod
    def _no_library(kit, sensors: list[SensorPins], why: str) -> None:
        """What to do is said once, under "gpio"; each sensor it leaves unopened names it in a few words."""
        kit.report("gpio", "error", why)
        for pins in sensors:
            kit.report(pins.name, "error", f"{pins.label} ({_where(pins)}) not opened: no GPIO library, see gpio")

    @staticmethod
    def _sensor_active(pins: SensorPins, gpiozero_active: bool, line_low_when_active: bool) -> bool:
        line_high = gpiozero_active != line_low_when_active
        return line_high == pins.active_high

    def _callback(self, kit, pins: SensorPins, gpiozero_active: bool, line_low_when_active: bool):
        active = self._sensor_active(pins, gpiozero_active, line_low_when_active)
        name, clock, edge = pins.name, kit.clock, kit.edge

        def on_edge():
            edge(name, active, clock())

        return on_edge

    def close(self) -> None:
        for device in self.devices.values():
            try:
                device.close()
            except Exception:  # noqa: BLE001 - closing must finish for every device
                pass
        self.devices.clear()


class MockGpioBackend(GpioBackend):
    """backend "mock": gpiozero's MockFactory, with `set_line` to play a sensor's part."""

    name = "mock"

    def __init__(self):
        from gpiozero.pins.mock import MockFactory

        super().__init__(MockFactory())
        self._pins_map = None

    def start(self, kit) -> None:
        self._pins_map = kit.pin_map
        super().start(kit)

    def pin(self, name: str):
        return self.pin_factory.pin(self._pins_map.sensor(name).gpio)

    def set_sensor(self, name: str, active: bool) -> None:
        """Drive a sensor's mock line as the real sensor would: active means its `active` level."""
        pins = self._pins_map.sensor(name)
        pin = self.pin(name)
        pin.drive_high() if active == pins.active_high else pin.drive_low()

    def close(self) -> None:
        super().close()
        self.pin_factory.reset()
