#!/bin/sh
# The production node_modules of one workspace package ($1), laid out as in the workspace, into
# /deps: what an image's bundle resolves its third-party imports from. Run from the sources.
set -eu
turbo prune "$1" --docker --out-dir /deps
cd /deps/json
pnpm install --frozen-lockfile --prod --store-dir=/pnpm/store
rm -rf patches
