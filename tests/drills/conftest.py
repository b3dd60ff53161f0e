"""A Mosquitto that only provisioned accounts may use, with the ACL `party provision` wrote."""
import os

import pytest

from party.broker import Mosquitto
from party.provision import mosquitto_lines, password_tool, provision


def as_root_lines() -> str:
    # Mosquitto started as root drops to the `mosquitto` user, which cannot read
    # the owner-only password file; tests run as whoever runs them.
    return "user root\n" if os.geteuid() == 0 else ""


@pytest.fixture
def provisioned(tmp_path):
    """(directory, hub.json) of a provisioned 3-table party."""
    if password_tool() is None:
        pytest.skip("mosquitto_passwd is not installed (apt-get install mosquitto)")
    out = tmp_path / "provisioned"
    return out, provision(3, out)


@pytest.fixture
def secured_broker(provisioned):
    if not Mosquitto.available():
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    out, _ = provisioned
    b = Mosquitto(conf_extra=mosquitto_lines(out) + as_root_lines()).start()
    yield b
    b.stop()
