# The sensor hub's logic, free of `machine`: it runs on the Pico and under CPython in the tests.
#
# Wire format, one ASCII line each, CRC-16/CCITT-FALSE over everything before the '*':
#   <seq> B <version> <ticks_period> <pinmap_id>*CRC                      once at boot
#   <seq> H <version> <ticks_period> <pinmap_id> <t_us> <dropped> <mask>*CRC   heartbeat
#   <seq> E <name> <1|0> <t_us>*CRC                                       a debounced edge: active or released
# seq counts 0..65535 and wraps; t_us is time.ticks_us() as is (it wraps at ticks_period); dropped counts
# edges lost because the interrupt buffer was full; mask has bit i set while input i is active.

VERSION = "1.0.1"
PROTOCOL = 1
HEARTBEAT_MS = 500
RING_SIZE = 256


def crc16(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def frame(seq, body):
    text = str(seq) + " " + body
    return text + "*" + "%04X" % crc16(text.encode()) + "\n"


class EdgeRing:
    """Edges stored by the interrupt handler without allocating; drained by the main loop."""

    def __init__(self, size):
        self.size = size
        self.t = [0] * size
        self.index = [0] * size
        self.level = [0] * size
        self.head = 0
        self.tail = 0
        self.dropped = 0

    def put(self, index, level, t):
        nxt = (self.head + 1) % self.size
        if nxt == self.tail:
            self.dropped += 1
            return
        self.t[self.head] = t
        self.index[self.head] = index
        self.level[self.head] = level
        self.head = nxt

    def get(self):
        if self.tail == self.head:
            return None
        i = self.tail
        item = (self.index[i], self.level[i], self.t[i])
        self.tail = (i + 1) % self.size
        return item


class Debounce:
    """Activation at once, timed at its first edge; release after `window_us` of quiet, timed at its
    last edge. Times are ticks_us values; `diff` is time.ticks_diff, so wrap-around is harmless."""

    def __init__(self, window_us, diff, active, t):
        self.window_us = window_us
        self.diff = diff
        self.active = active
        self.raw = active
        self.last_t = t

    def edge(self, active, t, out):
        self.settle(t, out)
        self.raw = active
        self.last_t = t
        if active and not self.active:
            self.active = True
            out.append((True, t))

    def settle(self, now, out):
        if self.active and not self.raw and self.diff(now, self.last_t) >= self.window_us:
            self.active = False
            out.append((False, self.last_t))


class Hub:
    def __init__(self, names, active_high, debounce_us, clock, pinmap_id, write, levels=None):
        self.names = names
        self.active_high = active_high
        self.clock = clock
        self.pinmap_id = pinmap_id
        self.write = write
        self.seq = 0
        self.ring = EdgeRing(RING_SIZE)
        self.period = clock.ticks_add(0, -1) + 1
        now = clock.ticks_us()
        levels = levels or [0] * len(names)
        self.inputs = [Debounce(debounce_us[i], clock.ticks_diff, levels[i] == active_high[i], now)
                       for i in range(len(names))]
        self.pins = [None] * len(names)
        self.next_heartbeat = clock.ticks_ms()
        self.send("B %s %d %s" % (VERSION, self.period, pinmap_id))

    def irq_handler(self, index, pin):
        self.pins[index] = pin
        ring, ticks_us = self.ring, self.clock.ticks_us

        def handler(_):
            ring.put(index, pin.value(), ticks_us())

        return handler

    def send(self, body):
        self.write(frame(self.seq, body))
        self.seq = (self.seq + 1) & 0xFFFF

    def step(self):
        out = []
        while True:
            item = self.ring.get()
            if item is None:
                break
            index, level, t = item
            out.clear()
            self.inputs[index].edge(level == self.active_high[index], t, out)
            self._send_edges(index, out)
        now = self.clock.ticks_us()
        for index in range(len(self.inputs)):
            out.clear()
            inp = self.inputs[index]
            pin = self.pins[index]
            if pin is not None:
                # an edge can be lost (the ring full, or MicroPython's scheduler queue full in a bounce storm):
                # the line's level as it is now, after every edge that came was taken, wins
                active = pin.value() == self.active_high[index]
                if active != inp.raw:
                    inp.edge(active, now, out)
            inp.settle(now, out)
            self._send_edges(index, out)
        now_ms = self.clock.ticks_ms()
        if self.clock.ticks_diff(now_ms, self.next_heartbeat) >= 0:
            self.next_heartbeat = self.clock.ticks_add(now_ms, HEARTBEAT_MS)
            mask = 0
            for index in range(len(self.inputs)):
                if self.inputs[index].active:
                    mask |= 1 << index
            self.send("H %s %d %s %d %d %d" % (VERSION, self.period, self.pinmap_id, self.clock.ticks_us(),
                                                self.ring.dropped, mask))

    def _send_edges(self, index, out):
        for active, t in out:
            self.send("E %s %d %d" % (self.names[index], 1 if active else 0, t))
