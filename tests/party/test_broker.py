"""The embedded broker the demo runs (party/broker.py)."""


def test_the_embedded_brokers_tables_walk_a_snapshot_so_a_subscribe_during_a_broadcast_is_no_traceback():
    """amqtt awaits inside its walk over the subscriptions; a client subscribing meanwhile
    ended it with "RuntimeError: dictionary changed size during iteration" (issue 10)."""
    from party.broker import _Snapshots
    subscriptions = _Snapshots({"party/table/1/screen": [], "party/all/cmd": []})
    walked = []
    for topic, subs in subscriptions.items():
        walked.append(topic)
        subscriptions[f"party/table/{len(subscriptions)}/ack"] = []   # a subscribe while walking
    for topic in subscriptions:
        subscriptions.pop("party/all/cmd", None)                     # an unsubscribe while walking
    assert walked == ["party/table/1/screen", "party/all/cmd"] and len(subscriptions) == 3
