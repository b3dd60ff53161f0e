"""A stand-in for MicroPython's `network`: a WLAN that joins after a few polls or fails as told."""
STA_IF = 0
STAT_IDLE, STAT_CONNECTING, STAT_GOT_IP = 0, 1, 3
STAT_WRONG_PASSWORD, STAT_NO_AP_FOUND, STAT_CONNECT_FAIL = -3, -2, -1

plan = {"polls": 3, "fail": None}   # polls before joining; or a STAT_* failure to report
log = []


class WLAN:
    PM_NONE = 0x101
    _polls = 0
    _up = False

    def __init__(self, iface):
        pass

    def active(self, on=None):
        log.append(("active", on))

    def config(self, **kw):
        log.append(("config", kw))

    def connect(self, ssid, key):
        log.append(("connect", ssid, key))
        WLAN._polls = 0

    def disconnect(self):
        log.append(("disconnect",))
        WLAN._up = False

    def isconnected(self):
        if plan["fail"] is None and WLAN._polls >= plan["polls"]:
            WLAN._up = True
        return WLAN._up

    def status(self, what=None):
        if what == "rssi":
            return -61
        WLAN._polls += 1
        if plan["fail"] is not None:
            return plan["fail"]
        return STAT_GOT_IP if WLAN._up else STAT_CONNECTING
