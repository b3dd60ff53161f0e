# The user C module of the MPS2 board (USER_C_MODULES): its flash and clock on the host.
HOSTFILE_DIR := $(USERMOD_DIR)
SRC_USERMOD_C += $(HOSTFILE_DIR)/hostfile.c
