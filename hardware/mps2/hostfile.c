// The MPS2 board's flash and clock, kept by the emulator's host (qemu -semihosting).
//
// The board's flash is a file on the host: every block written goes straight to the file
// through a semihosting call, so the emulator killed mid-party (a power cut) loses
// nothing written, as a flash chip keeps what was programmed. hal/qemu.py puts a
// littlefs on it. mp_hal_time_ns (which littlefs needs, and the qemu port lacks) is the
// host's clock, as a board's RTC set at deploy.
#include <string.h>

#include "py/runtime.h"
#include "py/mperrno.h"
#include "py/mphal.h"

#define SYS_OPEN  (0x01)
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

// open(path) -> handle: an existing file, for reading and writing in place.
static mp_obj_t hostfile_open(mp_obj_t path_in) {
    size_t len;
    const char *path = mp_obj_str_get_data(path_in, &len);
    uint32_t args[3] = {(uint32_t)path, MODE_RPLUS_B, len};
    int h = (int)semihosting(SYS_OPEN, args);
    if (h < 0) {
        mp_raise_OSError(MP_ENOENT);
    }
    return MP_OBJ_NEW_SMALL_INT(h);
}
static MP_DEFINE_CONST_FUN_OBJ_1(hostfile_open_obj, hostfile_open);

// size(handle) -> the file's length in bytes.
static mp_obj_t hostfile_size(mp_obj_t h_in) {
    uint32_t args[1] = {mp_obj_get_int(h_in)};
    return mp_obj_new_int((int)semihosting(SYS_FLEN, args));
}
static MP_DEFINE_CONST_FUN_OBJ_1(hostfile_size_obj, hostfile_size);

static void seek(mp_obj_t h_in, mp_obj_t pos_in) {
    uint32_t args[2] = {mp_obj_get_int(h_in), mp_obj_get_int(pos_in)};
    if (semihosting(SYS_SEEK, args) != 0) {
        mp_raise_OSError(MP_EIO);
    }
}

// readinto(handle, pos, buf): fills buf from the file at pos.
static mp_obj_t hostfile_readinto(mp_obj_t h_in, mp_obj_t pos_in, mp_obj_t buf_in) {
    mp_buffer_info_t buf;
    mp_get_buffer_raise(buf_in, &buf, MP_BUFFER_WRITE);
    seek(h_in, pos_in);
    uint32_t args[3] = {mp_obj_get_int(h_in), (uint32_t)buf.buf, buf.len};
    if (semihosting(SYS_READ, args) != 0) {  // the bytes not read
        mp_raise_OSError(MP_EIO);
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_3(hostfile_readinto_obj, hostfile_readinto);

// write(handle, pos, buf): writes buf to the file at pos, through to the host's file.
static mp_obj_t hostfile_write(mp_obj_t h_in, mp_obj_t pos_in, mp_obj_t buf_in) {
    mp_buffer_info_t buf;
    mp_get_buffer_raise(buf_in, &buf, MP_BUFFER_READ);
    seek(h_in, pos_in);
    uint32_t args[3] = {mp_obj_get_int(h_in), (uint32_t)buf.buf, buf.len};
    if (semihosting(SYS_WRITE, args) != 0) {  // the bytes not written
        mp_raise_OSError(MP_EIO);
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_3(hostfile_write_obj, hostfile_write);

static const mp_rom_map_elem_t hostfile_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_hostfile) },
    { MP_ROM_QSTR(MP_QSTR_open), MP_ROM_PTR(&hostfile_open_obj) },
    { MP_ROM_QSTR(MP_QSTR_size), MP_ROM_PTR(&hostfile_size_obj) },
    { MP_ROM_QSTR(MP_QSTR_readinto), MP_ROM_PTR(&hostfile_readinto_obj) },
    { MP_ROM_QSTR(MP_QSTR_write), MP_ROM_PTR(&hostfile_write_obj) },
};
static MP_DEFINE_CONST_DICT(hostfile_globals, hostfile_globals_table);

const mp_obj_module_t hostfile_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&hostfile_globals,
};

MP_REGISTER_MODULE(MP_QSTR_hostfile, hostfile_module);
