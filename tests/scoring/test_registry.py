"""The public API every caller relies on: the registry, rules, entry forms, refusals."""
import json
import pickle
import random

import pytest

from hub.scoring import FORMS, HandOutcome, Refusal, get_form

BOOKS = ("000_ff8a6ed40036e836.txt", "001_9f9bc89015baa380.txt", "002_0ed9ffa4e00fde7b.txt",
         "003_611dc33fc9a3dd20.txt", "004_ee99a39654249905.txt")


def test_the_issue_forms_are_registered():
    for name in ("block", "draw", "muggins", "all-quarters", "bergen", "sebastopol",
                 "tiddle-a-wink", "matador", "bingo", "texas-42", "fourteen-piece",
                 "four-handed-match", "three-handed-nine-piece", "four-handed-skin",
                 "mexican-train", "chicken-foot"):
        assert get_form(name).name == name
    with pytest.raises(Refusal) as e:
        get_form("canasta")
    assert e.value.why == "NO SUCH GAME"


@pytest.mark.parametrize("name", sorted(FORMS))
def test_every_variant_cites_a_book_and_has_a_default(name):
    f = FORMS[name]
    assert f.default in f.variants and f.why_default
    for v in f.variants.values():
        # a book of ../shared/seeds, or for the games none of them has (the train games) the
        # published page, by its address
        assert v.source.startswith(BOOKS + ("https://", "http://")) and "'" in v.source


@pytest.mark.parametrize("name", sorted(FORMS))
def test_entry_forms_fit_the_board_and_the_protocol(name):
    f = FORMS[name]
    for v in f.variants.values():
        for n in v.players:
            rules = f.rules(players=n, variant=v.name)
            form = f.entry_form(rules)
            fields = form.to_json()
            json.dumps(fields)
            assert len(form.title) <= 16
            assert len({x["k"] for x in fields}) == len(fields)
            for x in fields:
                assert set(x) <= {"k", "label", "min", "max", "seat", "when", "sum"}
                assert len(x["label"]) <= 16 and x["min"] <= x["max"]
                if "when" in x:   # asked after the field it depends on, and 0 is in range
                    earlier = [y["k"] for y in fields[:fields.index(x)]]
                    assert x["when"][0] in earlier and x["min"] == 0
                if x.get("seat"):
                    assert x["min"] == 0 and x["max"] <= 4
                if "sum" in x:   # a board counts together the fields whose sum is the same
                    # number: one measure of every seat ("A SPOTS", "B SPOTS" ...), never two
                    assert len({y["label"][1:] for y in fields if y.get("sum") == x["sum"]}) == 1


def test_rules_refuse_what_the_book_does_not_allow():
    with pytest.raises(Refusal):
        get_form("texas-42").rules(players=3)
    with pytest.raises(Refusal):
        get_form("block").rules(tile_set="musical")
    with pytest.raises(Refusal):
        get_form("block").rules(variant="hoyle")


def test_missing_unknown_and_non_numbers_are_refused():
    f = get_form("block")
    r = f.rules(players=2)
    for values, why in (({"out": 1, "A": 0}, "MISSING B SPOTS"),
                        ({"out": 1, "A": 0, "B": 3, "C": 1}, "UNKNOWN FIELD"),
                        ({"out": 1, "A": 0, "B": "3"}, "NOT A NUMBER"),
                        ({"out": 1, "A": 0, "B": 999}, "B SPOTS 0-69")):
        with pytest.raises(Refusal) as e:
            f.score(r, values)
        assert e.value.why == why


@pytest.mark.parametrize("name", sorted(FORMS))
def test_a_whole_game_reaches_its_end(name):
    """Hands played one after another until `game_over`, as the simulator drives a table."""
    f = FORMS[name]
    rules = f.rules()
    rng = random.Random(7)
    totals = dict.fromkeys(rules.seats, 0)
    for hands in range(1, 500):
        played = f.play_hand(rules, rng)
        for s, p in played.outcome.points.items():
            totals[s] += p
        if f.game_over(rules, totals, hands):
            break
    else:
        pytest.fail("no end")
    assert f.winners_of_game(rules, totals)


def test_hand_outcome_is_a_value():
    # an outcome can be kept, compared and used as a key: nothing in it can be changed
    f = get_form("muggins")
    r = f.rules(players=2, variant="tandy")
    p = f.play_hand(r, random.Random(1))
    again = f.score(r, p.values)
    assert hash(again) == hash(p.outcome) and {p.outcome: 1}[again] == 1
    for change in (lambda o: o.points.__setitem__("A", 99), lambda o: o.tally.update(A_play=5),
                   lambda o: setattr(o, "blocked", True), lambda o: o.points.pop("A"),
                   lambda o: o.points.clear(), lambda o: o.points.setdefault("E", 1),
                   lambda o: o.points.popitem(), lambda o: o.points.__delitem__("A")):
        with pytest.raises((TypeError, AttributeError)):
            change(p.outcome)
    assert p.outcome.points == dict(p.outcome.points) and p.outcome == again
    assert pickle.loads(pickle.dumps(p.outcome)) == p.outcome   # kept, as a played hand is


def test_options_are_checked():
    with pytest.raises(Refusal) as e:
        get_form("block").rules(colour="red")
    assert e.value.why == "NO SUCH OPTION"
    with pytest.raises(Refusal) as e:
        get_form("muggins").rules(in_play="sometimes")
    assert e.value.why == "NO SUCH OPTION"
    with pytest.raises(Refusal) as e:
        get_form("block").rules(players=4, hand=8)   # 32 pieces from a set of 28
    assert e.value.why == "TOO MANY PIECES"
    assert get_form("bergen").rules(near_game=True).option("near_game")
    assert get_form("texas-42").rules(hands=7).option("hands") == 7


@pytest.mark.parametrize("name", sorted(FORMS))
def test_a_scorer_makes_each_variants_outcome_as_its_caller_asks(name):
    # the conductor has the engine make its own record of a hand (`made_as`), not a
    # HandOutcome to copy: each form's outcome must reach it whole, as `score` gives it
    f, rng = FORMS[name], random.Random(7)
    for v in f.variants.values():
        for n in v.players:
            rules = f.rules(players=n, variant=v.name)
            scorer = f.scorer(rules, made_as=lambda *parts, **named: ("made", HandOutcome(*parts, **named)))
            for _ in range(5):
                values = f.play_hand(rules, rng).values
                assert scorer(dict(values)) == ("made", f.score(rules, dict(values)))
