#!/usr/bin/env bash
# One command from a fresh clone to a running service on :3000 (Debian/Ubuntu): installs what is
# missing (Node 26, Postgres, Redis, ffmpeg, LibreOffice, poppler, qpdf), starts Postgres and
# Redis if they are down, installs the npm packages, then `npm start` (which creates the database,
# applies the migrations and runs a worker in-process). What it cannot do without root it names,
# with the command that does it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/machine.sh

dropline_node
# The media and document tools' programs: without them the service still starts, and /readyz and
# GET /v1/tools say which tools are unavailable.
dropline_packages ffmpeg:ffmpeg soffice:libreoffice-nogui pdftoppm:poppler-utils qpdf:qpdf ||
  echo "(starting anyway: the tools that need them answer 503 tool_unavailable)"
dropline_services
dropline_database_url

source scripts/node26.sh
echo "node $(node --version), npm $(npm --version)"
npm install --no-audit --no-fund --loglevel=error
exec npm start
