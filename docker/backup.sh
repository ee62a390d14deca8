#!/bin/sh
# Dumps the site's PostgreSQL database into BACKUP_DIR, as NAME-YYYYmmddTHHMMSSZ.dump in pg_dump's custom
# format (compressed; restore.sh restores it), and removes dumps older than BACKUP_KEEP_DAYS days.
# The database is named by libpq's variables: PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE.
#   backup.sh once    one dump now
#   backup.sh loop    one dump now and one every BACKUP_EVERY_SECONDS (the compose `backup` service)
set -eu

dir="${BACKUP_DIR:-/backups}"

once() {
  mkdir -p "$dir"
  name="$dir/${PGDATABASE:-rummy}-$(date -u +%Y%m%dT%H%M%SZ).dump"
  # Written under another name first: a dump cut short never looks like a good one.
  pg_dump --format=custom --no-owner --no-privileges --file="$name.partial"
  mv "$name.partial" "$name"
  echo "backup: wrote $name ($(wc -c < "$name") bytes)"
  find "$dir" -name '*.dump' -mtime +"${BACKUP_KEEP_DAYS:-14}" -exec echo "backup: removing old" {} \; -exec rm -f {} \;
}

case "${1:-once}" in
  once) once ;;
  loop)
    while true; do
      once || echo "backup: FAILED (the next attempt is in ${BACKUP_EVERY_SECONDS:-86400} s)" >&2
      sleep "${BACKUP_EVERY_SECONDS:-86400}"
    done ;;
  *) echo "usage: backup.sh once|loop" >&2; exit 2 ;;
esac
