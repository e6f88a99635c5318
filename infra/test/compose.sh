#!/usr/bin/env bash
# Proves that `docker compose up` gives a working Quire on this machine: builds every image (on a
# base made from Debian packages when no registry answers), writes the secrets with the image's
# `quire init`, starts infra/docker-compose.yml as a project of its own, waits for every health
# check, runs the smoke suite through the published ports (127.0.0.1 only), then removes the
# containers, volumes, networks, secrets and, unless --keep-images, the images it built.
# Run as root from a checkout: bash infra/test/compose.sh [--keep-images]
set -euo pipefail
cd "$(dirname "$0")/../.."
KEEP_IMAGES=$([ "${1:-}" = --keep-images ] && echo 1 || echo 0)
APPS=(orgs content review sites integrations git-sync insights gateway reader)
PROJECT=quire-proof-$$
GATEWAY_PORT=${GATEWAY_PORT:-18080}
READER_PORT=${READER_PORT:-18090}
started=$(date +%s)
say() { printf '\n== %s (%ss)\n' "$*" "$(($(date +%s) - started))"; }

# Debian's docker client brings BuildKit without the buildx plugin.
DOCKER=docker
if ! docker buildx version >/dev/null 2>&1 && [ -x /usr/bin/docker ]; then DOCKER=/usr/bin/docker; fi
export DOCKER DOCKER_BUILDKIT=1
if ! $DOCKER info >/dev/null 2>&1; then
  say "starting dockerd"
  (dockerd >/tmp/quire-dockerd.log 2>&1 &)
  for _ in $(seq 1 60); do $DOCKER info >/dev/null 2>&1 && break; sleep 1; done
fi
command -v docker-compose >/dev/null || { echo "docker-compose is missing: apt-get install docker-compose" >&2; exit 1; }

work=$(mktemp -d)
compose() { docker-compose -p "$PROJECT" -f "$work/infra/docker-compose.yml" "$@"; }
cleanup() {
  status=$?
  if [ $status -ne 0 ] && [ -f "$work/infra/docker-compose.yml" ]; then compose logs --tail=40 >&2 || true; fi
  say "removing what this run made"
  [ -f "$work/infra/docker-compose.yml" ] && compose down --volumes --remove-orphans >/dev/null 2>&1 || true
  $DOCKER rm -f "$PROJECT-git" >/dev/null 2>&1 || true
  if [ "$KEEP_IMAGES" = 0 ]; then
    $DOCKER rmi "${APPS[@]/#/quire/}" quire/ops quire-proof/postgres quire-proof/nats >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT

BASE=${QUIRE_BASE_IMAGE:-quire-base:node24}
if ! $DOCKER image inspect "$BASE" >/dev/null 2>&1; then
  say "building the base image $BASE from Debian packages"
  DOCKER=$DOCKER infra/images/base.sh "$BASE"
fi

say "building the images"
$DOCKER build -q -f infra/test/images/postgres.Dockerfile --build-arg BASE_IMAGE="$BASE" -t quire-proof/postgres infra/test/images >/dev/null
$DOCKER build -q -f infra/test/images/nats.Dockerfile --build-arg BASE_IMAGE="$BASE" -t quire-proof/nats infra/test/images >/dev/null
$DOCKER build -q -f infra/Dockerfile --build-arg BASE_IMAGE="$BASE" --target ops -t quire/ops . >/dev/null
for app in "${APPS[@]}"; do
  $DOCKER build -q -f infra/Dockerfile --build-arg BASE_IMAGE="$BASE" --build-arg APP="$app" -t "quire/$app" . >/dev/null
done
$DOCKER image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^quire/' | sort

say "quire init (the ops image)"
mkdir -p "$work/infra"
cp infra/docker-compose.yml infra/postgres-init.sql "$work/infra/"
$DOCKER run --rm --user "$(id -u)" -v "$work/infra:/deploy" quire/ops init --dir /deploy | tee "$work/init.txt"
grep -q 'sign in with the password' "$work/init.txt"
# shellcheck disable=SC1091
. "$work/infra/.env"
cat >>"$work/infra/.env" <<EOF
QUIRE_POSTGRES_IMAGE=quire-proof/postgres
QUIRE_NATS_IMAGE=quire-proof/nats
QUIRE_GATEWAY_PORT=$GATEWAY_PORT
QUIRE_READER_PORT=$READER_PORT
QUIRE_PUBLIC_URL=http://127.0.0.1:$GATEWAY_PORT
QUIRE_READER_URL=http://127.0.0.1:$READER_PORT
QUIRE_ALLOW_PRIVATE_NETWORK=true
EOF

say "docker-compose up"
compose up -d --no-build
for _ in $(seq 1 240); do
  states=$(compose ps -q | xargs $DOCKER inspect --format '{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}} {{.State.ExitCode}}')
  if echo "$states" | grep -E ' (exited [^ ]* [1-9]|restarting)' >&2; then echo "a container stopped" >&2; exit 1; fi
  waiting=$(echo "$states" | grep -vE ' running healthy | exited  0$' || true)
  [ -z "$waiting" ] && break
  sleep 2
done
[ -z "$waiting" ] || { echo "not healthy in time:" >&2; echo "$waiting" >&2; exit 1; }
echo "$states"
curl -fsS "http://127.0.0.1:$GATEWAY_PORT/readyz"; echo

say "a Git repository for the import"
mkdir -p "$work/src"
git -C "$work/src" init -q -b main
printf '# Welcome\n\nThe smoke docs.\n' >"$work/src/README.md"
printf '# Installation\n\nInstall with `pnpm add quire`.\n' >"$work/src/installation.md"
printf '# Summary\n\n* [Welcome](README.md)\n* [Installation](installation.md)\n' >"$work/src/SUMMARY.md"
git -C "$work/src" add -A && git -C "$work/src" -c user.name=Smoke -c user.email=smoke@quire.local commit -qm docs
git clone -q --bare "$work/src" "$work/git/docs.git"
# Served by git-sync's image (it has git), on the project's network.
network=$($DOCKER inspect -f '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}}{{end}}' "$(compose ps -q git-sync)")
$DOCKER run -d --name "$PROJECT-git" --network "$network" --network-alias gitserver --user root \
  -v "$work/git:/git:ro" -v "$PWD/infra/test/git-http.mjs:/git-http.mjs:ro" quire/git-sync node /git-http.mjs >/dev/null

say "the smoke suite"
GATEWAY="http://127.0.0.1:$GATEWAY_PORT" READER="http://127.0.0.1:$READER_PORT" ADMIN_EMAIL=admin@quire.local \
  ADMIN_PASSWORD="$QUIRE_BOOTSTRAP_PASSWORD" TOKEN="$QUIRE_BOOTSTRAP_TOKEN" REPO=http://gitserver/docs.git \
  node infra/test/compose-smoke.mjs

say "metrics"
for app in "${APPS[@]}"; do
  port=$(compose exec -T "$app" node -p 'process.env.METRICS_PORT')
  compose exec -T "$app" node -e "fetch('http://127.0.0.1:$port/metrics').then(async (r) => { const t = await r.text(); if (!r.ok || !t.includes('process_cpu')) process.exit(1); })"
  echo "$app: /metrics on $port"
done

say "a backup with the ops image"
compose run --rm ops backup --out /data/backups/smoke >/dev/null
compose run --rm --entrypoint sh ops -c 'test -s /data/backups/smoke/manifest.json && ls /data/backups/smoke'
say "passed"
