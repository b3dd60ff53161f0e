"""Fixtures shared by every test: a broker of our own on a free port."""
import logging

import pytest

from party.broker import EmbeddedBroker, Mosquitto, best_available


@pytest.fixture
def broker():
    """A running broker on 127.0.0.1 (Mosquitto, or amqtt where Mosquitto is missing).

    Tests may `stop()` and `start()` it again on the same port to drill a broker restart.
    """
    b = best_available()
    if isinstance(b, EmbeddedBroker):
        logging.getLogger("tests").warning("mosquitto not on PATH: broker tests use the embedded broker")
    b.start()
    yield b
    b.stop()


@pytest.fixture
def mosquitto():
    """Debian's mosquitto specifically; skips (saying why) where it is not installed."""
    if not Mosquitto.available():
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    b = Mosquitto().start()
    yield b
    b.stop()
