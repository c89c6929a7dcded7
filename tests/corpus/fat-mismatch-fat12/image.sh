# the last copy differs: a free entry (FAT12), a link (FAT16, FAT32)
c_mkfs "$IMG" 12
c_populate "$IMG"
c_setfat "$IMG" "$(c_spare "$IMG" 50)" 5 1
