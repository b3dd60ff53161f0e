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
#   K<bell id>  the last conductor's bell this board acknowledged
import json
import os
from binascii import crc32

LOG = "outbox.log"
COMPACT_AFTER = 64  # records appended before the log is folded again


def _line(rec):
    return "%08x %s\n" % (crc32(rec.encode()), rec)


class Outbox:
    def __init__(self, data_dir, board_id):
        try:
            os.mkdir(data_dir)
        except OSError:
            pass  # exists already
        self.path = data_dir + "/" + LOG
        self.board_id = board_id
        self.boot = 0
        self.seq = 0
        self.bell = None
        # [id, kind, payload, ticks of last send or None]; oldest first
        self.entries = []
        self._load()
        self.boot += 1  # persisted below, before anything is sent
        self._compact()

    def _load(self):
        try:
            f = open(self.path)
        except OSError:
            return  # first boot
        with f:
            for line in f:
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
                        self.entries.append([ev["id"], ev["kind"], v, None])
                    elif t == "-":
                        self._drop(v)
                    elif t == "K":
                        self.bell = v
                except (ValueError, KeyError, TypeError):
                    continue  # never let one odd record stop the board from booting

    def _compact(self):
        tmp = self.path + ".new"
        with open(tmp, "w") as f:
            f.write(_line("B%d" % self.boot))
            if self.bell:
                f.write(_line("K" + self.bell))
            for e in self.entries:
                f.write(_line("+" + e[2]))
        os.rename(tmp, self.path)  # atomic on LittleFS and POSIX
        self._appended = 0

    def _append(self, rec):
        # Open, write, close per record: closing commits it on LittleFS.
        with open(self.path, "a") as f:
            f.write(_line(rec))
        self._appended += 1

    def _drop(self, eid):
        for i, e in enumerate(self.entries):
            if e[0] == eid:
                del self.entries[i]
                return True
        return False

    def add(self, table, kind, body):
        """Make an event with the next id and persist it before it is sent."""
        self.seq += 1
        eid = "%s.%d.%d" % (self.board_id, self.boot, self.seq)
        payload = json.dumps({"v": 1, "id": eid, "table": table, "kind": kind, "body": body})
        self._append("+" + payload)
        self.entries.append([eid, kind, payload, None])
        return eid

    def settle(self, eid):
        """The hub's verdict for eid arrived: drop it. Returns the entry, or None if not ours."""
        for e in self.entries:
            if e[0] == eid:
                self._drop(eid)
                if self._appended >= COMPACT_AFTER:
                    self._compact()
                else:
                    self._append("-" + eid)
                return e
        return None

    def bell_acked(self, bell_id):
        self.bell = bell_id
        self._append("K" + bell_id)

    def __len__(self):
        return len(self.entries)
