#!/bin/sh
# The production node_modules of one workspace package ($1), laid out as in the workspace, into
# /deps: what an image's bundle resolves its third-party imports from. Run from the sources.
# Only that package's own: its bundle carries the workspace packages it uses, and declares every
# third-party one they import (infra/test/bundles.test.ts), so theirs (and those of the workspace
# packages its tests use) stay out.
set -eu
turbo prune "$1" --docker --out-dir /deps
cd /deps/json
pnpm install --frozen-lockfile --prod --filter "$1" --store-dir=/pnpm/store
rm -rf patches
