# FAT entry 0: its low byte is not the media byte
c_mkfs "$IMG" 12
c_populate "$IMG"
c_setfat "$IMG" 0 $((0xF00 | $(c_media_other "$IMG")))
