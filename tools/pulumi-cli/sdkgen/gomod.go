package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

const pulumiSDK = "github.com/pulumi/pulumi/sdk/v3"

// goModule is the Go SDK's own module: sdk/go/<name>, whose path is the schema's go.importBasePath.
type goModule struct {
	dir        string // under sdk/: go/neon
	path       string // github.com/…/sdk/go/neon
	sdkVersion string // the github.com/pulumi/pulumi/sdk/v3 it must require
}

func goModuleOf(data []byte) (goModule, error) {
	var spec struct {
		Language struct {
			Go struct {
				ImportBasePath string `json:"importBasePath"`
			} `json:"go"`
		} `json:"language"`
	}
	if err := json.Unmarshal(data, &spec); err != nil {
		return goModule{}, err
	}
	base := spec.Language.Go.ImportBasePath
	if base == "" {
		return goModule{}, errors.New("schema.json's language.go has no importBasePath")
	}
	version, err := pulumiSDKVersion()
	return goModule{dir: "go/" + path.Base(base), path: base, sdkVersion: version}, err
}

// kept are the module's go.mod and go.sum: `go mod tidy` keeps them, not this program.
func (m goModule) kept() map[string]bool {
	return map[string]bool{m.dir + "/go.mod": true, m.dir + "/go.sum": true}
}

// check names what is wrong with go.mod: missing, another module path, or another Pulumi SDK.
func (m goModule) check(out string) []string {
	file := filepath.Join(out, m.dir, "go.mod")
	data, err := os.ReadFile(file)
	if err != nil {
		return []string{file + ": missing (npm run generate writes a first one)"}
	}
	mod, err := modfile.Parse(file, data, nil)
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", file, err)}
	}
	var problems []string
	if mod.Module == nil || mod.Module.Mod.Path != m.path {
		problems = append(problems, fmt.Sprintf("%s: the module must be %s (schema.json's go.importBasePath)", file, m.path))
	}
	if got := required(mod, pulumiSDK); got != m.sdkVersion {
		problems = append(problems, fmt.Sprintf("%s: requires %s %q, not %s (tools/pulumi-cli/go.mod's pin): "+
			"npm run generate sets it, then run go mod tidy in %s", file, pulumiSDK, got, m.sdkVersion, filepath.Dir(file)))
	}
	return problems
}

// ensure writes go.mod when it is missing or requires another module path or Pulumi SDK, keeping the rest of it.
func (m goModule) ensure(out string) ([]string, error) {
	if len(m.check(out)) == 0 {
		return nil, nil
	}
	file := filepath.Join(out, m.dir, "go.mod")
	mod := &modfile.File{}
	if data, err := os.ReadFile(file); err == nil {
		if mod, err = modfile.Parse(file, data, nil); err != nil {
			return nil, err
		}
	}
	if err := mod.AddModuleStmt(m.path); err != nil {
		return nil, err
	}
	if mod.Go == nil {
		if err := mod.AddGoStmt("1.25"); err != nil {
			return nil, err
		}
	}
	if err := mod.AddRequire(pulumiSDK, m.sdkVersion); err != nil {
		return nil, err
	}
	mod.Cleanup()
	data, err := mod.Format()
	if err == nil {
		err = os.WriteFile(file, data, 0o644)
	}
	return []string{fmt.Sprintf("wrote %s: now run go mod tidy in %s, and commit go.mod and go.sum", file,
		filepath.Dir(file))}, err
}

func required(mod *modfile.File, module string) string {
	for _, r := range mod.Require {
		if r.Mod.Path == module {
			return r.Mod.Version
		}
	}
	return "none"
}
