#!/usr/bin/env bash
# Starts a PostgreSQL server on this machine for the server's tests on PostgreSQL
# (crates/e2e/tests/postgres.rs and store.rs), installing Debian's `postgresql` first if
# it is missing, and prints the URL the tests take in TABULA_TEST_POSTGRES. Needs root (CI
# runs as root). A role and database `tabula` (password `tabula`) are made if missing; the
# tests make and drop databases of their own beside it.
set -euo pipefail

if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  echo "installing Debian's postgresql" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { found = 1 } END { exit !found }'; then
  pg_createcluster "$version" main >&2
fi
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { print $3 }')
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online" { found = 1 } END { exit !found }'; then
  pg_ctlcluster "$version" main start >&2
fi
for _ in $(seq 60); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.5
done
pg_isready -h 127.0.0.1 -p "$port" >&2

as_postgres() { runuser -u postgres -- "$@"; }
as_postgres psql -q -p "$port" -v ON_ERROR_STOP=1 <<'SQL' >&2
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tabula') THEN
    CREATE ROLE tabula LOGIN PASSWORD 'tabula' CREATEDB;
  END IF;
END $$;
SQL
if ! as_postgres psql -p "$port" -tAc "SELECT 1 FROM pg_database WHERE datname = 'tabula'" | grep -q 1; then
  as_postgres createdb -p "$port" -O tabula tabula >&2
fi
echo "postgres://tabula:tabula@127.0.0.1:$port/tabula"
