"""Battery charge from its voltage: a single Li-ion/LiPo cell, read through a divider."""

EMPTY_MV = 3300   # the board's 3.3 V regulator drops out below this
FULL_MV = 4200


def percent(cell_mv: int) -> int:
    """Charge in percent, linear between EMPTY_MV and FULL_MV (a cell's curve is flat
    in the middle, so this is a rough gauge, good enough to say "charge me")."""
    if cell_mv <= EMPTY_MV:
        return 0
    if cell_mv >= FULL_MV:
        return 100
    return (cell_mv - EMPTY_MV) * 100 // (FULL_MV - EMPTY_MV)
