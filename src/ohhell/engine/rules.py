"""The rules of one game: the player count and every option of RULES.md, frozen and validated.

All derived facts (how many hands, each hand's size, whether a trump is turned) are methods of
:class:`Rules`; nothing else in the project re-derives them.

>>> rules = Rules(player_count=4)
>>> rules.hand_count, rules.hand_sizes()[:3], rules.hand_sizes()[-1]
(13, (1, 2, 3), 13)
>>> rules.has_trump(0), rules.has_trump(12)
(True, False)
>>> Rules(player_count=5, schedule=Schedule.UP_AND_DOWN).hand_sizes()
(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
>>> Rules(player_count=2)
Traceback (most recent call last):
...
ohhell.engine.errors.RulesError: player_count must be an integer from 3 to 7, got 2
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar, Final

from ohhell.engine.errors import RulesError
from ohhell.engine.jsontext import as_json, brief, json_kind
from ohhell.engine.wording import counted

__all__ = ["CONVENTIONS", "PRESETS", "BiddingMode", "Preset", "Rules", "Schedule"]

CONVENTIONS: Final[tuple[str, ...]] = (
    "cards are dealt one at a time, starting left of the dealer; the deal passes to the left",
    "no trump is turned when the deal empties the stock",
    "the winner of a trick leads the next one",
    "equal highest totals share the win",
    "under must_trump (La Podrida) any trump will do: there is no duty to over-trump",
    "every seat sees every card of the finished tricks of the hand being played, in order and by"
    " whom; earlier hands show only their scores",
    "under simultaneous bidding, which seats have bid is public; the numbers stay sealed until"
    " the last bid is in",
)
"""The points the rule documents leave open, as the engine settles them in every game (they are
not options; the option-like ones, such as playing the turning hand once, are :class:`Rules`
fields with their defaults). ``docs/rules.md`` gives each with its reason."""

HANDS_BY_PLAYER_COUNT: Final[Mapping[int, int]] = MappingProxyType(
    {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}
)
"""Number of hands (and the largest hand's size) by player count, from the rule documents."""


class Schedule(StrEnum):
    """The order of hand sizes over a game."""

    ASCENDING = "ascending"
    """Standard: 1 card, then 2, ... up to the largest hand."""
    DESCENDING = "descending"
    """Variant 1: the largest hand first, down to 1 card."""
    UP_AND_DOWN = "up-and-down"
    """Variant 2: 1 card up to the largest hand, then back down to 1."""
    DOWN_AND_UP = "down-and-up"
    """Variant 2: the largest hand down to 1, then back up to the largest."""
    CUSTOM = "custom"
    """Extension: the hand sizes listed in ``custom_hand_sizes`` (research, single hands)."""


class BiddingMode(StrEnum):
    """How bids are made."""

    SEQUENTIAL = "sequential"
    """Standard: from the dealer's left, clockwise; the dealer bids last; every bid is public."""
    SIMULTANEOUS = "simultaneous"
    """Variant 4: every seat bids secretly; all bids are revealed together."""


_SHOWN: ContextVar[Callable[[object], str]] = ContextVar("_SHOWN", default=brief)
"""How a message shows a bad value: as Python writes it (``True``, ``'yes'``) for rules built in
Python, as JSON writes it (``true``, ``"yes"``) while :meth:`Rules.from_dict` reads a rules
file or a record's ``rules``."""


def _shown(value: object) -> str:
    return _SHOWN.get()(value)


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be true or false, got {_shown(value)}", fields=(name,))


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """One game's configuration. Construct it directly, from a preset or from a dict.

    Every default is the standard game of RULES.md. Decisions on points the documents leave
    open are written next to each field; they are the project's documented conventions.
    """

    player_count: int
    """Number of seats, 3 to 7."""

    schedule: Schedule = Schedule.ASCENDING
    """Order of hand sizes (variants 1 and 2). The largest hand has 15/13/10/8/7 cards for
    3/4/5/6/7 players, and ascending and descending games have that many hands."""

    repeat_turning_hand: bool = False
    """Variant 2, convention: the turning hand of up-and-down / down-and-up is played once by
    default; ``True`` plays it twice (…, 12, 13, 13, 12, …). Only meaningful for those two
    schedules; with any other schedule it is a configuration error."""

    custom_hand_sizes: tuple[int, ...] = ()
    """Only with ``schedule=custom``: the hand sizes in order, each 1 to 52 // player_count."""

    trump_in_last_hand: bool = False
    """Extension, off by default. The documents play the last hand of the game without trump;
    ``True`` turns a trump in the last hand too (when the stock has a card), as OpenSpiel's
    single-hand ``oh_hell`` does."""

    hook: bool = False
    """Variant 3: the bids may not total the number of tricks; the last bidder is restricted.
    Refused with simultaneous bidding, where nobody bids last."""

    bidding: BiddingMode = BiddingMode.SEQUENTIAL
    """Variant 4: sequential (standard) or simultaneous sealed bids."""

    must_trump: bool = False
    """Variant 5, La Podrida: a seat that cannot follow suit must play a trump if it holds one.
    Convention: any trump satisfies it (there is no obligation to over-trump)."""

    missed_bid_scores_tricks: bool = False
    """Variant 6: a missed bid scores 1 point per trick won instead of 0."""

    zero_bid_bonus: bool = False
    """Variant 7: a made bid of zero scores 5 plus the hand size instead of 10. Combined with
    variant 6, a missed zero bid scores its tricks like any missed bid."""

    _sizes: tuple[int, ...] = field(init=False, repr=False, compare=False, default=())
    _before: tuple[int, ...] = field(init=False, repr=False, compare=False, default=())

    MIN_PLAYERS: ClassVar[int] = 3
    MAX_PLAYERS: ClassVar[int] = 7

    def __post_init__(self) -> None:
        count = self.player_count
        low, high = self.MIN_PLAYERS, self.MAX_PLAYERS
        if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
            raise RulesError(
                f"player_count must be an integer from {low} to {high}, got {_shown(count)}",
                fields=("player_count",),
            )
        for name, enum in (("schedule", Schedule), ("bidding", BiddingMode)):
            value = getattr(self, name)
            if not isinstance(value, enum):
                try:  # only text names a member; anything else is refused here, since the
                    # enum's own message writes it out whole (990 lists deep: RecursionError)
                    if not isinstance(value, str):
                        raise ValueError
                    object.__setattr__(self, name, enum(value))
                except ValueError:
                    allowed = ", ".join(member.value for member in enum)
                    raise RulesError(
                        f"{name} must be one of {allowed}; got {_shown(value)}", fields=(name,)
                    ) from None
        for name in (
            "repeat_turning_hand",
            "trump_in_last_hand",
            "hook",
            "must_trump",
            "missed_bid_scores_tricks",
            "zero_bid_bonus",
        ):
            _check_bool(name, getattr(self, name))
        self._check_schedule()
        if self.hook and self.bidding is BiddingMode.SIMULTANEOUS:
            raise RulesError(
                "hook cannot be combined with bidding=simultaneous: the hook restricts the last"
                " bidder, and simultaneous bidding has none",
                fields=("hook", "bidding"),
            )
        object.__setattr__(self, "_sizes", self._derive_hand_sizes())
        object.__setattr__(self, "_before", (0, *itertools.accumulate(self._sizes)))

    def _check_schedule(self) -> None:
        sizes = self.custom_hand_sizes
        if isinstance(sizes, list):
            sizes = tuple(sizes)
            object.__setattr__(self, "custom_hand_sizes", sizes)
        if not isinstance(sizes, tuple):
            raise RulesError(
                f"custom_hand_sizes must be a list of integers, got {_shown(sizes)}",
                fields=("custom_hand_sizes",),
            )
        if self.schedule is Schedule.CUSTOM:
            limit = 52 // self.player_count
            if not sizes:
                raise RulesError(
                    "schedule=custom needs custom_hand_sizes: a non-empty list",
                    fields=("schedule", "custom_hand_sizes"),
                )
            for size in sizes:
                if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= limit:
                    raise RulesError(
                        f"custom_hand_sizes entries must be integers from 1 to {limit} for"
                        f" {self.player_count} players, got {_shown(size)}",
                        fields=("custom_hand_sizes", "player_count"),
                    )
        elif sizes:
            raise RulesError(
                f"custom_hand_sizes is only allowed with schedule=custom, not {self.schedule}",
                fields=("custom_hand_sizes", "schedule"),
            )
        if self.repeat_turning_hand and self.schedule not in (
            Schedule.UP_AND_DOWN,
            Schedule.DOWN_AND_UP,
        ):
            raise RulesError(
                "repeat_turning_hand applies only to schedule=up-and-down or down-and-up,"
                f" not {self.schedule}",
                fields=("repeat_turning_hand", "schedule"),
            )

    # ----------------------------------------------------------------- derived facts

    @property
    def max_hand_size(self) -> int:
        """The largest hand of the schedule (15/13/10/8/7 cards for 3-7 players)."""
        if self.schedule is Schedule.CUSTOM:
            return max(self.custom_hand_sizes)
        return HANDS_BY_PLAYER_COUNT[self.player_count]

    def hand_sizes(self) -> tuple[int, ...]:
        """The number of cards dealt to each seat in each hand of the game, in order."""
        return self._sizes

    def _derive_hand_sizes(self) -> tuple[int, ...]:
        top = HANDS_BY_PLAYER_COUNT[self.player_count]
        up = tuple(range(1, top + 1))
        down = up[::-1]
        turn = 0 if self.repeat_turning_hand else 1
        match self.schedule:
            case Schedule.ASCENDING:
                return up
            case Schedule.DESCENDING:
                return down
            case Schedule.UP_AND_DOWN:
                return up + down[turn:]
            case Schedule.DOWN_AND_UP:
                return down + up[turn:]
            case Schedule.CUSTOM:
                return self.custom_hand_sizes
        raise AssertionError(self.schedule)  # pragma: no cover

    def cards_before(self, hand_index: int) -> int:
        """The cards dealt to each seat in all the hands before hand ``hand_index`` (0-based;
        the game's last index + 1 for all of them), kept with the rules: asked at every
        decision, it costs the same in a game of thousands of hands.

        >>> Rules(player_count=4).cards_before(0), Rules(player_count=4).cards_before(3)
        (0, 6)
        >>> Rules(player_count=4).cards_before(-1)
        Traceback (most recent call last):
        ...
        IndexError: no hand -1: the hands are 0 to 12 (0-based), and 13 is the game's end
        """
        self._check_hand_index(hand_index, end=True)
        return self._before[hand_index]

    def _check_hand_index(self, hand_index: int, *, end: bool = False) -> None:
        """Refuse what is not a hand of these rules (0-based; with ``end``, the index past the
        last hand too): a ``TypeError`` or an ``IndexError`` saying so, never a hand counted
        from the end."""
        if isinstance(hand_index, bool) or not isinstance(hand_index, int):
            raise TypeError(f"a hand index is an int, got {hand_index!r}")
        if not 0 <= hand_index < self.hand_count + end:
            past = f", and {self.hand_count} is the game's end" if end else ""
            raise IndexError(
                f"no hand {hand_index}: the hands are 0 to {self.hand_count - 1} (0-based){past}"
            )

    @property
    def hand_count(self) -> int:
        """Number of hands in the game."""
        return len(self._sizes)

    def hand_size(self, hand_index: int) -> int:
        """Cards dealt to each seat in hand ``hand_index`` (0-based: from 0 to ``hand_count``
        less one; another index is an ``IndexError`` saying so, never a hand counted from the
        end)."""
        self._check_hand_index(hand_index)
        return self._sizes[hand_index]

    def has_trump(self, hand_index: int) -> bool:
        """Whether a trump card is turned in hand ``hand_index`` (0-based).

        None in the last hand of the game (unless ``trump_in_last_hand``), and none when the deal
        leaves the stock empty (convention; with 4 players the 13-card hand uses the whole deck).
        """
        size = self.hand_size(hand_index)  # the index checked
        if hand_index == self.hand_count - 1 and not self.trump_in_last_hand:
            return False
        return size * self.player_count < 52

    def dealer(self, first_dealer: int, hand_index: int) -> int:
        """The dealer of hand ``hand_index`` (0-based): the seat left of the previous dealer.
        An index past the last hand is the seat that would deal next (a finished game's).

        >>> Rules(player_count=4).dealer(3, 2)
        1
        >>> Rules(player_count=4).dealer(0, 1.5)
        Traceback (most recent call last):
        ...
        TypeError: a hand index is an int, got 1.5
        """
        if type(first_dealer) is not int or not 0 <= first_dealer < self.player_count:
            raise RulesError(  # as new_game says it
                f"first_dealer must be a seat from 0 to {self.player_count - 1},"
                f" got {brief(first_dealer)}"
            )
        if isinstance(hand_index, bool) or not isinstance(hand_index, int):
            raise TypeError(f"a hand index is an int, got {brief(hand_index)}")
        if hand_index < 0:
            raise ValueError(f"a hand index is 0 or more (0-based), got {hand_index}")
        return (first_dealer + hand_index) % self.player_count

    # ----------------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """A stable, JSON-ready dict of every field (enums as their string values)."""
        out: dict[str, Any] = {}
        for option in fields(self):
            if not option.init:
                continue
            value = getattr(self, option.name)
            if isinstance(value, StrEnum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[option.name] = value
        return out

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Build rules from a dict as :meth:`to_dict` writes it; missing keys take defaults.

        Unknown keys are an error naming the key and the allowed ones. The dict is read as JSON
        (a rules file, a record's ``rules``), so a bad value is shown as JSON writes it.

        >>> Rules.from_dict({"player_count": 4, "hook": True}).hook
        True
        >>> Rules.from_dict({"player_count": True})
        Traceback (most recent call last):
        ...
        ohhell.engine.errors.RulesError: player_count must be an integer from 3 to 7, got true
        >>> Rules.from_dict({"player_count": 4, "hoook": True})
        Traceback (most recent call last):
        ...
        ohhell.engine.errors.RulesError: unknown rules option 'hoook'; allowed: player_count, \
schedule, repeat_turning_hand, custom_hand_sizes, trump_in_last_hand, hook, bidding, must_trump, \
missed_bid_scores_tricks, zero_bid_bonus
        """
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, got {json_kind(data)}")
        allowed = [option.name for option in fields(cls) if option.init]
        for key in data:
            if key not in allowed:
                raise RulesError(
                    f"unknown rules option {brief(key)}; allowed: {', '.join(allowed)}"
                )
        if "player_count" not in data:
            raise RulesError(
                "rules need player_count (an integer from 3 to 7)", fields=("player_count",)
            )
        token = _SHOWN.set(as_json)  # the values came from JSON: show them as it writes them
        try:
            return cls(**data)
        finally:
            _SHOWN.reset(token)

    @classmethod
    def preset(cls, name: str, player_count: int = 4) -> Rules:
        """The named preset (see :data:`PRESETS`) for ``player_count`` seats.

        >>> Rules.preset("hook", player_count=True)
        Traceback (most recent call last):
        ...
        ohhell.engine.errors.RulesError: player_count must be an integer from 3 to 7, got True
        """
        cls(player_count=player_count)  # a bad count said as Python writes it, not as JSON
        try:
            preset = PRESETS[name]
        except (KeyError, TypeError):  # TypeError: not a name at all (a list is unhashable)
            raise RulesError(
                f"unknown preset {brief(name)}; presets: {', '.join(PRESETS)}"
            ) from None
        return cls.from_dict({"player_count": player_count, **preset.options})

    def describe(self) -> str:
        """A one-line human description.

        >>> Rules(player_count=4, hook=True).describe()
        '4 players, ascending (13 hands), hook'
        """
        sizes = self.hand_sizes()
        hands = counted(len(sizes), "hand")
        parts = [f"{self.player_count} players", f"{self.schedule.value} ({hands})"]
        if self.repeat_turning_hand:
            parts.append("turning hand twice")
        if self.trump_in_last_hand:
            parts.append("trump in last hand")
        return ", ".join([*parts, *self.variants()])

    def variants(self) -> tuple[str, ...]:
        """The options in force that change bidding, play or scoring, by name.

        >>> Rules(player_count=4, hook=True, zero_bid_bonus=True).variants()
        ('hook', 'zero bid bonus')
        """
        return tuple(
            name
            for on, name in (
                (self.hook, "hook"),
                (self.bidding is BiddingMode.SIMULTANEOUS, "simultaneous bidding"),
                (self.must_trump, "La Podrida (must trump)"),
                (self.missed_bid_scores_tricks, "missed bids score tricks"),
                (self.zero_bid_bonus, "zero bid bonus"),
            )
            if on
        )


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of options; the player count is chosen separately. Read-only, as every
    ``Rules.preset`` call reads it.

    >>> PRESETS["hook"].options["hook"] = False
    Traceback (most recent call last):
    ...
    TypeError: 'mappingproxy' object does not support item assignment
    """

    description: str
    options: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def __reduce__(self) -> tuple[type[Preset], tuple[str, dict[str, Any]]]:
        """Pickled (and copied) as its fields: a read-only view of a dict is not picklable."""
        return (Preset, (self.description, dict(self.options)))


PRESETS: Final[Mapping[str, Preset]] = MappingProxyType(
    {
        "standard": Preset("The standard game of the rules: ascending, sequential bids.", {}),
        "descending": Preset(
            "Variant 1: largest hand first, down to one card.", {"schedule": "descending"}
        ),
        "up-and-down": Preset(
            "Variant 2: one card up to the largest hand and back down.", {"schedule": "up-and-down"}
        ),
        "down-and-up": Preset(
            "Variant 2: largest hand down to one card and back up.", {"schedule": "down-and-up"}
        ),
        "hook": Preset("Variant 3: the bids may not total the tricks.", {"hook": True}),
        "simultaneous": Preset(
            "Variant 4: sealed bids revealed together.", {"bidding": "simultaneous"}
        ),
        "la-podrida": Preset(
            "Variant 5: a seat void in the suit led must trump.", {"must_trump": True}
        ),
        "score-tricks": Preset(
            "Variant 6: a missed bid scores its tricks.", {"missed_bid_scores_tricks": True}
        ),
        "zero-bonus": Preset(
            "Variant 7: a made zero bid scores 5 plus the hand size.", {"zero_bid_bonus": True}
        ),
        "openspiel": Preset(
            "OpenSpiel's scoring and hook: hook, missed bids score tricks.",
            {"hook": True, "missed_bid_scores_tricks": True},
        ),
    }
)
"""Named presets, the standard game first."""
