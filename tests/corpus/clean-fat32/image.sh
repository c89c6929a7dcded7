# the standard FAT32 image with ordinary content
c_mkfs "$IMG" 32 -n CORPUS32
c_populate "$IMG"
