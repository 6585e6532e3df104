// A Go program of the native plugin, run by the real CLI through the Go Automation API: the Go language host cannot
// be built here (the module proxy refuses it), and an inline program serves itself (sdk/go/auto, --client=).
//
// It declares a Branch and a Compute on it with the generated Go SDK (sdk/go/neon), and, once an import has taken
// a branch made outside Pulumi into the stack, that branch too. test/cli/native-go.test.ts drives it: it writes one
// command a line on stdin and reads one JSON answer a line on stdout, reading the emulator's requests in between.
//
//	preview | up | refresh | destroy        the command, on the stack
//	set <key> <value>                       a stack config value (secret when the key is neon:apiKey)
//	import <type> <name> <id>               pulumi import of one resource
//	quit
//
// Environment: the CLI's (PULUMI_HOME, PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE; pulumi on PATH) and
// NEON_PLUGIN_DIR, the folder holding pulumi-resource-neon.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pulumi-neon/pulumi-neon/sdk/go/neon"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optimport"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// program: a branch, a compute of the configured size on it, and the imported branch when config names it.
func program(ctx *pulumi.Context) error {
	conf := config.New(ctx, "")
	projectId := pulumi.String(conf.Require("projectId"))
	size := pulumi.Float64(conf.RequireFloat64("size"))
	branch, err := neon.NewBranch(ctx, "dev", &neon.BranchArgs{ProjectId: projectId, Name: pulumi.String("go-dev")})
	if err != nil {
		return err
	}
	compute, err := neon.NewCompute(ctx, "db", &neon.ComputeArgs{
		ProjectId:             projectId,
		BranchId:              branch.BranchId,
		Type:                  neon.ComputeTypeReadWrite,
		AutoscalingLimitMinCu: size,
		AutoscalingLimitMaxCu: size,
	}, pulumi.DeleteBeforeReplace(true)) // a native Compute has no class to default it (docs/native.md)
	if err != nil {
		return err
	}
	if name := conf.Get("importedName"); name != "" {
		_, err := neon.NewBranch(ctx, "outside", &neon.BranchArgs{
			ProjectId: projectId,
			Name:      pulumi.String(name),
			ParentId:  pulumi.String(conf.Require("importedParentId")),
		}, pulumi.Protect(false))
		if err != nil {
			return err
		}
	}
	ctx.Export("branchId", branch.BranchId)
	ctx.Export("computeId", compute.EndpointId)
	ctx.Export("host", compute.Host)
	ctx.Export("maxCu", compute.AutoscalingLimitMaxCu)
	return nil
}

// answer is one command's result, a line of JSON.
type answer struct {
	Command string                 `json:"command"`
	Error   string                 `json:"error,omitempty"`
	Changes map[string]int         `json:"changes,omitempty"`
	Outputs map[string]interface{} `json:"outputs,omitempty"`
	Stdout  string                 `json:"stdout,omitempty"`
}

func main() {
	ctx := context.Background()
	project := auto.Project(workspace.Project{
		Name:    "neon-go",
		Runtime: workspace.NewProjectRuntimeInfo("go", nil),
		Plugins: &workspace.Plugins{Providers: []workspace.PluginOptions{{Name: "neon", Path: os.Getenv("NEON_PLUGIN_DIR")}}},
	})
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "neon-go", program, project)
	out := json.NewEncoder(os.Stdout)
	if err != nil {
		_ = out.Encode(answer{Command: "start", Error: err.Error()})
		os.Exit(1)
	}
	_ = out.Encode(answer{Command: "start"})
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		words := strings.Fields(lines.Text())
		if len(words) == 0 {
			continue
		}
		if words[0] == "quit" {
			return
		}
		_ = out.Encode(run(ctx, &stack, words))
	}
}

