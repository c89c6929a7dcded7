#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
"""deep-tree.py IMG DEPTH NAMELEN [BAD [DUPS XLS]]: nest DEPTH directories.

IMG is a FAT12/16/32 image just made by mkfs.fat (empty, no partition
table).  The root gets one directory, it one directory, and so on DEPTH
levels down, each a one-cluster directory with "." and "..", named by a
long name of NAMELEN characters (1..255; long-name slots with their
checksum) over a short name Dnnnnnnn.  Clusters are taken in order from the
first free one; every FAT copy and, on FAT32, FSInfo are updated, so that
fsck.fat -n finds the image clean.  With BAD, the bottom directory also
holds BAD damaged entries, on as many clusters as they need: short names
bad00000 .. (lower case), every other one a file of 4096 bytes without a
chain, the others directories without a chain; then DUPS pairs of files
with the same short name (DUP00000 ..), and XLS files (XL000000 ..) of
one cluster, all the same cluster.  Written from the FAT specification
(Microsoft FAT32 File System Specification 1.03), byte by byte, as an
independent maker of the trees that the tests give fatprealloc.
"""
import struct
import sys

EOC = {12: 0xFFF, 16: 0xFFFF, 32: 0x0FFFFFFF}
DATE = (46 << 9) | (1 << 5) | 1        # 2026-01-01


