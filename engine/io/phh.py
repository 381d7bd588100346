"""Hand histories in the PHH standard (phh-std): read them, replay their actions, check them.

A PHH file is TOML: the variant, the forced bets, the starting stacks and the actions
(``d dh p1 AcAd``, ``p2 cbr 100``, ``p1 cc``, ``p1 f``, ``d db AhKhQh``, ``p1 sm AcAd`` …); a
``.phhs`` file holds many, each under a ``[n]`` header.  This module is the input format only
(its public names; the text is read in :mod:`engine.io.phhtext`, replayed in :mod:`engine.io.replay`):
it reads the text, replays the actions to learn what each player put in, who folded, which
cards were dealt and shown, and refuses what cannot have happened (an action out of turn, a card
dealt twice, a bet larger than the stack) with a one-line reason.  Who wins what is the rules'
(rules/pots.dl and the showdown rules, asked by :mod:`engine.history`).

Amounts are read as decimals (never binary floats) and given to the rules as integers in the
hand's smallest unit (:attr:`Played.scale`: 100 for cents).

>>> hand = replay(parse_hand('''
... variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ["d dh p1 AsAd", "d dh p2 KcKd", "p2 cbr 6", "p1 cc", "d db 2c3d4h", "p1 cc", "p2 cc",
...            "d db 9s", "p1 cc", "p2 cc", "d db Jc", "p1 cc", "p2 cc", "p2 sm KcKd", "p1 sm AsAd"]
... '''))
>>> hand.stakes, hand.live, hand.board, hand.hole, hand.over
((6, 6), (0, 1), ('2C', '3D', '4H', '9S', 'JC'), (('AS', 'AD'), ('KC', 'KD')), True)
"""

from engine.io.phhtext import (
    MAX_DIGITS,
    MAX_UNITS,
    REQUIRED,
    STUD,
    UNSUPPORTED,
    VARIANTS,
    HistoryError,
    Played,
    Unsupported,
    Variant,
    looks_like_phh,
    parse_hand,
    read_histories,
    read_sections,
)
from engine.io.replay import replay

__all__ = ["MAX_DIGITS", "MAX_UNITS", "REQUIRED", "STUD", "UNSUPPORTED", "VARIANTS", "HistoryError", "Played",
           "Unsupported", "Variant", "looks_like_phh", "parse_hand", "read_histories", "read_sections", "replay"]
