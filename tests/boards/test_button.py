"""The bell button: debouncing and the long press (drivers/button.py), polled as the board polls."""
from hypothesis import given, settings, strategies as st

from drivers.button import DEBOUNCE_MS, LONG_MS, Button

POLL_MS = 10


def signal(*segments):
    """A raw contact signal from (duration_ms, pressed) segments: level at time t."""
    edges, t = [], 0
    for duration, pressed in segments:
        edges.append((t, t + duration, pressed))
        t += duration
    return edges, t


def poll(segments, tail_ms=200):
    """Polls a fresh bell button every POLL_MS over the signal; returns [(time, event)]."""
    edges, end = signal(*segments, (tail_ms, False))
    button, events = Button("BELL", "BELL-LONG"), []
    for now in range(0, end, POLL_MS):
        level = next(p for start, stop, p in edges if start <= now < stop)
        event = button.update(level, now)
        if event:
            events.append((now, event))
    return events


def test_a_clean_press_rings_once_on_release():
    events = poll([(100, False), (300, True)])
    assert [e for _, e in events] == ["BELL"]
    assert events[0][0] >= 400  # not before the button is let go


def test_contact_bounce_on_press_and_release_rings_once():
    bounce_in = [(3, True), (4, False), (6, True), (2, False), (5, True), (1, False)]
    bounce_out = [(4, False), (3, True), (7, False), (2, True)]
    events = poll([(50, False), *bounce_in, (250, True), *bounce_out])
    assert [e for _, e in events] == ["BELL"]


def test_a_spike_shorter_than_the_debounce_time_is_no_press():
    assert poll([(100, False), (DEBOUNCE_MS - POLL_MS, True)]) == []


def test_a_held_button_calls_the_conductor_while_still_held():
    events = poll([(50, False), (LONG_MS + 400, True)])
    assert [e for _, e in events] == ["BELL-LONG"]
    when = events[0][0]
    assert 50 + LONG_MS <= when <= 50 + LONG_MS + DEBOUNCE_MS + 2 * POLL_MS
    assert when < 50 + LONG_MS + 400  # reported before release


def test_just_short_of_long_is_a_ring():
    assert [e for _, e in poll([(50, False), (LONG_MS - 200, True)])] == ["BELL"]


def test_presses_one_after_another_each_ring():
    events = poll([(50, False), (120, True), (150, False), (120, True), (150, False), (LONG_MS + 100, True)])
    assert [e for _, e in events] == ["BELL", "BELL", "BELL-LONG"]


bounces = st.lists(st.tuples(st.integers(1, 6), st.booleans()), max_size=4)


@settings(max_examples=200, deadline=None)
@given(before=st.integers(0, 300), bounce_in=bounces, held=st.integers(60, 3000), bounce_out=bounces)
def test_any_bouncy_press_gives_exactly_one_event_of_the_right_kind(before, bounce_in, held, bounce_out):
    """Bounces last under 25 ms in all (below the debounce time), so each press is one event:
    BELL-LONG when held at least LONG_MS, else BELL."""
    events = poll([(before, False), *bounce_in, (held, True), *bounce_out])
    bounce_ms = sum(d for d, _ in bounce_in)
    expected = "BELL-LONG" if held + bounce_ms >= LONG_MS + DEBOUNCE_MS + POLL_MS else "BELL"
    if LONG_MS - 2 * DEBOUNCE_MS <= held <= LONG_MS + 2 * DEBOUNCE_MS + bounce_ms:
        # within a debounce time of the threshold either answer is right; one answer it must be
        assert len(events) == 1 and events[0][1] in ("BELL", "BELL-LONG")
    else:
        assert [e for _, e in events] == [expected]
