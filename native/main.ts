/**
 * `pulumi-resource-neon`: the native provider plugin (bin/pulumi-resource-neon runs this file). The engine starts it
 * with its own address as the first argument that is not a flag, and reads the port it listens on from its first line
 * of output (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go); warnings go back to that address (engine-log.ts).
 */
import { logWarningsTo } from "./engine-log";
import { packageVersion, serve } from "./server";

/** What `pulumi-resource-neon --help` prints: the plugin is started by Pulumi, not by hand. */
const usage = () => `pulumi-resource-neon: the Neon provider plugin for Pulumi (version ${packageVersion()}).

Pulumi starts it: a program's Pulumi.yaml names its folder (plugins: providers: [{name: neon, path: <folder>}]),
or it is on PATH, or in the plugin cache (pulumi plugin install resource neon <version> --file <folder>).
Started by hand, it serves the provider protocol on a port of 127.0.0.1 and prints that port.
More: docs/native.md in the repository.
`;

/**
 * The engine's address: the first argument that is neither a flag nor a flag's value. The engine passes
 * `--logtostderr`, `-v=N`, `--logflow`, and `--tracing <endpoint>` before it (sdk/go/common/resource/plugin/plugin.go,
 * buildPluginArguments).
 */
function engineAddress(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return undefined;
}

async function main(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(usage());
    return;
  }
  if (args.includes("--version")) {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  const engine = engineAddress(args);
  logWarningsTo(engine);
  const { port } = await serve();
  // A string, so that Node does not colour it; the engine reads this line.
  process.stdout.write(`${port}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-neon: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
