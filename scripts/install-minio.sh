#!/usr/bin/env bash
# Builds the pinned MinIO server from its Go module into $(go env GOPATH)/bin (or $GOBIN).
# The integration-test fixture runs this when no minio binary is found; it takes a few minutes
# on a 2-core machine the first time (module download and compile), seconds once cached.
set -euo pipefail

MINIO_VERSION="${DTAP_MINIO_VERSION:-v0.0.0-20260212201848-7aac2a2c5b7c}"

if ! command -v go >/dev/null 2>&1; then
  echo "install-minio.sh: Go is not installed. Install Go 1.24 or newer (https://go.dev/dl/)," \
       "or start a Docker engine, or point DTAP_TEST_S3_ENDPOINT, DTAP_TEST_S3_ACCESS_KEY and" \
       "DTAP_TEST_S3_SECRET_KEY at an S3 store." >&2
  exit 2
fi

bindir="${GOBIN:-$(go env GOPATH)/bin}"
echo "install-minio.sh: building github.com/minio/minio@${MINIO_VERSION} into ${bindir}"
go install "github.com/minio/minio@${MINIO_VERSION}"
"${bindir}/minio" --version
echo "${bindir}/minio"
