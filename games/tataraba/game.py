"""The :class:`Tataraba` game: decisions, moves and results over the rules in ``rules.py``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from games.core import (
    Decision,
    Event,
    Game,
    IllegalMove,
    Move,
    N,
    Option,
    Outcome,
    Result,
    Rng,
    T,
    Text,
    player_ref,
)
from games.tataraba import rules
from games.tataraba.ai import choose
from games.tataraba.board import CELLS, layout_for, tile_index, tile_name
from games.tataraba.data import (
    BOARDS_FOR,
    CEDAR,
    EIDAI,
    EIDAI_COST,
    FOOT_MAX,
    LOG_FEE,
    PINE,
    TATARA,
    TATARA_COST,
    TREE_TEXT,
    shift_cards,
)
from games.tataraba.help import RULES_HELP, TOPIC_NAMES
from games.tataraba.state import Seat, TatarabaOptions, TatarabaState

KIND_OF = {"pine": PINE, "cedar": CEDAR}


class Tataraba(Game):
    """Forest of Tataraba (``shared/rules/tataraba.md``, RULINGS FT-1..FT-10, C-1..C-4)."""

    id = "tataraba"
    title = T("Forest of Tataraba")
    min_players = 2
    max_players = 4
    Options = TatarabaOptions
    State = TatarabaState
    summary = T("Plant, log and trade wood in a shifting forest; first to raise an Eidai Tatara (10 Sen, 10 material) "
                "wins.")
    score_unit = T("Sen")
    rules_help = RULES_HELP
    rules_topics = TOPIC_NAMES

    # -- setup ---------------------------------------------------------------------------------------------------
    def setup(self, players: list[str], options: BaseModel | dict | None, seed: int) -> TatarabaState:
        """A new game: boards and Evergreens laid out (FT-1, FT-2), the shift deck shuffled and one card per player
        revealed for information (FT-7); the first seat is the starting player and places the first Tatara.
        Raises ``ValueError`` for a bad player list or a layout that does not fit the player count."""
        return self.begin(players, options, seed).state

    def begin(self, players: list[str], options: BaseModel | dict | None, seed: int) -> Outcome:
        """:meth:`setup` and what the table sees it do: one ``reveal`` event with the cards revealed for information
        before the first round (rulebook "Reveal shift card", FT-7), e.g. "Shift cards revealed before the first
        round (they only inform, nothing grows): 2, 0." Raises ``ValueError`` as :meth:`setup`."""
        self.check_players(players)
        opts = self.options(options)
        n = len(players)
        layout = layout_for(n, opts.layout)
        rng = Rng(seed=seed)
        state = TatarabaState(
            players=list(players),
            rng=rng,
            layout=layout,
            round_limit=opts.round_limit,
            tiles=rules.new_tiles(layout, BOARDS_FOR[n]),
            seats=[Seat() for _ in players],
            deck=[],
        )
        state.deck = state.rng.shuffled(shift_cards(n))
        events: list[Event] = []
        rules.reveal(state, events)
        cards = Text.join(rules.COMMA, [str(c) for c in state.shown])
        first = events[-1]  # the reveal (a fresh deck never runs out here)
        first.text = T("Shift cards revealed before the first round (they only inform, nothing grows): {cards}.",
                       cards=cards)
        return Outcome(state=state, events=events)

    # -- decisions -----------------------------------------------------------------------------------------------
    def pending(self, state: TatarabaState) -> list[Decision]:
        d = decision(state)
        return [d] if d is not None else []

    def apply(self, state: TatarabaState, move: Move) -> Outcome:
        """Answer the pending decision. ``IllegalMove`` (state unchanged) for a move that is not listed now."""
        _, opt = self.find_decision(state, move)
        if opt is None:  # a timeout: no decision here has a deadline, so find_decision refuses it first
            raise IllegalMove(T("Nothing is waiting on a deadline."))
        new = clone(state)
        events: list[Event] = []
        perform(new, opt.id, events)
        settle(new, events)
        return Outcome(state=new, events=events)

    def result(self, state: TatarabaState) -> Result | None:
        """Winners and ranking once the game is over (rulebook "End of the Game"): Eidai builders first, then more
        Sen, then more building material, else shared. ``scores`` are Sen; ``standings`` name them, the Eidai
        builders and the material that breaks ties (``"Eidai Tatara, 0 Sen, 5 material"``, ``"4 Sen, 2 material"``)."""
        if state.phase != "over":
            return None
        groups = [[state.players[i] for i in g] for g in rules.ranking(state)]
        builders = [p for p, s in zip(state.players, state.seats, strict=True) if s.eidai == 0]
        winners = groups[0]
        names = Text.join(rules.COMMA, [player_ref(p) for p in winners])
        if state.end == "eidai" and len(builders) == 1:
            reason = T("{players} built the Eidai Tatara.", players=names)
        elif state.end == "eidai":
            reason = T("Several Eidai Tataras: most Sen, then material, wins: {players}.", players=names)
        else:
            why = rules.ENDINGS[state.end]
            if state.end == "limit":
                why = T("{ending} ({rounds})", ending=why, rounds=N("{n} round", "{n} rounds", n=state.round_limit))
            reason = T("{ending}: most Sen, then material, wins: {players}.", ending=why, players=names)

        def score(i: int) -> Text:
            s = state.seats[i]
            if s.eidai == 0:
                return T("{player} (Eidai Tatara) {sen} Sen {mat} material", player=player_ref(state.players[i]),
                         sen=s.sen, mat=s.mat)
            return T("{player} {sen} Sen {mat} material", player=player_ref(state.players[i]), sen=s.sen, mat=s.mat)

        standing = Text.join(rules.COMMA, [score(i) for g in rules.ranking(state) for i in g])
        reason = T("{reason} Scores are Sen: {standings}.", reason=reason, standings=standing)
        return Result(
            winners=winners,
            ranking=groups,
            scores={p: s.sen for p, s in zip(state.players, state.seats, strict=True)},
            reason=reason,
            standings={p: T("Eidai Tatara, {sen} Sen, {mat} material", sen=s.sen, mat=s.mat) if s.eidai == 0
                       else T("{sen} Sen, {mat} material", sen=s.sen, mat=s.mat)
                       for p, s in zip(state.players, state.seats, strict=True)},
        )

    def status(self, state: TatarabaState) -> str:
        parts = []
        for p, s in zip(state.players, state.seats, strict=True):
            parts.append(T("{player} {sen} Sen {mat} mat {foot} foot", player=player_ref(p), sen=s.sen, mat=s.mat,
                           foot=s.foot))
        if state.phase == "over":
            res = self.result(state)
            head = T("Game over: {reason}", reason=res.reason) if res else T("Game over")
        elif state.phase == "place":
            head = T("Setup: {player} places a Tatara", player=player_ref(state.players[state.turn]))
        else:
            head = T("Round {round}: {player} to play", round=state.round, player=player_ref(state.players[state.turn]))
        return T("{head} | {seats} | Beech left {beech}, deck {deck}", head=head, seats=Text.join(" | ", parts),
                 beech=state.beech, deck=len(state.deck))

    def greedy(self, state: TatarabaState, decision: Decision, rng: Any) -> str | None:
        """The greedy player's option (``ai.choose``): build as soon as possible, log what is needed most."""
        return choose(state, decision, rng)


