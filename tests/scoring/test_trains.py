"""Mexican Train and Chicken Foot, against their published rules.

None of the five rule books of ../shared/seeds has either game (none names them): every test
here cites the published page it checks, by its address, and the passage.
"""
import random

import pytest

from hub.scoring import DOUBLE_FIFTEEN, DOUBLE_NINE, DOUBLE_TWELVE, Refusal, Tile, get_form
from hub.scoring.forms.trains import worth

T = Tile.of
MT, CF = get_form("mexican-train"), get_form("chicken-foot")


def test_a_double_fifteen_set_has_136_pieces():
    # https://findanyanswer.com/how-many-dominoes-are-in-a-double-15: "A double-fifteen set
    # contains 136 dominoes, with the numbers on the tiles ranging from 0 (or blank) to 15."
    # and (same page) "a double-twelve set (91 tiles) or a double-nine set (55 tiles)"
    assert len(DOUBLE_FIFTEEN) == len(set(DOUBLE_FIFTEEN.tiles)) == 136
    assert DOUBLE_FIFTEEN.top == 15 and (len(DOUBLE_TWELVE), len(DOUBLE_NINE)) == (91, 55)


@pytest.mark.parametrize("variant, deal", [
    # https://mexicantrain.com/rules.html: "Number of Players: 4", "Number of Dominoes Dealt
    # (to each player): 15"
    ("puremco", {4: 15}),
    # https://docslib.org/doc/4134077/mexican-train-2-8-players: "Players 2 3 4 5 6 7 8 ...
    # Double Twelve 15 15 15 12 12 11 11"
    ("fifteen-twelve-eleven", {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 11}),
    # https://www.idahogoodsam.org/gamerules/9: "2 players - 16 tiles 5 players - 13 tiles 8
    # players - 10 tiles / 3 players - 15 tiles 6 players - 12 tiles / 4 players - 14 tiles 7
    # players - 11 tiles"
    ("sixteen-to-ten", {2: 16, 3: 15, 4: 14, 5: 13, 6: 12, 7: 11, 8: 10}),
    # https://www.paperzz.com/doc/7043126 (Pressman's rules card, 2015), SET UP: "Players Draw
    # 2-4 ... 15, 5-6 ... 11, 7-8 ... 8"
    ("pressman", {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 8, 8: 8}),
])
def test_mexican_train_deals_by_the_players(variant, deal):
    assert MT.variants[variant].players == tuple(deal)
    for players, each in deal.items():
        rules = MT.rules(players=players, variant=variant)
        played = MT.play_hand(rules, random.Random(players))
        assert {len(h) for h in played.dealt.values()} == {each}


def test_a_double_fifteen_table_deals_fifteen_twelve_eleven():
    # https://ourpastimes.com/play-15-mexican-train-dominoes-7719632.html: "With two to four
    # players draw 15 tiles, five to six players draw 12 tiles and seven or more draw 11
    # dominoes each."
    for players, each in ((2, 15), (4, 15), (5, 12), (6, 12), (7, 11), (8, 11)):
        rules = MT.rules(players=players, variant="fifteen-twelve-eleven", tile_set="double-fifteen")
        assert MT.hand_size(rules) == each
    with pytest.raises(Refusal):   # the official rules are played on a double-twelve
        MT.rules(tile_set="double-fifteen")


@pytest.mark.parametrize("variant, deal", [
    # https://docslib.org/doc/4134077/mexican-train-2-8-players, Chickenfoot: "42 / [# of
    # players], rounded to the nearest whole number ... Players 2 3 4 5 6 7 8 ... Draw 21 14
    # 11 8 7 6 5"
    ("double-foot", {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5}),
    # https://htfbw.com/games-cards/Games/39024.shtml: "In a two-player game, each player removes
    # nine dominoes. In a three- or four-player game, each player removes seven dominoes.";
    # http://www.cardsdicedominoes.com/chickenfoot-domino-rules.htm: "For a double-nine set with
    # for to five players, seven initial tiles"
    ("cross", {2: 9, 3: 7, 4: 7, 5: 7}),
])
def test_chicken_foot_deals_by_the_players(variant, deal):
    for players, each in deal.items():
        rules = CF.rules(players=players, variant=variant)
        assert rules.tile_set == "double-nine"
        played = CF.play_hand(rules, random.Random(players))
        assert {len(h) for h in played.dealt.values()} == {each}


