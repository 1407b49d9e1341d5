. /work/wt-frame/scripts/setup.sh
hv_build build-asan --enable-werror --enable-sanitizers --enable-debug
