# Source this file (bash). What a fresh Debian/Ubuntu machine lacks to run Dropline, installed or
# started, shared by scripts/up.sh (the service) and .ci/run (the tests). Without root (nor
# password-less sudo) nothing is installed: one line says what is missing and the command that provides it.

# The machine's package manager, as root or through sudo; empty when neither is possible.
_dropline_root() {
  if [ "$(id -u)" -eq 0 ]; then echo " "; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then echo "sudo"; fi
}

# dropline_packages "command:package" …: installs the package of each command not on the PATH.
dropline_packages() {
  local missing=() pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || [ -x "${pair%%:*}" ] || missing+=("${pair#*:}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local as
  as="$(_dropline_root)"
  if [ -z "$as" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "Dropline needs ${missing[*]}: run \`sudo apt-get install -y ${missing[*]}\`" >&2
    return 1
  fi
  echo "installing ${missing[*]}"
  $as apt-get update -qq
  $as env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Node, if there is none at all (scripts/node26.sh then puts Node 26 first on the PATH).
dropline_node() {
  command -v npm >/dev/null 2>&1 || dropline_packages node:nodejs npm:npm
}

# Postgres on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (the defaults of DATABASE_URL and
# REDIS_URL): installed if absent, started if down, waited for.
dropline_services() {
  dropline_packages pg_isready:postgresql redis-server:redis-server || return 1
  local as
  as="$(_dropline_root)"
  if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
    if [ -z "$as" ]; then
      echo "Dropline needs Postgres on 127.0.0.1:5432: run \`sudo pg_ctlcluster $(ls /etc/postgresql | tail -1) main start\`" >&2
      return 1
    fi
    echo "starting Postgres"
    $as pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | tail -1)" main start
  fi
  if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    echo "starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  fi
  for _ in $(seq 1 60); do
    pg_isready -h 127.0.0.1 -p 5432 -q && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && return 0
    sleep 1
  done
  echo "Postgres or Redis did not come up within 60 s" >&2
  return 1
}

# A fresh Debian cluster asks for a password on 127.0.0.1, which the default DATABASE_URL has not:
# give the postgres role a random one and write DATABASE_URL into .env (git-ignored, read by npm
# start and the admin CLI), rather than loosening the cluster's authentication. Left alone when
# .env already sets DATABASE_URL or the default URL connects.
dropline_database_url() {
  [ -f .env ] && grep -q '^DATABASE_URL=' .env && return 0
  PGCONNECT_TIMEOUT=5 psql "postgres://postgres@127.0.0.1:5432/postgres" -Atqc 'select 1' >/dev/null 2>&1 </dev/null && return 0
  local as password
  as="$(_dropline_root)"
  if [ -z "$as" ]; then
    echo "Dropline needs DATABASE_URL for this Postgres (postgres@127.0.0.1 asks for a password): put DATABASE_URL=postgres://USER:PASSWORD@127.0.0.1:5432/dropline in .env" >&2
    return 1
  fi
  password="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  $as runuser -u postgres -- psql -qc "ALTER ROLE postgres PASSWORD '$password'" >/dev/null
  echo "DATABASE_URL=postgres://postgres:$password@127.0.0.1:5432/dropline" >>.env
  echo "Postgres: set a password for the postgres role and wrote DATABASE_URL to .env"
}
