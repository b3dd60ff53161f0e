"""The door's near-duplicate check follows the list as it changes: a name renamed or
removed no longer blocks its look-alikes, a new one does at once, live and as the
journal replays and is audited at start-up (the check looks names up in the party's
index of normalised names, hub/conductor/names.py).

Book: 000_ff8a6ed40036e836.txt. LIST: the conductor "checks off the names of the persons
who have arrived" — one name a person, so a near-duplicate is asked about before it is added.
"""
from hub.conductor import events as k
from hub.conductor import replay, to_json
from hub.conductor.audit import audit

from .party import Party


def listed(p: Party, name: str, **body):
    return p.staff(k.GUEST_LISTED, {"guest": name, **body})


def test_renamed_and_removed_names_free_their_look_alikes_and_new_names_block_them():
    p = Party()
    p.create(form="block", tables=2)
    for name in ("Ann Lee", "Bob Ray", "Cy Dunn"):
        p.must(listed(p, name))
    p.must(p.staff(k.GUEST_RENAMED, {"guest": "Ann Lee", "name": "Ann Fox", "why": "wed"}))
    p.must(p.staff(k.GUEST_REMOVED, {"guest": "Bob Ray", "why": "sent regrets"}))
    assert listed(p, "ann  fox").why == "SIMILAR NAME"     # the new name blocks at once
    p.must(listed(p, "ann lee"))                           # the old one no longer does
    p.must(listed(p, "BOB RAY"))
    # two of one name the host vouched for: renaming one leaves the other flagging
    p.must(p.staff(k.WALK_IN, {"guest": "cy dunn", "similar_ok": True}))
    p.must(p.staff(k.GUEST_RENAMED, {"guest": "Cy Dunn", "name": "Cyrus Dunn", "why": "full name"}))
    assert listed(p, "Cy  Dunn").why == "SIMILAR NAME"
    # a rename may change only the case of the name itself
    p.must(p.staff(k.GUEST_RENAMED, {"guest": "cy dunn", "name": "Cy Dunn", "why": "capitals"}))
    assert list(p.state.guests) == ["Ann Fox", "Cyrus Dunn", "ann lee", "BOB RAY", "Cy Dunn"]
    state, findings = audit(p.journal)
    assert findings == () and state == p.state == replay(p.journal)
    assert to_json(state) == to_json(p.state)


def test_a_name_with_a_control_character_is_refused_at_the_door_with_the_reason():
    """Issue 24: a NUL or another control character in a name was journaled as typed (it cuts
    the name short or breaks its line on a board, a printed card, the projector, the CSV).
    Refused wherever a name enters the list — listed, walked in, renamed — and nothing is
    journaled; a name with letters of any script, or a joiner, still enters."""
    p = Party()
    p.create(form="block", tables=2)
    p.must(listed(p, "Ann Lee"))
    before = list(p.journal)
    for bad in ("Ann\x00Ray", "\x00", "Bob\tRay", "Bob\nRay", "Bob\rRay", "Cy\x1bDunn", "Cy\x7fDunn",
                "Cy\x85Dunn", "Cy\u2028Dunn", "Cy\u2029Dunn"):
        assert listed(p, bad).why == "CONTROL IN NAME", repr(bad)
        assert p.staff(k.WALK_IN, {"guest": bad}).why == "CONTROL IN NAME", repr(bad)
        assert p.staff(k.GUEST_RENAMED, {"guest": "Ann Lee", "name": bad, "why": "typo"}).why == \
            "CONTROL IN NAME", repr(bad)
    assert p.journal == before
    for good in ("Zoë Brontë", "Ōta Kenji", "Émile d\u2019Arcy", "\u0905\u0928\u093f\u0932 \u0915\u093f\u200d"):
        p.must(listed(p, good))
