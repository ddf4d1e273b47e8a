"""The boards as a player sees them: numbers readable on every player's colour, and no two players alike."""
import itertools
import math
import re

import pytest

from companion.web.boards import FALLBACK, PALETTE, banana_matcho, magic_mountain, mountain_goats, player_colour


def contrast(a: str, b: str) -> float:
    def luminance(colour):
        digits = colour.lstrip("#")
        digits = "".join(d * 2 for d in digits) if len(digits) == 3 else digits
        channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted([luminance(a), luminance(b)], reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("colour", PALETTE)
def test_a_big_mountain_space_taken_by_any_colour_shows_its_number_and_the_goats_mountain_readably(colour):
    players = [{"name": "Ada", "colour": colour}, {"name": "Ben", "colour": "white" if colour != "white" else "red"}]
    state = {"board": {"spaces": {"5": 4, "6": 3}}, "variants": {"big_mountain": True}, "goats": [[0, 0], [0, 0]],
             "tokens_left": [3, 3], "big_mountain": [[17, 0, 5]]}
    drawn = mountain_goats(state, players)
    fill, ink = re.search(r'<rect[^>]*fill="(#\w+)"[^>]*/><text[^>]*fill="(#\w+)"[^>]*>17 ← 5<', drawn).groups()
    assert fill == PALETTE[colour] and contrast(fill, ink) >= 4.5


@pytest.mark.parametrize("ball", PALETTE)
def test_the_opening_the_ball_went_through_shows_its_number_readably(ball):
    state = {"board": {"path": ["red", "blue"] * 6, "openings": 6}, "opening": 3, "ball": ball, "positions": {}}
    drawn = magic_mountain(state, [{"name": "Ada"}, {"name": "Ben"}])
    fill, ink = re.search(r'<circle[^>]*fill="(#\w+)"[^>]*/><text[^>]*fill="(#\w+)"[^>]*>3<', drawn).groups()
    assert fill == PALETTE[ball] and contrast(fill, ink) >= 4.5


def test_a_player_without_a_colour_never_looks_like_one_who_chose_it():
    players = [{"name": "Ada"}, {"name": "Ben", "colour": "red"}, {"name": "Cleo", "colour": "teal"},
               {"name": "Dan", "colour": "blue"}]
    drawn = [player_colour(players, i) for i in range(len(players))]
    assert drawn[1] == PALETTE["red"] and drawn[3] == PALETTE["blue"]
    assert len(set(drawn)) == 4 and set(drawn[::2]) <= set(FALLBACK)


def test_a_player_with_every_goat_up_is_not_said_to_have_goats_at_the_foot():
    players = [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    state = {"board": {"spaces": {"5": 4, "6": 3}}, "goats": [[1, 1], [0, 2]], "tokens_left": [3, 3]}
    said = re.search(r'aria-label="([^"]*)"', mountain_goats(state, players)).group(1)
    assert "Ada (red): mountain 5 space 1, mountain 6 space 1;" in said
    assert "Ben (blue): mountain 6 space 2, the others at the foot" in said


SIX = [{"name": n, "colour": c} for n, c in zip(["Ada", "Ben", "Cy", "Dan", "Eve", "Fay"],
                                                 ["red", "blue", "green", "yellow", "purple", "orange"])]


@pytest.mark.parametrize("count", [2, 4, 5, 6])
def test_every_monkey_on_one_space_shows_its_initial(count):
    """Banana Matcho takes 2-6 players, who all start on the start space: no monkey is drawn over another."""
    drawn = banana_matcho({"top_space": 30, "positions": [0] * count}, SIX[:count])
    pieces = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"[^>]*/><text[^>]*>([A-F])</text>', drawn)
    assert sorted(letter for *_, letter in pieces) == [p["name"][0] for p in SIX[:count]]
    centres = [(float(x), float(y), float(r)) for x, y, r, _ in pieces]
    over = [(a, b) for i, a in enumerate(centres) for b in centres[i + 1:]
            if math.dist(a[:2], b[:2]) < a[2] + b[2] - 0.5]
    assert not over, f"monkeys drawn over one another: {over}"


def test_a_goat_on_the_big_mountain_carries_its_players_initial():
    players = [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    state = {"board": {"spaces": {"5": 4, "6": 3}}, "variants": {"big_mountain": True}, "goats": [[0, 0], [-1, 1]],
             "tokens_left": [3, 3], "big_mountain": [[17, 1, 5]]}
    drawn = mountain_goats(state, players)
    assert "Ben (blue): mountain 6 space 1, Big Mountain space 17" in drawn
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", drawn)
    assert texts.count("B") == 2, f"Ben's goats with a 'B': {texts.count('B')} of 2 ({texts})"


SIX = [{"name": n, "colour": c} for n, c in zip("ABCDEF", ["red", "blue", "green", "yellow", "purple", "orange"])]


def monkey_discs(svg):
    discs = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)" fill="([^"]+)" stroke="#222"', svg)
    return [(float(x), float(y), float(r)) for x, y, r, _ in discs]


@pytest.mark.parametrize("positions", [[3, 3, 3, 4, 4, 4], [3, 3, 3, 4, 4], [3, 3, 3, 3, 4, 4], [8, 8, 8, 9, 9, 9]])
def test_banana_monkeys_on_neighbouring_spaces_do_not_overlap(positions):
    """A child tells which space a monkey is on: monkeys of two neighbouring spaces never overlap."""
    svg = banana_matcho({"top_space": 30, "positions": positions}, SIX[:len(positions)])
    found = monkey_discs(svg)
    assert len(found) == len(positions)
    overlaps = [(a, b) for a, b in itertools.combinations(found, 2)
                if ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 < a[2] + b[2]]
    assert overlaps == [], f"monkeys {positions}: overlapping discs {overlaps}"


def test_no_two_banana_monkeys_overlap_anywhere_for_six_players():
    """Every placement of six monkeys near the start (spaces 0-8, two rows of the tree): no disc over another."""
    bad = []
    for positions in itertools.combinations_with_replacement(range(9), 6):
        found = monkey_discs(banana_matcho({"top_space": 30, "positions": list(positions)}, SIX))
        if any(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 < a[2] + b[2] - 0.01
               for a, b in itertools.combinations(found, 2)):
            bad.append(positions)
    assert not bad, f"{len(bad)} placements overlap, e.g. {bad[:5]}"
