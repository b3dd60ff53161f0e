// The MPS2 board's flash and clock, kept by the emulator's host (qemu -semihosting).
//
// The board's flash is a file on the host (Flash, a block device): every block written goes
// straight to the file through a semihosting call, so the emulator killed mid-party (a
// power cut) loses nothing written, as a flash chip keeps what was programmed. The
// board's boot (hardware/sim/qemu_board.py) puts a littlefs on it at /, as a board's
// _boot.py does on its own flash, and may copy a deploy's files onto it from the host's
// (read). mp_hal_time_ns (which littlefs needs, and the qemu port lacks) is the
// host's clock, as a board's RTC set at deploy.
#include <string.h>

#include "py/runtime.h"
#include "py/mperrno.h"
#include "extmod/vfs.h"
#include "py/mphal.h"

#define SYS_OPEN  (0x01)
#define SYS_CLOSE (0x02)
#define SYS_WRITE (0x05)
#define SYS_READ  (0x06)
#define SYS_SEEK  (0x0a)
#define SYS_FLEN  (0x0c)
#define SYS_TIME  (0x11)
#define MODE_RPLUS_B (3)  // "r+b": the file must exist, it is never truncated

static uint32_t semihosting(uint32_t num, const void *arg) {
    register uint32_t r0 __asm__ ("r0") = num;
    register const void *r1 __asm__ ("r1") = arg;
    __asm__ __volatile__ ("bkpt 0xAB" : "+r" (r0) : "r" (r1) : "memory");
    return r0;
}

uint64_t mp_hal_time_ns(void) {
    return (uint64_t)semihosting(SYS_TIME, NULL) * 1000000000ULL;
}

#define BLOCK (4096)  // an erase block

static int host_open(const char *path, size_t len) {
    uint32_t args[3] = {(uint32_t)path, MODE_RPLUS_B, len};
    int h = (int)semihosting(SYS_OPEN, args);
    if (h < 0) {
        mp_raise_OSError(MP_ENOENT);
    }
    return h;
}

static void host_io(int h, uint32_t op, uint32_t pos, void *buf, size_t len) {
    uint32_t seek[2] = {h, pos};
    uint32_t io[3] = {h, (uint32_t)buf, len};
    if (semihosting(SYS_SEEK, seek) != 0 || semihosting(op, io) != 0) {  // the bytes not moved
        mp_raise_OSError(MP_EIO);
    }
}

// Flash(path): the file as a block device of 4 KB blocks (littlefs's extended protocol).
typedef struct {
    mp_obj_base_t base;
    int h;
    uint32_t blocks;
} flash_obj_t;

static mp_obj_t flash_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    mp_arg_check_num(n_args, n_kw, 1, 1, false);
    size_t len;
    const char *path = mp_obj_str_get_data(args[0], &len);
    flash_obj_t *self = mp_obj_malloc(flash_obj_t, type);
    self->h = host_open(path, len);
    uint32_t flen[1] = {self->h};
    self->blocks = semihosting(SYS_FLEN, flen) / BLOCK;
    return MP_OBJ_FROM_PTR(self);
}

static mp_obj_t flash_blocks(size_t n_args, const mp_obj_t *args, uint32_t op, mp_uint_t access) {
    flash_obj_t *self = MP_OBJ_TO_PTR(args[0]);
    mp_buffer_info_t buf;
    mp_get_buffer_raise(args[2], &buf, access);
    uint32_t off = n_args > 3 && args[3] != mp_const_none ? mp_obj_get_int(args[3]) : 0;
    host_io(self->h, op, mp_obj_get_int(args[1]) * BLOCK + off, buf.buf, buf.len);
    return mp_const_none;
}

static mp_obj_t flash_readblocks(size_t n_args, const mp_obj_t *args) {
    return flash_blocks(n_args, args, SYS_READ, MP_BUFFER_WRITE);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(flash_readblocks_obj, 3, 4, flash_readblocks);

static mp_obj_t flash_writeblocks(size_t n_args, const mp_obj_t *args) {
    return flash_blocks(n_args, args, SYS_WRITE, MP_BUFFER_READ);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(flash_writeblocks_obj, 3, 4, flash_writeblocks);

static mp_obj_t flash_ioctl(mp_obj_t self_in, mp_obj_t op_in, mp_obj_t arg_in) {
    flash_obj_t *self = MP_OBJ_TO_PTR(self_in);
    switch (mp_obj_get_int(op_in)) {
        case MP_BLOCKDEV_IOCTL_BLOCK_COUNT:
            return MP_OBJ_NEW_SMALL_INT(self->blocks);
        case MP_BLOCKDEV_IOCTL_BLOCK_SIZE:
            return MP_OBJ_NEW_SMALL_INT(BLOCK);
        case MP_BLOCKDEV_IOCTL_BLOCK_ERASE: {
            static uint8_t ones[256];  // flash erases to ones, written a piece at a time
            memset(ones, 0xff, sizeof(ones));
            uint32_t pos = mp_obj_get_int(arg_in) * BLOCK;
            for (uint32_t i = 0; i < BLOCK; i += sizeof(ones)) {
                host_io(self->h, SYS_WRITE, pos + i, ones, sizeof(ones));
            }
            return MP_OBJ_NEW_SMALL_INT(0);
        }
        default:  // init, deinit, sync: a file needs none
            return MP_OBJ_NEW_SMALL_INT(0);
    }
}
static MP_DEFINE_CONST_FUN_OBJ_3(flash_ioctl_obj, flash_ioctl);

// read(path) -> bytes: a whole file of the host's (what deploy copies onto the flash).
static mp_obj_t hostfile_read(mp_obj_t path_in) {
    size_t len;
    const char *path = mp_obj_str_get_data(path_in, &len);
    int h = host_open(path, len);
    uint32_t flen[1] = {h};
    size_t n = semihosting(SYS_FLEN, flen);
    vstr_t data;
    vstr_init_len(&data, n);
    host_io(h, SYS_READ, 0, data.buf, n);
    semihosting(SYS_CLOSE, flen);
    return mp_obj_new_bytes_from_vstr(&data);
}
static MP_DEFINE_CONST_FUN_OBJ_1(hostfile_read_obj, hostfile_read);

static const mp_rom_map_elem_t flash_locals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_readblocks), MP_ROM_PTR(&flash_readblocks_obj) },
    { MP_ROM_QSTR(MP_QSTR_writeblocks), MP_ROM_PTR(&flash_writeblocks_obj) },
    { MP_ROM_QSTR(MP_QSTR_ioctl), MP_ROM_PTR(&flash_ioctl_obj) },
};
static MP_DEFINE_CONST_DICT(flash_locals, flash_locals_table);

static MP_DEFINE_CONST_OBJ_TYPE(
    flash_type, MP_QSTR_Flash, MP_TYPE_FLAG_NONE,
    make_new, flash_make_new,
    locals_dict, &flash_locals
    );

static const mp_rom_map_elem_t hostfile_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_hostfile) },
    { MP_ROM_QSTR(MP_QSTR_Flash), MP_ROM_PTR(&flash_type) },
    { MP_ROM_QSTR(MP_QSTR_read), MP_ROM_PTR(&hostfile_read_obj) },
};
static MP_DEFINE_CONST_DICT(hostfile_globals, hostfile_globals_table);

const mp_obj_module_t hostfile_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&hostfile_globals,
};

MP_REGISTER_MODULE(MP_QSTR_hostfile, hostfile_module);
