# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a move cut between its writes: DIR1/B.BIN starts where /A.BIN does, same size
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" ::A.BIN $((G_CLUS * 2 + 5))
c_file "$IMG" ::DIR1/B.BIN $((G_CLUS * 2 + 5))
c_free_chain "$IMG" "$(c_first "$IMG" ::DIR1/B.BIN)"
c_set_start "$IMG" "$(c_entry "$IMG" ::DIR1 "B       BIN")" \
	"$(c_first "$IMG" ::A.BIN)"