# -- decisions ---------------------------------------------------------------------------------------------------


def clone(state: TatarabaState) -> TatarabaState:
    """A deep copy of ``state`` (equal to ``state.model_copy(deep=True)``, several times faster): every mutable
    part — tiles, seats, deck, card piles, rng — is copied; strings and ints are immutable."""
    rng = state.rng.model_copy(update={"forced": list(state.rng.forced)})
    return state.model_copy(
        update={
            "players": list(state.players),
            "rng": rng,
            "tiles": list(state.tiles),
            "seats": [s.model_copy() for s in state.seats],
            "deck": list(state.deck),
            "shown": list(state.shown),
            "used": list(state.used),
        }
    )


@lru_cache(maxsize=8192)
def _opt(id: str, label: str, locus: str | None = None, short: str | None = None) -> Option:  # noqa: A002
    """A shared :class:`Option` (frozen, so one instance serves every decision that lists it; hot path).
    ``locus``: ``tile:k-n``, the tile the option refers to (the renderer marks it); ``short``: its button's words
    when the label is long (``Option.short``)."""
    return Option(id=id, label=label, locus=locus, short=short)


@lru_cache(maxsize=1024)
def _tile_opt(t: int, foot: int | None = None) -> Option:
    """A tile's option: its name, with the Foot markers a move there costs when ``foot`` is given."""
    name = tile_name(t)
    if foot is None:
        label = T("{tile}", tile=name)
    elif foot:
        label = N("{tile} ({n} Foot marker)", "{tile} ({n} Foot markers)", n=foot, tile=name)
    else:
        label = T("{tile} (free)", tile=name)
    return _opt(id=f"tile:{name}", label=label, locus=f"tile:{name}")


