#!/usr/bin/env bash
# Builds a private armhf sysroot with the EGL/GLES headers and loaders, Mesa's
# llvmpipe and the armhf libc, without adding armhf as a dpkg architecture
# (the mirror's armhf security index can be stale, and a foreign architecture
# whose index fails breaks every later apt-get update on the machine).
#
#   tools/armhf-sysroot.sh [DIR]    default DIR: build-armhf/sysroot
#
# A separate apt configuration (armhf only, its own lists and cache in
# DIR-apt/) reads the main Debian archive and its -updates suite from the
# same mirror the machine's apt already uses; `apt-get download` fetches the
# packages and their runtime dependencies, and `dpkg -x` unpacks them into
# DIR. Needs no root. Quick when DIR already holds the same package set.
set -euo pipefail
cd "$(dirname "$0")/.."

sysroot=${1:-build-armhf/sysroot}
mkdir -p "$(dirname "$sysroot")"
sysroot=$(cd "$(dirname "$sysroot")" && pwd)/$(basename "$sysroot")
state=$sysroot-apt
# What the build links against and what the tests load at run time (the
# armhf libc for qemu-arm -L comes in as a dependency).
wanted=(libegl-dev libgles-dev libegl1 libgles2 libglvnd0 libegl-mesa0 libgl1-mesa-dri
        libglapi-mesa libc6)
stamp=$sysroot/.gltile-sysroot
if [[ -f "$stamp" && "$(cat "$stamp")" == "${wanted[*]}" ]]; then
  exit 0
fi

# The main archive of this release, and its -updates suite, as configured
# for the machine's own apt (never the security suite: its armhf index is
# the one that can be stale).
. /etc/os-release
codename=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
mapfile -t repos < <(apt-get indextargets --format '$(TARGET_OF) $(REPO_URI) $(RELEASE)' |
                     awk -v c="$codename" '$1 == "deb" && ($3 == c || $3 == c "-updates") { print $2, $3 }' |
                     sort -u)
if ((${#repos[@]} == 0)); then
  echo "armhf-sysroot: no '$codename' archive in the machine's apt sources" >&2
  exit 1
fi
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/debs"
: >"$state/status"
for r in "${repos[@]}"; do
  echo "deb [arch=armhf] ${r% *} ${r#* } main"
done >"$state/sources.list"

apt_opts=(-q -oAPT::Architecture=armhf -oAPT::Architectures=armhf
          -oDir::State::Lists="$state/lists" -oDir::State::status="$state/status"
          -oDir::Cache="$state/cache" -oDir::Etc::SourceList="$state/sources.list"
          -oDir::Etc::SourceParts=/dev/null -oDir::Etc::Preferences=/dev/null
          -oDir::Etc::PreferencesParts=/dev/null -oAPT::Sandbox::User="$(id -un)")

echo "armhf-sysroot: reading the armhf indexes of: ${repos[*]}"
apt-get "${apt_opts[@]}" update >/dev/null
# Runtime dependencies, recursively; virtual names come as <name> and are
# left out (the real packages that provide them are listed too).
mapfile -t packages < <(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests \
                          --no-conflicts --no-breaks --no-replaces --no-enhances "${wanted[@]}" |
                        grep -E '^[a-z0-9][a-z0-9+.-]*$' | sort -u)
echo "armhf-sysroot: downloading ${#packages[@]} packages"
(cd "$state/debs" && rm -f ./*.deb && apt-get "${apt_opts[@]}" download "${packages[@]}" >/dev/null)

rm -rf "$sysroot.new"
mkdir -p "$sysroot.new"
for deb in "$state/debs"/*.deb; do
  dpkg -x "$deb" "$sysroot.new"
done
# Absolute links (libfoo.so -> /usr/lib/..., /lib/ld-linux-armhf.so.3) would
# point into the build machine: make them relative to their place in the
# sysroot so that the cross linker and qemu-arm -L both stay inside it.
while IFS= read -r -d '' link; do
  target=$(readlink "$link")
  if [[ "$target" == /* ]]; then
    rel=$(realpath -ms --relative-to="$(dirname "$link")" "$sysroot.new$target")
    ln -sfn "$rel" "$link"
  fi
done < <(find "$sysroot.new" -type l -print0)
printf '%s' "${wanted[*]}" >"$sysroot.new/.gltile-sysroot"
rm -rf "$sysroot"
mv "$sysroot.new" "$sysroot"
echo "armhf-sysroot: $sysroot ready"
