#!/bin/sh
# Warm CI: a fresh checkout (new file times) at the built site's own path, its cache restored from
# a tar (tar --format=posix keeps the nanoseconds of file times), one post changed, then a build.
# usage: [WITH_SITE=1] [PYTHON=python3] benchmarks/warm_ci.sh SITE WORK REPO
# SITE: a site REPO's sitegen built before (bench_peers.py's WORK/sites/NAME-N); WITH_SITE=1 caches
# its output folder too. SITE is moved aside for the checkout (a CI checks out at the same
# path each time) and put back afterwards; WORK holds the tar.
set -e
site=$1; work=$2; code=$3
rm -rf "$work"; mkdir -p "$work"
/usr/bin/time -f "pack: %e s wall, %U+%S s CPU" tar --format=posix -cf "$work/cache.tar" -C "$site" .sitegen ${WITH_SITE:+_site}
/usr/bin/time -f "zstd -3: %e s wall, %U+%S s CPU" zstd -q -3 "$work/cache.tar" -o "$work/cache.tar.zst"
ls -l "$work/cache.tar" "$work/cache.tar.zst" | awk '{print $5, $9}'
echo "files in the cache: $(tar -tf "$work/cache.tar" | wc -l)"
mv "$site" "$site.built"
trap 'rm -rf "$site"; mv "$site.built" "$site"' EXIT
mkdir "$site"
for name in site.yaml content templates assets; do [ -e "$site.built/$name" ] && cp -r "$site.built/$name" "$site/"; done
post=$(ls "$site/content/posts" | sort | awk -v n="$(ls "$site/content/posts" | wc -l)" 'NR == int(n / 2) + 1')
printf '\n\nWarmCIMarker: this paragraph was appended for a CI build.\n' >> "$site/content/posts/$post"
sync
/usr/bin/time -f "restore (zstd -d | tar -x): %e s wall, %U+%S s CPU" sh -c "zstd -q -d -c '$work/cache.tar.zst' | tar -x -C '$site'"
cd "$site"
uptime
PYTHONPATH=$code /usr/bin/time -f "build: %e s wall, %U+%S s CPU (children included), %M KB peak" ${PYTHON:-python3} -m generator build 2>&1 | grep -v warning | tail -4
grep -rl WarmCIMarker _site --include=*.html | head -2
