"""The host's tools, above the product: the `party` command (party/cli.py), the fault
drills (party/drills/), the simulated party of the demo, provisioning, set-up steps,
offline replay and the firmware commands.

Imports run one way: party -> web, hub, hardware; nothing in hub, web or hardware
imports party (tests/test_architecture.py).
"""
