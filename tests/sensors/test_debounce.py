from hypothesis import given, settings, strategies as st

from companion.sensors.debounce import Debouncer, Transition

WINDOW = 5_000_000


def test_press_is_reported_at_once_and_release_after_quiet():
    d = Debouncer(WINDOW)
    assert d.edge(True, 100) == [Transition(True, 100)]
    assert d.edge(False, 200) == []
    assert d.settle(200 + WINDOW - 1) == []
    assert d.settle(200 + WINDOW) == [Transition(False, 200)]


def test_zero_window_releases_at_once():
    d = Debouncer(0)
    assert d.edge(True, 1) == [Transition(True, 1)]
    assert d.edge(False, 2) == [Transition(False, 2)]


@settings(max_examples=200, deadline=None)
@given(gaps=st.lists(st.integers(1, WINDOW - 1), min_size=1, max_size=300))
def test_any_burst_with_gaps_shorter_than_the_window_is_one_press(gaps):
    d = Debouncer(WINDOW)
    t, level, out = 0, True, []
    out += d.edge(True, t)
    for gap in gaps:
        t += gap
        level = not level
        out += d.edge(level, t)
    out += d.settle(t + 10 * WINDOW)
    assert out[0] == Transition(True, 0)
    assert [tr for tr in out if tr.active] == [Transition(True, 0)]
    if level:
        assert len(out) == 1 and d.active
    else:
        assert out[1:] == [Transition(False, t)] and not d.active


@settings(max_examples=100, deadline=None)
@given(presses=st.lists(st.tuples(st.integers(WINDOW, 10**9), st.integers(1, 10**9)), min_size=1, max_size=30))
def test_clean_presses_separated_by_quiet_are_each_reported(presses):
    d = Debouncer(WINDOW)
    t, out, expected = 0, [], []
    for quiet, held in presses:
        t += quiet
        out += d.edge(True, t)
        expected.append(Transition(True, t))
        t += held
        out += d.edge(False, t)
        expected.append(Transition(False, t))
        t += WINDOW
        out += d.settle(t)
    assert out == expected