def decision(state: TatarabaState) -> Decision | None:
    """The decision the game waits for, or None when it is over. Ids: ``tile:k-n`` (place, move, build),
    ``plant`` / ``log`` / ``foot`` (action), ``pine:k-n`` / ``cedar:k-n`` (plant), ``sen:k-n`` / ``mat:k-n`` (log),
    ``tatara`` / ``eidai`` / ``end`` (special)."""
    phase = state.phase
    if phase == "over":
        return None
    seat = state.turn
    pid = state.players[seat]
    who = player_ref(pid)
    me = state.seats[seat]
    if phase == "place":
        opts = [_tile_opt(t) for t in rules.open_tiles(state)]
        return Decision(
            player=pid,
            kind="place",
            prompt=T("{player}: where do you place your first Tatara (and your Player piece)?", player=who),
            options=opts,
        )
    if phase == "move":
        dest = rules.destinations(state, seat)
        opts = [_tile_opt(t, c) for t, c in sorted(dest.items())]
        return Decision(
            player=pid,
            kind="move",
            prompt=N("{player}: move your piece from {tile} (you hold {n} Foot marker).",
                     "{player}: move your piece from {tile} (you hold {n} Foot markers).", n=me.foot, player=who,
                     tile=tile_name(me.pos)),
            options=opts,
        )
    if phase == "action":
        n = state.actions_per_turn - state.actions + 1
        opts = []
        if rules.plant_targets(state, seat):
            opts.append(_opt(id="plant", label=T("Plant a Red Pine or Cedar")))
        if rules.log_targets(state, seat):
            opts.append(_opt(id="log", label=T("Log an adult tree")))
        foot = T("Take a Foot marker") if me.foot < FOOT_MAX else T("Skip (you hold {n} Foot markers)", n=FOOT_MAX)
        opts.append(_opt(id="foot", label=foot))
        return Decision(
            player=pid, kind="action", options=opts,
            prompt=T("{player}: action {n} of {total}.", player=who, n=n, total=state.actions_per_turn),
        )
    if phase == "plant":
        opts = [
            _opt(
                id=f"{'pine' if k == PINE else 'cedar'}:{tile_name(t)}",
                label=T("Red Pine at {tile}", tile=tile_name(t)) if k == PINE else T("Cedar at {tile}", tile=tile_name(t)),
                locus=f"tile:{tile_name(t)}",
            )
            for k, t in rules.plant_targets(state, seat)
        ]
        return Decision(player=pid, kind="plant", prompt=T("{player}: plant what, where?", player=who), options=opts)
    if phase == "log":
        opts = []
        for t, take in rules.log_targets(state, seat):
            code = state.tiles[t]
            owner = rules.owner_of(code)
            amount = dict(rules.YIELDS[code[0]])[take]
            got = T("{n} Sen", n=amount) if take == "sen" else T("{n} material", n=amount)
            what = rules.describe(code, state.players)
            # the button (Option.short): the tile is the marker's, the owner the one paid ("3 Sen, pay {@bob} 1 Sen")
            if owner not in (None, seat):
                label = T("{tree} at {tile}: {got}, pay {owner} {fee} Sen", tree=what, tile=tile_name(t), got=got,
                          owner=player_ref(state.players[owner]), fee=LOG_FEE)
                short = T("{got}, pay {owner} {fee} Sen", got=got, owner=player_ref(state.players[owner]), fee=LOG_FEE)
            else:
                label = T("{tree} at {tile}: {got}", tree=what, tile=tile_name(t), got=got)
                short = T("{tree}: {got}", tree=TREE_TEXT[code[0]], got=got)
            opts.append(
                _opt(
                    id=f"{take}:{tile_name(t)}",
                    label=label,
                    locus=f"tile:{tile_name(t)}",
                    short=short,
                )
            )
        return Decision(player=pid, kind="log", prompt=T("{player}: log which tree, for what?", player=who), options=opts)
    if phase == "special":
        opts = []
        if rules.can_build(state, seat, TATARA):
            opts.append(
                _opt(id="tatara", label=T("Build a Tatara ({sen} Sen, {mat} material)", sen=TATARA_COST[0],
                                          mat=TATARA_COST[1]))
            )
        if rules.can_build(state, seat, EIDAI):
            opts.append(
                _opt(
                    id="eidai",
                    label=T("Build the Eidai Tatara ({sen} Sen, {mat} material)", sen=EIDAI_COST[0], mat=EIDAI_COST[1]),
                    short=T("Build Eidai Tatara ({sen} Sen, {mat} material)", sen=EIDAI_COST[0], mat=EIDAI_COST[1]),
                )
            )
        opts.append(_opt(id="end", label=T("End your turn")))
        return Decision(
            player=pid, kind="special", prompt=T("{player}: a special action, or end your turn?", player=who),
            options=opts,
        )
    # tatara / eidai: where to build
    if phase == "tatara":
        prompt = T("{player}: where do you build your Tatara (any open tile)?", player=who)
    else:
        prompt = T("{player}: where do you build your Eidai Tatara (any open tile)?", player=who)
    return Decision(
        player=pid,
        kind="build",
        prompt=prompt,
        options=[_tile_opt(t) for t in rules.open_tiles(state)],
    )