def test_the_engine_counts_down_a_round_at_a_time():
    # https://mexicantrain.com/rules.html: "Number of Rounds: 13"; "Each round begins with the
    # player who was dealt the double domino for that round (i.e., double-twelve starts round
    # 12)"; https://www.htuse.com/?p=99790: "Begin the next round with the next lower double",
    # "Use the double-blank as the final starting double"
    rules = MT.rules()
    assert MT.rounds(rules) == 13
    assert [MT.engine(rules, r) for r in range(1, 14)] == list(range(12, -1, -1))
    # a double-fifteen: "You must play a domino with a 15 on it against the double-15 in the
    # middle" (ourpastimes, above): the engine 15-15 first, 16 rounds to the double-blank
    big = MT.rules(variant="fifteen-twelve-eleven", tile_set="double-fifteen")
    assert [MT.engine(big, r) for r in (1, 16)] == [15, 0] and MT.rounds(big) == 16
    # https://htfbw.com/games-cards/Games/39024.shtml: "the player with the double-nine begins"
    # ... "During round two, the player with the double-eight begins"; "After 10 rounds, the
    # game ends."
    chicken = CF.rules()
    assert CF.rounds(chicken) == 10 and [CF.engine(chicken, r) for r in (1, 2, 10)] == [9, 8, 0]
    with pytest.raises(Refusal):
        MT.engine(rules, 14)
    # the round's engine is the piece in the middle, out of every hand and the boneyard
    for r in (1, 7, 13):
        played = MT.play_hand(rules, random.Random(r), round=r)
        engine = Tile(13 - r, 13 - r)
        held = ([t for h in played.dealt.values() for t in h] + list(played.stock)
                + [m.tile for m in played.moves if m.action == "draw"])
        assert engine not in held and len(held) == 90


def test_a_round_scores_the_spots_left_in_each_hand():
    # https://mexicantrain.com/rules.html: "Each dot on a domino is worth a point. Each round is
    # scored individually after a player plays all of his dominoes or no more turns can be
    # taken." https://htfbw.com/games-cards/Games/74972.shtml: "Count the number of dots on your
    # remaining dominoes. ... The player who gets rid of his dominoes first receives zero
    # points."
    rules = MT.rules()
    hands = {"A": [T(12, 11), T(5, 0)], "B": [], "C": [T(6, 6)], "D": [T(3, 1), T(2, 2), T(9, 0)]}
    values = {s: sum(t.spots for t in h) for s, h in hands.items()}
    assert values == {"A": 28, "B": 0, "C": 12, "D": 17}
    outcome = MT.score(rules, values)
    assert outcome.points == values and outcome.winners == ("B",) and not outcome.blocked
    # "or no more turns can be taken": a blocked round, everyone holds something
    blocked = MT.score(rules, {"A": 40, "B": 7, "C": 12, "D": 7})
    assert blocked.blocked and blocked.winners == ("B", "D") and blocked.points["A"] == 40


def test_the_house_rules_for_blanks():
    hand = [T(0, 0), T(0, 4), T(3, 2)]
    # plain spots: the double-blank counts nothing
    assert sum(worth(t) for t in hand) == 9
    # https://www.reference.com/hobbies-games/play-chicken-foot-dominoes-6e6db69b65d1aec3: "A
    # double-blank domino is equal to 50 points."
    assert sum(worth(t, "double-blank-50") for t in hand) == 50 + 4 + 5
    # the Russells' rules (web.archive.org, flash.net/~russellr, chknfoot.htm): "Blanks count as
    # 25 points each, and the double-blank counts fifty points if caught in your hand": each
    # blank end 25, so the double-blank's two make fifty
    assert sum(worth(t, "blank-25") for t in hand) == 50 + (25 + 4) + 5
    # https://docslib.org/doc/4134077/mexican-train-2-8-players, Chickenfoot rule 7:
    # "DoubleBlank scores 25."
    assert sum(worth(t, "double-blank-25") for t in hand) == 25 + 4 + 5
    # a table keys the hand as its house counts it: the played round's values say so
    rules = CF.rules(blanks="blank-25")
    played = CF.play_hand(rules, random.Random(3))
    assert played.values == {s: sum(worth(t, "blank-25") for t in h) for s, h in played.hands.items()}
    assert [f["label"] for f in CF.entry_form(rules).to_json()][0] == "A POINTS LEFT"
    with pytest.raises(Refusal) as e:
        CF.rules(blanks="blank-10")
    assert e.value.why == "NO SUCH OPTION"


