"""Independent truth for the tests: treys (a hand-coded evaluator) and hand generators."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
from treys import Card, Evaluator

from engine.poker import sevens

EVALUATOR = Evaluator()
DECK = list(range(1, 53))
# treys' rank classes (1 straight flush .. 9 high card) -> our category names; royal is class 1 with score 1.
TREYS_CATEGORY = {1: "straight flush", 2: "four of a kind", 3: "full house", 4: "flush", 5: "straight",
                  6: "three of a kind", 7: "two pair", 8: "one pair", 9: "high card"}


def treys_cards(tokens: list[str]) -> list[int]:
    """'AH' -> treys' int ('Ah')."""
    return [Card.new(t[:-1].replace("10", "T") + t[-1].lower()) for t in tokens]


def treys_score(tokens: list[str]) -> int:
    """Lower is stronger."""
    cards = treys_cards(tokens)
    return EVALUATOR.evaluate(cards[:2], cards[2:])


def treys_category(tokens: list[str]) -> str:
    score = treys_score(tokens)
    return "royal flush" if score == 1 else TREYS_CATEGORY[EVALUATOR.get_rank_class(score)]


def treys_beat(a: list[str], b: list[str]) -> int:
    sa, sb = treys_score(a), treys_score(b)
    return 1 if sa < sb else 2 if sa > sb else 0


def random_fight(rng: random.Random, n: int = 2) -> list[list[int]]:
    cards = rng.sample(DECK, 5 * n)
    return [cards[5 * i:5 * i + 5] for i in range(n)]


def _by_category(engine_tokens, category: str, rng: random.Random) -> list[int]:
    """A random hand of the given category (by rejection, or built for the rare ones)."""
    suits = [0, 13, 26, 39]
    for _ in range(100000):
        if category in ("straight flush", "royal flush"):
            top = 13 if category == "royal flush" else rng.randint(5, 13)  # 5..K high (A-high is royal)
            s = rng.choice(suits)
            values = [((top - k - 1) % 13) + 1 for k in range(5)] if top != 13 or category != "royal flush" \
                else [1, 13, 12, 11, 10]
            hand = [s + v for v in values]
        elif category == "four of a kind":
            v, k = rng.sample(range(1, 14), 2)
            hand = [s + v for s in suits] + [rng.choice(suits) + k]
        elif category == "full house":
            v, w = rng.sample(range(1, 14), 2)
            hand = [s + v for s in rng.sample(suits, 3)] + [s + w for s in rng.sample(suits, 2)]
        elif category == "flush":
            s = rng.choice(suits)
            hand = [s + v for v in rng.sample(range(1, 14), 5)]
        elif category == "straight":
            low = rng.randint(1, 10)
            hand = [rng.choice(suits) + ((low + k - 1) % 13) + 1 for k in range(5)]
        else:
            hand = rng.sample(DECK, 5)
        if treys_category(engine_tokens(hand)) == category:
            return hand
    raise RuntimeError(f"no {category} found")


def same_category_fight(engine_tokens, category: str, rng: random.Random) -> list[list[int]]:
    """Two disjoint hands of one category: the fights that tie-breaks decide."""
    while True:
        a = _by_category(engine_tokens, category, rng)
        b = _by_category(engine_tokens, category, rng)
        if not set(a) & set(b):
            return [a, b]


def all_hands():
    return combinations(DECK, 5)


def treys_five_values(cards: list[int]) -> tuple[np.ndarray, dict[int, str]]:
    """treys' value (7463 - its score: higher stronger) of every five of ``cards`` (treys' card
    ints, one a position of the deck), in colex order (engine.sevens.five_hands), and each
    value's category.  A five's value is a function of its ranks and whether it is suited, so
    treys is asked about one five of each such key (7,462 of them ... 2,598,960 on the full
    deck: a second, not 20 to 50) and every five gets its key's answer."""
    hands = sevens.five_hands(len(cards))
    ranks = np.array([Card.get_rank_int(c) for c in cards], dtype=np.int64)[hands]
    suits = np.array([Card.get_suit_int(c) for c in cards], dtype=np.int64)[hands]
    flush = (suits == suits[:, :1]).all(axis=1)
    key = np.sort(ranks, axis=1) @ (13 ** np.arange(5)) * 2 + flush
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    scores = np.array([EVALUATOR.evaluate([cards[p] for p in hands[row][:2]], [cards[p] for p in hands[row][2:]])
                       for row in first.tolist()], dtype=np.int32)
    names = {7463 - int(s): "royal flush" if s == 1 else TREYS_CATEGORY[EVALUATOR.get_rank_class(int(s))]
             for s in scores.tolist()}
    return (7463 - scores)[inverse.ravel()].astype(np.int32), names
