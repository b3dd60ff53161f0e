"""The host's tools, above the product: the `party` command (party/cli.py), the fault
drills (party/drills/), the simulated party of the demo, provisioning, set-up steps,
offline replay, the firmware commands and the MQTT broker they start (broker.py).

Imports run one way: party -> web, hub, hardware; nothing in hub, web or hardware
imports party (tests/test_architecture.py).
"""
