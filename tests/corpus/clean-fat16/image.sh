# the standard FAT16 image with ordinary content
c_mkfs "$IMG" 16 -n CORPUS16
c_populate "$IMG"
