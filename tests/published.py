"""The published tables this suite holds every rule set to: its own copies of the combinatorial
counts (Wikipedia, "Poker probability"; the short-deck and lowball counts derived in each rule
set's expected.toml), never read from the rule sets it checks."""

from __future__ import annotations

SHORT = {"royal flush": 4, "straight flush": 20, "four of a kind": 288, "flush": 480, "full house": 1_728,
         "straight": 6_120, "three of a kind": 16_128, "two pair": 36_288, "one pair": 193_536,
         "high card": 122_400}
# Each game: (its five-card hands, distinct values, frequencies by category).
PUBLISHED = {
    "standard": (2_598_960, 7_462, {"royal flush": 4, "straight flush": 36, "four of a kind": 624,
                                    "full house": 3_744, "flush": 5_108, "straight": 10_200,
                                    "three of a kind": 54_912, "two pair": 123_552, "one pair": 1_098_240,
                                    "high card": 1_302_540}),
    "short-deck": (376_992, 1_404, SHORT),
    "short-deck-triton": (376_992, 1_404, SHORT),
    "deuce-to-seven": (2_598_960, 7_462, {"straight flush": 36, "four of a kind": 624, "full house": 3_744,
                                          "flush": 5_112, "straight": 9_180, "three of a kind": 54_912,
                                          "two pair": 123_552, "one pair": 1_098_240, "high card": 1_303_560}),
    "ace-to-five": (2_598_960, 6_175, {"four of a kind": 624, "full house": 3_744, "three of a kind": 54_912,
                                       "two pair": 123_552, "one pair": 1_098_240, "high card": 1_317_888}),
    "eight-or-better": (2_598_960, 57, {"eight or better": 57_344, "no low": 2_541_616}),
    # 53 cards, the joker wild (the table; its 204 straight flushes are 24 royal and 180)
    "joker": (2_869_685, 7_475, {"five of a kind": 13, "royal flush": 24, "straight flush": 180,
                                 "four of a kind": 3_120, "full house": 6_552, "flush": 7_804,
                                 "straight": 20_532, "three of a kind": 137_280, "two pair": 123_552,
                                 "one pair": 1_268_088, "high card": 1_302_540}),
    # hands of four cards, by the size of their best badugi (four-card: 13C4 x 4!, one-card: the
    # fours of a suit and of a kind)
    "badugi": (270_725, 1_092, {"badugi": 17_160, "three-card": 154_440, "two-card": 96_252, "one-card": 2_873}),
}
EXPECTED = PUBLISHED["standard"][2]
# The best five of seven cards, standard poker (royal flushes apart: 41,584 straight flushes in all).
EXPECTED7 = {"royal flush": 4_324, "straight flush": 37_260, "four of a kind": 224_848,
             "full house": 3_473_184, "flush": 4_047_644, "straight": 6_180_020,
             "three of a kind": 6_461_620, "two pair": 31_433_400, "one pair": 58_627_800,
             "high card": 23_294_460}
DISTINCT7 = 4_824          # five-card values that are the best of some seven cards
