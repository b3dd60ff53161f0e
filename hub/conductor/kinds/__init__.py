"""The kinds of event, one module per concern, each kind's check and fold step side by
side (hub/conductor/ruling.py says what a kind is). Every module here lists its kinds in
`KINDS`; hub/conductor/registry.py gathers every module of this folder, so a new module
here is registered by being here (docs/conductor.md, "Adding a kind of staff action")."""
