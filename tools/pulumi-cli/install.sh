#!/usr/bin/env bash
# Builds the real Pulumi CLI from its Go module into .pulumi-cli/bin (git-ignored), with the plugins it needs beside
# it: `npm run pulumi:install`.
#
#   pulumi                          github.com/pulumi/pulumi/pkg/v3/cmd/pulumi at the version go.mod pins, which is
#                                   the version of @pulumi/pulumi in package-lock.json; `pulumi version` prints it
#   pulumi-resource-pulumi-nodejs   the dynamic provider's launcher, as @pulumi/pulumi ships it
#   pulumi-language-nodejs          a stand-in for the Node.js language host (language-host.js says why)
#   pulumi-language-yaml            the YAML language host, github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml at
#                                   the version yaml/go.mod pins (a module of its own: it needs a newer pkg/v3 than
#                                   the CLI's); Go's build info in the binary (`go version -m`) says which it is
#
# Nothing but Go modules is downloaded. A build of the same version is reused; PULUMI_CLI_REBUILD=1 forces both.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$root/.pulumi-cli/bin"

say() { printf 'pulumi:install: %s\n' "$*"; }

version="$(sed -n 's/^[[:space:]]*github.com\/pulumi\/pulumi\/pkg\/v3 v\([0-9.]*\).*/\1/p' "$here/go.mod" | head -1)"
sdk_version="$(node -p "require('$root/package-lock.json').packages['node_modules/@pulumi/pulumi'].version" 2>/dev/null || true)"
yaml_version="$(sed -n 's/^[[:space:]]*github.com\/pulumi\/pulumi-yaml v\([0-9.]*\).*/\1/p' "$here/yaml/go.mod" | head -1)"
if [[ -z "$version" ]]; then
  say "tools/pulumi-cli/go.mod requires no github.com/pulumi/pulumi/pkg/v3" >&2
  exit 1
fi
if [[ -z "$yaml_version" ]]; then
  say "tools/pulumi-cli/yaml/go.mod requires no github.com/pulumi/pulumi-yaml" >&2
  exit 1
fi
if [[ -n "$sdk_version" && "$sdk_version" != "$version" ]]; then
  say "tools/pulumi-cli/go.mod builds v$version but package-lock.json has @pulumi/pulumi $sdk_version:" >&2
  say "  cd tools/pulumi-cli && go get github.com/pulumi/pulumi/pkg/v3@v$sdk_version github.com/pulumi/pulumi/sdk/v3@v$sdk_version && go mod tidy" >&2
  exit 1
fi

write_launchers() {
  mkdir -p "$bin"
  # The launcher @pulumi/pulumi ships: it resolves cmd/dynamic-provider from the program's directory (its cwd).
  cat >"$bin/pulumi-resource-pulumi-nodejs" <<'EOF'
#!/bin/sh
PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH=$(node -e "console.log(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))")
if [ ! -z "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" ]; then
    node "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" $@
fi
EOF
  cat >"$bin/pulumi-language-nodejs" <<EOF
#!/bin/sh
PULUMI_LANGUAGE_HOST_VERSION=$version exec node "$here/language-host.js" "\$@"
EOF
  chmod +x "$bin/pulumi-resource-pulumi-nodejs" "$bin/pulumi-language-nodejs"
}

# The version of pulumi-language-yaml a binary was built from: Go's build info names the module of its main package.
yaml_built() { go version -m "$1" 2>/dev/null | awk '$1 == "mod" && $2 == "github.com/pulumi/pulumi-yaml" { print $3 }'; }

need_go() {
  command -v go >/dev/null 2>&1 && return 0
  say "Go is not installed, so $1 cannot be built here. Either:" >&2
  say "  - install Pulumi's CLI with its installer: curl -fsSL https://get.pulumi.com | sh (then pulumi is on PATH)," >&2
  say "  - or install Go 1.26 or later (https://go.dev/dl/) and run npm run pulumi:install again." >&2
  say "Everything but the real-CLI suite runs without it: npm run demo and npm test use the local engine." >&2
  exit 1
}

ticker=""
start_ticker() {
  start=$SECONDS
  (while sleep 30; do say "still building $1 ($((SECONDS - start)) s)"; done) &
  ticker=$!
}
stop_ticker() {
  [[ -n "$ticker" ]] && kill "$ticker" 2>/dev/null || true
  ticker=""
}
trap stop_ticker EXIT

build_cli() {
  say "building pulumi v$version from github.com/pulumi/pulumi/pkg/v3 ($(go version | cut -d' ' -f3))"
  say "a first build downloads about 1.5 GB of Go modules and compiles for about 3 minutes on two cores; with Go's build cache, seconds"
  start_ticker pulumi
  (cd "$here" && go mod download)
  say "modules ready ($((SECONDS - start)) s); compiling"
  # As upstream builds it (.goreleaser.yml): no cgo, trimmed paths, these tags, the version injected.
  (cd "$here" && CGO_ENABLED=0 go build -mod=readonly -trimpath -tags osusergo,grpcnotrace \
    -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
    -o "$bin/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
  stop_ticker
  say "built $("$bin/pulumi" version) in $((SECONDS - start)) s: $bin/pulumi"
}

build_yaml() {
  say "building pulumi-language-yaml v$yaml_version from github.com/pulumi/pulumi-yaml ($(go version | cut -d' ' -f3))"
  say "a first build downloads the modules it does not share with the CLI (pulumi v3.254.0 among them) and compiles for about 4 minutes on two cores; with Go's build cache, seconds"
  start_ticker pulumi-language-yaml
  # Built into a temporary file and moved into place: a failed build leaves no binary that looks built.
  if ! (cd "$here/yaml" && go mod download && say "modules ready ($((SECONDS - start)) s); compiling" &&
    CGO_ENABLED=0 go build -mod=readonly -trimpath -tags osusergo,grpcnotrace \
      -ldflags "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$yaml_version" \
      -o "$bin/pulumi-language-yaml.tmp" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml); then
    stop_ticker
    rm -f "$bin/pulumi-language-yaml.tmp"
    say "pulumi-language-yaml v$yaml_version failed to build (Go's error above); pulumi is built, but YAML programs (test/cli/native-yaml.test.ts) cannot run" >&2
    exit 1
  fi
  mv "$bin/pulumi-language-yaml.tmp" "$bin/pulumi-language-yaml"
  stop_ticker
  say "built pulumi-language-yaml $(yaml_built "$bin/pulumi-language-yaml") in $((SECONDS - start)) s: $bin/pulumi-language-yaml"
}

if [[ -z "${PULUMI_CLI_REBUILD:-}" && -x "$bin/pulumi" ]] && [[ "$("$bin/pulumi" version 2>/dev/null)" == "v$version" ]]; then
  say "v$version already built: $bin/pulumi (PULUMI_CLI_REBUILD=1 builds it again)"
else
  need_go "the CLI"
  mkdir -p "$bin"
  build_cli
fi
write_launchers

if [[ -z "${PULUMI_CLI_REBUILD:-}" && -x "$bin/pulumi-language-yaml" ]] && ! command -v go >/dev/null 2>&1; then
  say "pulumi-language-yaml already built: $bin/pulumi-language-yaml (without Go, its version is not checked)"
elif [[ -z "${PULUMI_CLI_REBUILD:-}" && -x "$bin/pulumi-language-yaml" ]] &&
  [[ "$(yaml_built "$bin/pulumi-language-yaml")" == "v$yaml_version" ]]; then
  say "pulumi-language-yaml v$yaml_version already built: $bin/pulumi-language-yaml"
else
  need_go "pulumi-language-yaml"
  build_yaml
fi
