#!/bin/sh
# First start (an empty data directory): initdb, the user and database asked for, the init
# scripts; then the server on every interface, password authentication from the network.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s' "$POSTGRES_PASSWORD" > /tmp/pwfile
  initdb --username="$POSTGRES_USER" --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
  rm /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  [ "${POSTGRES_DB:-postgres}" = postgres ] || createdb -U "$POSTGRES_USER" "$POSTGRES_DB"
  for f in /docker-entrypoint-initdb.d/*.sql; do [ -e "$f" ] && psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "${POSTGRES_DB:-postgres}" -q -f "$f"; done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
