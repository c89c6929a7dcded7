# the value 1, likewise
c_mkfs "$IMG" 12
c_populate "$IMG"
c_setfat "$IMG" "$(c_spare "$IMG" 100)" 1
