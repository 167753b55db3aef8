"""1,000 random-legal games with the invariants checked at every step (tests/support.fuzz)."""

from __future__ import annotations

import pytest
from support import fuzz
from tataraba_support import GAME, check


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_random_games_keep_invariants(block):
    """1,000 games over 2-4 players (10 blocks of 100). Strict checks (JSON round-trip, no mutation of the input)
    on every 10th game, the invariants on all."""
    for k in range(100):
        seed = block * 100 + k
        final = fuzz(GAME, 2 + seed % 3, seed, check, strict=seed % 10 == 0)
        assert final.phase == "over" and final.end


def test_invariant_check_catches_broken_states():
    """The invariants can fail: a 19th Beech, negative Sen or material, a 5th Foot marker, a lost piece."""
    import pytest
    from tataraba_support import placed

    base = placed()
    check(base)
    breakers = [
        lambda s: setattr(s, "beech", 19),
        lambda s: setattr(s.seats[0], "sen", -1),
        lambda s: setattr(s.seats[1], "mat", -2),
        lambda s: setattr(s.seats[0], "foot", 5),
        lambda s: setattr(s.seats[1], "pine", 3),
        lambda s: s.tiles.__setitem__(4, "By-"),
        lambda s: s.deck.pop(),
    ]
    for breaker in breakers:
        s = base.model_copy(deep=True)
        breaker(s)
        with pytest.raises(AssertionError):
            check(s)