def test_the_lowest_total_wins_after_the_last_round():
    # https://mexicantrain.com/rules.html: "The player with the fewest points at the end of the
    # game wins."; https://htfbw.com/games-cards/Games/39024.shtml (Chicken Foot): "After 10
    # rounds, the game ends. The player with the lowest score wins."
    for form, rounds in ((MT, 13), (CF, 10)):
        rules = form.rules()
        assert form.lowest_wins and form.target(rules) is None
        totals = {"A": 0, "B": 0, "C": 0, "D": 0}
        rng = random.Random(5)
        for r in range(1, rounds + 1):
            assert not form.game_over(rules, totals, r - 1)
            played = form.play_hand(rules, rng, round=r)
            for s, p in played.outcome.points.items():
                totals[s] += p
        assert form.game_over(rules, totals, rounds)
        low = min(totals.values())
        assert form.winners_of_game(rules, totals) == tuple(s for s in "ABCD" if totals[s] == low)
    assert MT.winners_of_game(MT.rules(), {"A": 120, "B": 95, "C": 300, "D": 95}) == ("B", "D")
    assert not get_form("block").lowest_wins


def test_each_seat_is_checked_against_what_it_could_hold():
    # A seat holds at most its deal and the whole boneyard (it draws one a turn when it cannot
    # play: https://mexicantrain.com/rules.html, "If you do not have a domino to play, then you
    # must DRAW one from the BONEYARD"), so at most the heaviest 15 + 30 pieces of a
    # double-twelve at four (91 less the engine less 60 dealt leaves 30).
    rules = MT.rules()
    heaviest = sorted((t.spots for t in DOUBLE_TWELVE.tiles), reverse=True)
    most = sum(heaviest[:15 + 30])
    form = MT.entry_form(rules)
    assert [(f["k"], f["min"], f["max"]) for f in form.to_json()] == [
        (s, 0, most) for s in "ABCD"]
    MT.check_partial(rules, {"A": most})
    with pytest.raises(Refusal) as e:
        MT.check_partial(rules, {"A": most + 1})
    assert e.value.why == f"A: {most} AT MOST"
    # all four together hold no more than the set less the engine and one piece played
    with pytest.raises(Refusal) as e:
        MT.score(rules, {"A": most, "B": most, "C": most, "D": 0})
    assert e.value.why == "TOO MANY SPOTS"
    # a round ends when one is out: two seats holding nothing is one too many, but where the
    # double-blank counts nothing its holder shows 0 as well
    with pytest.raises(Refusal) as e:
        CF.check_partial(CF.rules(blanks="double-blank-50"), {"A": 0, "B": 0})
    assert e.value.why == "ONE GOES OUT"
    CF.check_partial(CF.rules(), {"A": 0, "B": 0})
    with pytest.raises(Refusal):
        CF.check_partial(CF.rules(), {"A": 0, "B": 0, "C": 0})


def _dealt_conserved(form, rules, played, engine):
    """The deal, the pieces drawn and the boneyard left are the set less the engine, once
    each; returns the hands as dealt, to replay the moves on."""
    seats = rules.seats
    hands = {s: list(h) for s, h in played.dealt.items()}
    stock = list(played.stock)
    drawn = [m.tile for m in played.moves if m.action == "draw"]
    stock_before = stock + drawn
    assert sorted(stock_before + [t for h in hands.values() for t in h] + [Tile(engine, engine)]) \
        == sorted(form.tile_set(rules).tiles)
    return hands