def perform(state: TatarabaState, option: str, events: list[Event]) -> None:
    """Carry out a listed ``option`` of the pending decision on ``state`` (mutated)."""
    phase = state.phase
    head, _, arg = option.partition(":")
    tile = tile_index(arg) if arg else -1
    if phase == "place":
        seat = state.turn
        me = state.seats[seat]
        me.tatara -= 1
        me.pos = tile
        state.tiles[tile] = rules.building(TATARA, seat)
        events.append(
            Event(
                kind="place",
                text=T("{player} places a Tatara and their piece at {tile}.", player=player_ref(state.players[seat]),
                       tile=tile_name(tile)),
                data={"player": state.players[seat], "tile": tile_name(tile)},
            )
        )
        state.turn = (seat + 1) % len(state.players)
        if state.turn == state.start:
            state.round = 1
            events.append(
                Event(
                    kind="round",
                    text=T("Round {round}: {player} starts.", round=1, player=player_ref(state.players[state.start])),
                    data={"round": 1, "start": state.players[state.start]},
                )
            )
            rules.begin_turn(state, events)
    elif phase == "move":
        rules.do_move(state, tile, events)
    elif phase == "action":
        if head == "foot":
            rules.do_foot(state, events)
        else:
            state.phase = head  # type: ignore[assignment]
    elif phase == "plant":
        rules.do_plant(state, KIND_OF[head], tile, events)
    elif phase == "log":
        rules.do_log(state, tile, head, events)
    elif phase == "special":
        if head == "end":
            rules.end_turn(state, events)
        else:
            state.phase = head  # type: ignore[assignment]
    elif phase in ("tatara", "eidai"):
        rules.do_build(state, TATARA if phase == "tatara" else EIDAI, tile, events)
    else:  # pragma: no cover - find_decision refuses moves once the game is over
        raise IllegalMove(T("The game is over."))


def settle(state: TatarabaState, events: list[Event]) -> None:
    """C-3: while the pending decision has a single option, apply it without asking."""
    while True:
        d = decision(state)
        if d is None or len(d.options) != 1:
            return
        perform(state, d.options[0].id, events)


__all__ = ["CELLS", "Tataraba", "decision", "perform", "settle"]
