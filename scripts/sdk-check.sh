#!/usr/bin/env bash
# npm run sdk:check (CI runs it after npm run generate:check): the generated SDKs are usable, each as its language's
# tools take it. The Go SDK builds and vets in its own module (sdk/go/neon, with its go.mod and go.sum); the Node.js SDK
# type-checks with its own tsconfig.json against this repository's @pulumi/pulumi; the Python SDK byte-compiles (its
# `pulumi` package is on PyPI, which cannot be reached here, so nothing imports it). Nothing is written to sdk/. First,
# the generator's own test (tools/pulumi-cli/sdkgen: what it removes and what it keeps).
set -euo pipefail
cd "$(dirname "$0")/.."

step() {
  local name="$1"
  shift
  local start=$SECONDS
  printf 'sdk:check: %s\n' "$name"
  "$@"
  printf 'sdk:check: %s: ok (%d s)\n' "$name" $((SECONDS - start))
}

if ! command -v go >/dev/null 2>&1; then
  echo "sdk:check: Go is not installed, so the Go SDK cannot be built: install Go 1.26 or later (https://go.dev/dl/)" >&2
  exit 1
fi
pycache="$(mktemp -d)"
trap 'rm -rf "$pycache"' EXIT

step "tools/pulumi-cli/sdkgen: go test" bash -c 'cd tools/pulumi-cli && go test -mod=readonly ./sdkgen'
step "sdk/go/neon: go build and go vet" bash -c 'cd sdk/go/neon && go build ./... && go vet ./...'
step "sdk/nodejs: tsc --noEmit" npx tsc -p sdk/nodejs/tsconfig.json --noEmit
step "sdk/python: python3 -m compileall" env PYTHONPYCACHEPREFIX="$pycache" python3 -m compileall -q sdk/python