@pytest.mark.parametrize("seed", range(12))
def test_mexican_train_rounds_are_played_by_the_rules(seed):
    # https://www.idahogoodsam.org/gamerules/9: "Any time a player cannot match any "free"
    # tile, they must draw one tile ... If that tile cannot be played, they must place a marker
    # on their train ... In order for a player to remove their marker, they must play a tile
    # on their own train."; "If a double is played, that player must "satisfy" that double by
    # playing another matching tile on the double. If they cannot, they must draw one tile ...
    # If not, the player places a marker on his train and the next player must try to satisfy
    # that double"
    rules = MT.rules(players=4)
    rnd = seed % 13 + 1
    engine = MT.engine(rules, rnd)
    played = MT.play_hand(rules, random.Random(seed), round=rnd)
    hands = _dealt_conserved(MT, rules, played, engine)
    ends = [engine] * 5   # a train a seat, then the Mexican train
    markers, owed = set(), None   # owed: the train of a double still to be covered
    def open_to(seat):   # the ends a seat may play on
        if owed is not None:
            return [owed]
        return [i for i, s in enumerate(rules.seats + (None,)) if s in (None, seat) or s in markers]

    for i, m in enumerate(played.moves):
        if m.action == "draw":   # only when he could not play
            assert not any(t.has(ends[e]) for t in hands[m.seat] for e in open_to(m.seat))
            hands[m.seat].append(m.tile)
        elif m.action == "pass":   # nothing fits, even the piece drawn
            assert not any(t.has(ends[e]) for t in hands[m.seat] for e in open_to(m.seat))
            markers.add(m.seat)
        else:
            assert m.action == "play" and m.tile in hands[m.seat]
            owner = rules.seats[m.end] if m.end < 4 else None
            assert m.end in open_to(m.seat)   # nothing else until a double is satisfied
            owed = None
            assert m.tile.has(ends[m.end]) and m.exposed == m.tile.other(ends[m.end])
            ends[m.end] = m.exposed
            hands[m.seat].remove(m.tile)
            if owner == m.seat:
                markers.discard(m.seat)
            if m.tile.is_double:
                owed = m.end
                nxt = played.moves[i + 1] if i + 1 < len(played.moves) else None
                # the one who laid it plays on (to cover it, or draws, or passes)
                assert nxt is None or nxt.seat == m.seat or not hands[m.seat]
    assert {s: sorted(h) for s, h in hands.items()} == {s: sorted(h) for s, h in played.hands.items()}
    out = [s for s, h in hands.items() if not h]
    # one out, or nobody (blocked: each holds something, unless only the 0-0 counted as 0)
    assert len(out) <= 1 and played.outcome.blocked == (min(played.values.values()) > 0)
    assert played.values == {s: sum(t.spots for t in h) for s, h in hands.items()}
    assert MT.score(rules, played.values) == played.outcome


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("variant, arms", [("double-foot", 6), ("cross", 4)])
def test_chicken_foot_rounds_are_played_by_the_rules(seed, variant, arms):
    # the Russells' rules (web.archive.org, flash.net/~russellr, chknfoot.htm): "The next six
    # plays will be on the double nine, three tiles on each side forming a double chicken
    # foot"; "After the double chicken foot is created, tiles can be played on any of the six
    # "chicken toes" until someone plays a double making a single "chicken foot." The next
    # three plays must be made on this chicken foot before any tiles can be played anywhere
    # else." cardsdicedominoes.com: "the next four players will play a tile-end matching the
    # initial double" (the cross)
    rules = CF.rules(players=4, variant=variant)
    rnd = seed % 10 + 1
    engine = CF.engine(rules, rnd)
    played = CF.play_hand(rules, random.Random(seed), round=rnd)
    hands = _dealt_conserved(CF, rules, played, engine)
    plays = [m for m in played.moves if m.action == "play"]
    assert all(m.tile.has(engine) and not m.tile.is_double for m in plays[:arms])
    for i, m in enumerate(plays):
        if m.tile.is_double and i >= arms:
            # its three toes come next, each matching it
            assert all(n.tile.has(m.tile.low) for n in plays[i + 1:i + 4])
    for m in played.moves:
        if m.action == "draw":
            hands[m.seat].append(m.tile)
        elif m.action == "play":
            hands[m.seat].remove(m.tile)
    assert {s: sorted(h) for s, h in hands.items()} == {s: sorted(h) for s, h in played.hands.items()}
    assert played.values == {s: sum(t.spots for t in h) for s, h in hands.items()}
    assert CF.score(rules, played.values) == played.outcome
