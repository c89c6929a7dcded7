# B starts at A's second cluster (B's own cluster freed)
c_mkfs "$IMG" 12
c_populate "$IMG"
c_cross_link_ab "$IMG"