// run runs one command on the stack.
func run(ctx context.Context, stack *auto.Stack, words []string) answer {
	var text strings.Builder
	streams := []io.Writer{&text}
	result := answer{Command: strings.Join(words, " ")}
	var err error
	switch words[0] {
	case "preview":
		var r auto.PreviewResult
		r, err = stack.Preview(ctx, optpreview.ProgressStreams(streams...))
		result.Changes = changesOf(r.ChangeSummary)
	case "up":
		var r auto.UpResult
		r, err = stack.Up(ctx, optup.ProgressStreams(streams...))
		if r.Summary.ResourceChanges != nil {
			result.Changes = *r.Summary.ResourceChanges
		}
		result.Outputs = outputsOf(r.Outputs)
	case "refresh":
		var r auto.RefreshResult
		r, err = stack.Refresh(ctx, optrefresh.ProgressStreams(streams...))
		if r.Summary.ResourceChanges != nil {
			result.Changes = *r.Summary.ResourceChanges
		}
	case "destroy":
		var r auto.DestroyResult
		r, err = stack.Destroy(ctx, optdestroy.ProgressStreams(streams...))
		if r.Summary.ResourceChanges != nil {
			result.Changes = *r.Summary.ResourceChanges
		}
	case "set":
		err = expectWords(words, 3)
		if err == nil {
			err = stack.SetConfig(ctx, words[1], auto.ConfigValue{Value: words[2], Secret: words[1] == "neon:apiKey"})
		}
	case "import":
		err = expectWords(words, 4)
		if err == nil {
			err = importOne(ctx, stack, &optimport.ImportResource{Type: words[1], Name: words[2], ID: words[3]}, streams)
		}
	default:
		err = fmt.Errorf("unknown command %q (preview, up, refresh, destroy, set, import, quit)", words[0])
	}
	result.Stdout = text.String()
	if err != nil {
		result.Error = err.Error()
	}
	return result
}

// importOne runs pulumi import of one resource, without generating code. The CLI asks the project's language host
// which plugins the program needs (pkg/engine/plugins.go, GetRequiredPlugins), and an inline program serves the
// update commands only: with the Go host (pulumi-language-go) installed, ImportResources runs as it is. On machines
// where it cannot be built (the Go module proxy refuses it: ../shared/reference/real-pulumi-cli.md), the import runs
// with the project's runtime set to yaml for that one command: the YAML host (built beside pulumi) finds no program
// and asks for nothing but Pulumi.yaml's plugins, which name this repository's plugin.
func importOne(ctx context.Context, stack *auto.Stack, resource *optimport.ImportResource, streams []io.Writer) error {
	ws := stack.Workspace()
	settings, err := ws.ProjectSettings(ctx)
	if err != nil {
		return err
	}
	if os.Getenv("NEON_IMPORT_RUNTIME") != "go" {
		asYaml := *settings
		asYaml.Runtime = workspace.NewProjectRuntimeInfo("yaml", nil)
		if err := ws.SaveProjectSettings(ctx, &asYaml); err != nil {
			return err
		}
		defer func() { _ = ws.SaveProjectSettings(ctx, settings) }()
	}
	// Code is generated (by the host the import runs with): ImportResources reads the file it writes, and fails
	// without it (sdk/go/auto/stack.go at v3.248.0), GenerateCode(false) included.
	_, err = stack.ImportResources(ctx, optimport.Resources([]*optimport.ImportResource{resource}),
		optimport.Protect(false), optimport.ProgressStreams(streams...))
	return err
}

func expectWords(words []string, n int) error {
	if len(words) != n {
		return fmt.Errorf("%s takes %d arguments", words[0], n-1)
	}
	return nil
}

// changesOf flattens a preview's change summary (op → count).
func changesOf(summary map[apitype.OpType]int) map[string]int {
	changes := map[string]int{}
	for op, n := range summary {
		changes[string(op)] = n
	}
	return changes
}

// outputsOf: the stack outputs, a secret shown as "[secret]".
func outputsOf(outputs auto.OutputMap) map[string]interface{} {
	plain := map[string]interface{}{}
	for name, output := range outputs {
		if output.Secret {
			plain[name] = "[secret]"
		} else {
			plain[name] = output.Value
		}
	}
	return plain
}
