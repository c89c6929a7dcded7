# An end-of-directory entry (name[0] 0) and a garbage entry after it, which
# the FAT spec and mtools ignore (fsck.fat 4.2 reads on)
c_mkfs "$IMG" 16
c_populate "$IMG"
c_file "$IMG" ::DIR1/LAST.TXT 0
c_o=$(c_entry "$IMG" ::DIR1 "LAST    TXT")
c_text "$IMG" "$c_o" '\000'
c_text "$IMG" $((c_o + 32)) 'lower?? txt'
