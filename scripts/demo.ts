/**
 * `npm run demo`: the example primary-replica-key (a primary compute, a read replica, a CI API key) against the local
 * emulator, then, on the same emulator, a preview branch with its DATABASE_URL: the example pr-preview as the stack
 * pr-42 (demo-branch.ts).
 *
 * With a Pulumi CLI (built by `npm run pulumi:install`, or on PATH) it runs the real `pulumi` (demo-cli.ts). Without
 * one, which is the usual case for a newcomer, or with `--local`, it runs the same example through the local engine
 * (demo-local.ts), and says so in its first lines.
 * `--quiet` prints only each command's summary; colour only on a terminal, unless NO_COLOR. The emulator is closed in
 * every case.
 */
import * as path from "path";
import { startEmulator } from "../emulator";
import { findPulumiCli } from "../testing/cli";
import { DEMO_ORG, runWithCli } from "./demo-cli";
import { runLocally } from "./demo-local";

export { findPulumi } from "./demo-cli";

/** Runs the demo; resolves with the exit code. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  const emulator = await startEmulator({ operationDurationMs: 200, organization: DEMO_ORG });
  try {
    const local = argv.includes("--local");
    const cliRoot = local ? undefined : findPulumiCli();
    if (cliRoot) await runWithCli(path.join(cliRoot, "bin", "pulumi"), emulator);
    else {
      const width = process.stdout.columns ?? 100;
      const why = local ? "--local" : "no Pulumi CLI found";
      await runLocally(emulator, { quiet: argv.includes("--quiet"), color: useColor(process.stdout), width, why });
    }
    process.stdout.write("demo: done\n");
    return 0;
  } catch (error) {
    process.stdout.write(`demo: failed: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await emulator.close();
  }
}

/**
 * Colour only on a terminal, and not when NO_COLOR is set to anything but "" (no-color.org); FORCE_COLOR set to
 * anything but "" or "0" asks for it anywhere, and wins over NO_COLOR as in Node's own tty.getColorDepth.
 */
export function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return stream.isTTY === true;
}

if (require.main === module) {
  main().then((code) => (process.exitCode = code));
}
