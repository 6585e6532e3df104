/**
 * `pulumi-resource-neon`: the native provider plugin (bin/pulumi-resource-neon runs this file). The engine starts it
 * with its own address as the first argument that is not a flag, and reads the port it listens on from its first line
 * of output (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go); warnings go back to that address (engine-log.ts).
 */
import { logWarningsTo } from "./engine-log";
import { serve } from "./server";

async function main(args: string[]): Promise<void> {
  const engine = args.find((arg) => !arg.startsWith("-"));
  logWarningsTo(engine);
  const { port } = await serve();
  // A string, so that Node does not colour it; the engine reads this line.
  process.stdout.write(`${port}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-neon: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
