import pytest

from companion.games import registry


@pytest.fixture(autouse=True)
def fake_race(monkeypatch):
    """Registers the test-only dice race as game "fake-race"."""
    monkeypatch.setitem(registry.GAME_MODULES, "fake-race", "tests.table.fakegame")
