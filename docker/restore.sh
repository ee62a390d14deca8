#!/bin/sh
# Restores a dump made by backup.sh into the database named by libpq's variables (PGHOST, PGPORT, PGUSER,
# PGPASSWORD, PGDATABASE), replacing every table in it. One transaction: if anything fails, the database
# is left as it was. Stop web, worker and beat first (docs/operations.md, "Back up and restore").
#   restore.sh /backups/rummy-20261201T030000Z.dump
set -eu

file="${1:?usage: restore.sh FILE.dump}"
[ -f "$file" ] || { echo "restore: no such file: $file" >&2; exit 1; }
pg_restore --list "$file" > /dev/null  # a readable dump, checked before anything is replaced
pg_restore --clean --if-exists --no-owner --no-privileges --single-transaction --exit-on-error \
  --dbname="${PGDATABASE:-rummy}" "$file"
echo "restore: restored $file into ${PGDATABASE:-rummy}"
