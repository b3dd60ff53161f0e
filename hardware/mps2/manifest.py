# Frozen into the MPS2 board's MicroPython image (FROZEN_MANIFEST): asyncio, as every
# board's own image carries it. The party firmware itself is a ROMFS image loaded
# beside it (party firmware build --board qemu), as `deploy --romfs` puts it on a board.
include("$(MPY_DIR)/extmod/asyncio")
