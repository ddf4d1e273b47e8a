# Generated from the pin map by `python3 -m companion.sensors.hubpins PINMAP`: do not edit here.
PINMAP_ID = 'ba5b'
NAMES = ('banana', 'gate1', 'gate2', 'gate3', 'gate4', 'gate5', 'gate6', 'bottom', )
GP = (2, 3, 4, 5, 6, 7, 8, 9, )
ACTIVE_HIGH = (0, 0, 0, 0, 0, 0, 0, 0, )
PULL = ('up', 'up', 'up', 'up', 'up', 'up', 'up', 'up', )
DEBOUNCE_US = (30000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, )
