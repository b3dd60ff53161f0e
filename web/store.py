"""What the web app keeps beside the journal: its secret, the staff's password hashes, the plan.

None of it is party state. The journal records who joined the staff and every
action they took; the password hashes stay out of it, because a journal is
copied around for `party replay` and must not carry credentials. The secret
signs the session cookies and the tables' keypad tokens, so it must survive a
restart: the QR codes printed on the table markers have to keep working.
The plan (the invitation and its replies) exists before the party does.
"""
from __future__ import annotations

import json
import os
import secrets
import threading
from pathlib import Path

from werkzeug.security import check_password_hash, generate_password_hash


class WebStore:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._data = self._load()
        if "secret" not in self._data:
            self._data["secret"] = secrets.token_hex(32)
            self._save()

    def _load(self) -> dict:
        try:
            return json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}

    def _save(self) -> None:
        # Write-then-rename: a crash leaves the old file or the new one, never half of one.
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(self._data, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    @property
    def secret(self) -> str:
        return self._data["secret"]

    # ----- the staff's passwords ---------------------------------------------------------
    # Who is on the staff and in which role is the journal's alone (hub.role): a login here is
    # only a password that signs in.
    def has_staff(self) -> bool:
        return bool(self._data.get("staff"))

    def signs_in(self, login: str) -> bool:
        """The login has a password here (it was not taken off the staff)."""
        return login in self._data.get("staff", {})

    def set_password(self, login: str, password: str) -> None:
        with self._lock:
            self._data.setdefault("staff", {})[login] = {"hash": generate_password_hash(password)}
            self._save()

    def remove(self, login: str) -> None:
        """The login and its password hash gone: it signs in no more."""
        with self._lock:
            self._data.get("staff", {}).pop(login, None)
            self._save()

    def check(self, login: str, password: str) -> bool:
        """The password is the login's."""
        entry = self._data.get("staff", {}).get(login)
        return bool(entry and check_password_hash(entry["hash"], password))

    # ----- the last list added at once (an import, the replies): to undo it -----------
    def last_batch(self) -> dict:
        return dict(self._data.get("last_batch", {}))

    def save_batch(self, batch: dict) -> None:
        with self._lock:
            self._data["last_batch"] = batch
            self._save()

    # ----- the plan: invitation and replies ---------------------------------------
    def plan(self) -> dict:
        return dict(self._data.get("plan", {}))

    def save_plan(self, plan: dict) -> None:
        with self._lock:
            self._data["plan"] = plan
            self._save()
