# The persisted outbox: every event stays on flash until the hub's ack for its
# id arrives (protocol: the hub's ack is the only proof an entry is safe).
#
# One append-only log file of records, one per line: 8 hex digits of CRC32,
# a space, then the record. A power cut can tear only the last line, which
# then fails its checksum and is skipped. At every start the log is folded and
# rewritten into a new file that is renamed over the old one, so the file
# stays small and a torn tail never survives a boot.
#   B<n>        boot counter
#   +<json>     an event (the exact payload sent, so a resend is byte-identical)
#   -<id>       the hub settled that event (ok or refused)
#   =<seq> <r> <id>  the hub journaled that event at <seq>, not yet safe beyond its
#               disk: kept, to resend to a hub restored from a replica that lacks it;
#               <r>: the takeover that hub's journal was restored by (- if never)
#   R<id>       a kept event goes back to be resent (a restored hub lacks it), with
#               the seq it was journaled at: the restored hub rebuilds in that order
#   S<seq>      the hub's replica holds its journal up to <seq>: kept events up to
#               it are dropped (S alone: the hub keeps no replica, drop them all)
#   K<bell id>  the last conductor's bell this board acknowledged
#   V<receipt>  the last receipt the board showed ("REC <seq> <end of the seal>")
# An event's payload stays on flash only: the heap holds where its record
# starts in the log (read back to send it), not its ~300 bytes per entry.
import json
import os
from binascii import crc32

from micropython import const

from protocol import VERSION

# An entry: [id, where its record starts in the log, kind, ticks of its last send or
# None]; a kept one (acknowledged, not yet in the hub's replica): [id, where, the journal
# seq the hub gave it, where that hub's journal was restored from or None]. Four items
# fill one heap block: a kept entry's kind is read back from its record if it is ever
# resent (a fifth item cost a block more, 32 bytes of heap a kept entry on the unix port).
# Constants the compiler inlines (a leading _ keeps them out of the globals): no heap (app.py names the ones it reads the same way).
_E_ID = const(0)
_E_AT = const(1)
_E_KIND = const(2)
_K_SEQ = const(2)
_K_RESTORED = const(3)

_LOG = const("outbox.log")
_COMPACT_AFTER = const(64)  # records appended before the log is folded again
_KEEP_MAX = const(24)  # acknowledged events kept for the replica's lag (a party's results are fewer)


def _line(rec):
    return "%08x %s\n" % (crc32(rec.encode()), rec)


def _payload(f, at):
    # The event record's line at byte `at` of the open log: "<crc> +<payload>\n".
    f.seek(at)
    return f.readline().decode()[10:-1]



def _kept(eid, seq, restored):
    return "=%d %s %s" % (seq, "-" if restored is None else restored, eid)


