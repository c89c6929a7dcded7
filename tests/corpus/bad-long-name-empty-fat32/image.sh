# a long name whose first unit is 0 (an empty name), in ::DIR1: fsck.fat
# says nothing, and Linux's readdir of ::DIR1 fails with EIO
c_mkfs "$IMG" 32
c_populate "$IMG"
c_file "$IMG" "::DIR1/Some Long Name.txt" 10
c_x=$(c_long_index "$IMG" ::DIR1 "Some Long Name.txt") || exit 1
c_text "$IMG" $(($(c_dir_off "$IMG" ::DIR1 $((c_x - 1))) + 1)) '\000\000'