def geometry(b):
    g = {}
    g['bps'], g['spc'], g['rsvd'], g['nfats'], g['rootents'], ts16 = \
        struct.unpack_from('<HBHBHH', b, 11)
    fsz16, = struct.unpack_from('<H', b, 22)
    ts32, = struct.unpack_from('<I', b, 32)
    fsz32, = struct.unpack_from('<I', b, 36)
    g['fatsz'] = fsz16 or fsz32
    tot = ts16 or ts32
    root_secs = (g['rootents'] * 32 + g['bps'] - 1) // g['bps']
    g['root_off'] = (g['rsvd'] + g['nfats'] * g['fatsz']) * g['bps']
    g['data_off'] = g['root_off'] + root_secs * g['bps']
    g['clus'] = g['bps'] * g['spc']
    count = (tot - g['data_off'] // g['bps']) // g['spc']
    g['bits'] = 12 if count < 4085 else 16 if count < 65525 else 32
    g['count'] = count
    g['root_cl'] = struct.unpack_from('<I', b, 44)[0] if g['bits'] == 32 \
        else 0
    g['fsinfo'] = struct.unpack_from('<H', b, 48)[0] if g['bits'] == 32 \
        else 0
    return g


def set_fat(fat, bits, cl, val):
    if bits == 12:
        off = cl + cl // 2
        old, = struct.unpack_from('<H', fat, off)
        if cl & 1:
            new = (old & 0x000F) | (val << 4)
        else:
            new = (old & 0xF000) | val
        struct.pack_into('<H', fat, off, new)
    elif bits == 16:
        struct.pack_into('<H', fat, cl * 2, val)
    else:
        struct.pack_into('<I', fat, cl * 4, val)


def checksum(short):
    s = 0
    for c in short:
        s = (((s & 1) << 7) + (s >> 1) + c) & 0xFF
    return s


def short_entry(name, attr, cl):
    e = bytearray(32)
    e[0:11] = name
    e[11] = attr
    struct.pack_into('<HHHH', e, 14, 0, DATE, DATE, cl >> 16)
    struct.pack_into('<HHHI', e, 22, 0, DATE, cl & 0xFFFF, 0)
    return e


def long_entries(name, short):
    units = list(name.encode('utf-16-le'))
    units = [units[i] | units[i + 1] << 8 for i in range(0, len(units), 2)]
    if len(units) % 13:
        units += [0] + [0xFFFF] * (12 - len(units) % 13)
    n = len(units) // 13
    cs = checksum(short)
    out = bytearray()
    for seq in range(n, 0, -1):
        u = units[(seq - 1) * 13:seq * 13]
        e = bytearray(32)
        e[0] = seq | (0x40 if seq == n else 0)
        struct.pack_into('<5H', e, 1, *u[0:5])
        e[11] = 0x0F
        e[13] = cs
        struct.pack_into('<6H', e, 14, *u[5:11])
        struct.pack_into('<2H', e, 28, *u[11:13])
        out += e
    return out


def add_bad(f, g, fat, cl, free, count, dups, xls):
    """Damaged entries after "." and ".." in directory @cl."""
    bits, clus = g['bits'], g['clus']
    ents = bytearray()
    for i in range(count):
        name = b'bad%05d   ' % i
        e = short_entry(name, 0x10 if i & 1 else 0x20, 0)
        if not i & 1:
            struct.pack_into('<I', e, 28, 4096)
        ents += e
    for i in range(2 * dups):
        ents += short_entry(b'DUP%05d   ' % (i // 2), 0x20, 0)
    shared = free
    if xls:
        set_fat(fat, bits, shared, EOC[bits])
        free += 1
    for i in range(xls):
        e = short_entry(b'XL%06d   ' % i, 0x20, shared)
        # sizes differ: entries alike in all but the name are what a cut
        # move leaves (moved-twice), not a plain cross-link
        struct.pack_into('<I', e, 28, clus - i)
        ents += e
    per = clus // 32
    chain = [cl]
    while len(chain) * per < 2 + len(ents) // 32:
        chain.append(free + len(chain) - 1)
    for a, b in zip(chain, chain[1:]):
        set_fat(fat, bits, a, b)
    set_fat(fat, bits, chain[-1], EOC[bits])
    data = bytearray(len(chain) * clus)
    f.seek(g['data_off'] + (cl - 2) * clus)
    data[0:64] = f.read(64)
    data[64:64 + len(ents)] = ents
    for k, c in enumerate(chain):
        f.seek(g['data_off'] + (c - 2) * clus)
        f.write(data[k * clus:(k + 1) * clus])
    return len(chain) - 1 + (1 if xls else 0)


def main():
    img, depth, namelen = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    bad = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    dups = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    xls = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    with open(img, 'r+b') as f:
        boot = f.read(512)
        g = geometry(boot)
        bits, clus = g['bits'], g['clus']
        f.seek(g['rsvd'] * g['bps'])
        fat = bytearray(f.read(g['fatsz'] * g['bps']))
        first = g['root_cl'] + 1 if bits == 32 else 2
        if first + depth - 1 > g['count'] + 1:
            sys.exit('deep-tree.py: %d levels do not fit' % depth)
        need = 32 * (3 + (namelen + 12) // 13)
        if need > clus:
            sys.exit('deep-tree.py: clusters of %d bytes are too small'
                     % clus)
        if bits == 32:
            parent_off = g['data_off'] + (g['root_cl'] - 2) * clus
        else:
            parent_off = g['root_off']
        parent_cl = 0
        for i in range(depth):
            cl = first + i
            short = b'D%07d   ' % (i + 1)
            name = ('d%d-' % (i + 1)).ljust(namelen, 'x')[:namelen]
            ents = long_entries(name, short) + short_entry(short, 0x10, cl)
            f.seek(parent_off + (64 if parent_cl else 0))
            f.write(ents)
            body = short_entry(b'.          ', 0x10, cl) + \
                short_entry(b'..         ', 0x10, parent_cl)
            off = g['data_off'] + (cl - 2) * clus
            f.seek(off)
            f.write(body + bytes(clus - len(body)))
            set_fat(fat, bits, cl, EOC[bits])
            parent_off, parent_cl = off, cl
        more = add_bad(f, g, fat, parent_cl, first + depth, bad, dups,
                       xls) if bad or dups or xls else 0
        for k in range(g['nfats']):
            f.seek((g['rsvd'] + k * g['fatsz']) * g['bps'])
            f.write(fat)
        if bits == 32:
            off = g['fsinfo'] * g['bps']
            f.seek(off + 488)
            free, = struct.unpack('<I', f.read(4))
            f.seek(off + 488)
            f.write(struct.pack('<II', free - depth - more,
                                first + depth + more))


main()