class Outbox:
    def __init__(self, data_dir, board_id):
        try:
            os.mkdir(data_dir)
        except OSError:
            pass  # exists already
        self.path = data_dir + "/" + _LOG
        self.board_id = board_id
        self.boot = 0
        self.seq = 0
        self.bell = None
        self.receipt = None  # "REC <seq> <end of seal>" of the last entry saved, shown again after a boot
        # [id, where its record starts in the log, kind, ticks of last send or None]; oldest first
        self.entries = []
        # [id, where in the log, journal seq, restored]: acknowledged, not yet in the hub's
        # replica; restored: where the acknowledging hub's journal was restored, or None
        self.kept = []
        self._load()
        self.boot += 1  # persisted below, before anything is sent
        self._compact()

    def _load(self):
        try:
            f = open(self.path, "rb")
        except OSError:
            return  # first boot
        at = 0
        with f:
            for raw in f:
                line, start = raw.decode(), at
                at += len(raw)
                if len(line) < 11 or line[-1] != "\n" or line[8] != " ":
                    continue  # torn by a power cut
                rec = line[9:-1]
                try:
                    if int(line[:8], 16) != crc32(rec.encode()):
                        continue
                except ValueError:
                    continue
                t, v = rec[0], rec[1:]
                try:
                    if t == "B":
                        self.boot = max(self.boot, int(v))
                    elif t == "+":
                        ev = json.loads(v)
                        self.entries.append([ev["id"], start, ev["kind"], None])
                    elif t == "-":
                        self._drop(v)
                    elif t == "=":
                        seq, r, eid = v.split(" ", 2)
                        self._keep(eid, int(seq), None if r == "-" else int(r))
                    elif t == "R":
                        self._back([k for k in self.kept if k[_E_ID] == v])
                    elif t == "S":
                        self._forget(int(v) if v else None)
                    elif t == "K":
                        self.bell = v
                    elif t == "V":
                        self.receipt = v
                except (ValueError, KeyError, TypeError, UnicodeError):
                    continue  # never let one odd record stop the board from booting

    def _compact(self):
        tmp = self.path + ".new"
        events = self.entries + self.kept
        at = []  # where each event's record lands in the new log
        with open(tmp, "w") as f:
            f.write(_line("B%d" % self.boot))
            if self.bell:
                f.write(_line("K" + self.bell))
            if self.receipt:
                f.write(_line("V" + self.receipt))
            if events:  # their payloads are copied over from the old log
                with open(self.path, "rb") as old:
                    for e in events:
                        at.append(f.tell())
                        f.write(_line("+" + _payload(old, e[_E_AT])))
            for k in self.kept:
                f.write(_line(_kept(k[_E_ID], k[_K_SEQ], k[_K_RESTORED])))
        os.rename(tmp, self.path)  # atomic on LittleFS and POSIX
        for e, a in zip(events, at):  # only now: until the rename the old log is the one
            e[_E_AT] = a
        self._appended = 0

    def _append(self, rec):
        # Open, write, close per record: closing commits it on LittleFS.
        # Returns where the record starts: the log's size before it.
        at = os.stat(self.path)[6]
        with open(self.path, "a") as f:
            f.write(_line(rec))
        self._appended += 1
        return at

    def payload(self, e):
        """An entry's payload as it is sent (read back from the log): for one that went
        back to a restored hub (a fifth item), with the seq the lost hub journaled it at."""
        with open(self.path, "rb") as f:
            p = _payload(f, e[_E_AT])
        return p if len(e) < 5 else '%s,"seq":%d}' % (p[:-1], e[4])

    def _drop(self, eid):
        for q in (self.entries, self.kept):
            for i, e in enumerate(q):
                if e[_E_ID] == eid:
                    del q[i]
                    return e
        return None

    def _keep(self, eid, seq, restored):
        e = self._drop(eid)
        if e:
            self.kept.append([e[_E_ID], e[_E_AT], seq, restored])
            if len(self.kept) > _KEEP_MAX:
                del self.kept[0]  # the heap's bound: the oldest, the likeliest replicated
        return e

    def _back(self, back):
        # Oldest first, ahead of newer pending events: sent in the order first sent, each
        # with its seq (a fifth item, only while it is back: a block more for those alone).
        for k in back:
            self.kept.remove(k)
        self.entries[0:0] = [[k[_E_ID], k[_E_AT], json.loads(self.payload(k))["kind"], None, k[_K_SEQ]]
                             for k in back]

    def _forget(self, safe):
        n = len(self.kept)
        self.kept = [k for k in self.kept if safe is not None and k[_K_SEQ] > safe]
        return len(self.kept) < n

    def add(self, table, kind, body):
        """Make an event with the next id and persist it before it is sent."""
        self.seq += 1
        eid = "%s.%d.%d" % (self.board_id, self.boot, self.seq)
        payload = json.dumps({"v": VERSION, "id": eid, "table": table, "kind": kind, "body": body})
        self.entries.append([eid, self._append("+" + payload), kind, None])
        return eid

    def settle(self, eid, keep=None, restored=None, receipt=None):
        """The hub's verdict for eid arrived: drop it, or with `keep` (the journal
        seq the hub gave it, not yet in its replica) keep it to resend if a hub
        restored from the replica lacks it; `restored`: which takeover restored
        that hub. `receipt`: an ok ack's, kept as the last one a guest saw (not a
        bell-ack's: the guests see none). Returns the entry, or None if not pending."""
        for e in self.entries:
            if e[_E_ID] == eid:
                if self._appended >= _COMPACT_AFTER:
                    self._compact()  # first: the settled entry's payload stays readable
                if keep is None:
                    self._drop(eid)
                else:
                    self._keep(eid, keep, restored)
                self._append("-" + eid if keep is None else _kept(eid, keep, restored))
                if receipt and e[_E_KIND] != "bell-ack":
                    self.receipt = receipt
                    self._append("V" + receipt)
                return e
        return None

    def hub_safe(self, restored, took, safe):
        """The hub's status: kept events an earlier hub journaled after `restored`
        (where this hub's journal was restored from a replica; None if never) go
        back to be resent, unless this hub's takeover (`took`) acknowledged them;
        of the rest, those up to `safe` (its replica's position; None: it has no
        replica) are dropped. True if some go back."""
        back = [k for k in self.kept if restored is not None and k[_K_RESTORED] != took and k[_K_SEQ] > restored]
        for k in back:
            self._append("R" + k[_E_ID])
        self._back(back)
        if self.kept and self._forget(safe):
            self._append("S" if safe is None else "S%d" % safe)
        return bool(back)

    def bell_acked(self, bell):
        self.bell = bell
        self._append("K" + bell)

    def __len__(self):
        return len(self.entries)
