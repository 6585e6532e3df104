/**
 * A JavaScript Pulumi program in a directory of its own inside the repository (so that the package resolves), with a
 * file backend and a PULUMI_HOME of its own, and the real CLI run on it as a user runs it: the suites that drive the
 * `pulumi` binary directly (an interrupted up, --continue-on-error) rather than through the Automation API.
 */
import { ChildProcess, execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { parse as parseYaml } from "yaml";
import { Emulator } from "../../emulator";
import { isExecutable } from "../../testing/cli";

const REPO_ROOT = path.resolve(__dirname, "../../..");

/** Pulumi.yaml's lines that point the engine at this repository's native plugin (bin/pulumi-resource-neon). */
export const NATIVE_PLUGIN_YAML = [
  "plugins:",
  "  providers:",
  "    - name: neon",
  `      path: ${path.join(REPO_ROOT, "bin")}`,
];

/**
 * A TypeScript program for this repository's native plugin, run by the real CLI (`cliRoot`) against `emulator`:
 * Pulumi.yaml points the engine at bin/pulumi-resource-neon; with `sdk`, the program imports the generated Node.js SDK
 * (`@pulumi-neon/neon`, sdk/nodejs), built into its node_modules as a user installs it (README, "SDKs").
 */
export function nativeProgramDir(
  emulator: Emulator,
  cliRoot: string,
  options: Pick<ProgramDirOptions, "prefix" | "project" | "program"> & { sdk?: boolean },
): ProgramDir {
  const dir = new ProgramDir({ ...options, emulator, cliRoot, typescript: true, pulumiYaml: NATIVE_PLUGIN_YAML });
  if (options.sdk) installNodeSdk(path.join(dir.program, "node_modules", "@pulumi-neon", "neon"));
  return dir;
}

/**
 * Builds the generated Node.js SDK (sdk/nodejs) into `into` with its package.json: `tsc`, then the package file
 * beside the output, as the SDK's README says. Its `@pulumi/pulumi` is this repository's (the program lives inside it).
 */
function installNodeSdk(into: string): void {
  const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
  const sdk = path.join(REPO_ROOT, "sdk", "nodejs");
  execFileSync(process.execPath, [tsc, "-p", sdk, "--outDir", into], { stdio: "pipe" });
  fs.copyFileSync(path.join(sdk, "package.json"), path.join(into, "package.json"));
}

/**
 * The CLI's YAML language host (`<cliRoot>/bin/pulumi-language-yaml`, which `npm run pulumi:install` builds and
 * Pulumi's installer ships), or a thrown error saying how to get it: a YAML program's test fails, never skips.
 */
export function yamlHostOrThrow(cliRoot: string): string {
  const host = path.join(cliRoot, "bin", "pulumi-language-yaml");
  if (!isExecutable(host)) {
    throw new Error(`no ${host}: run \`npm run pulumi:install\` (it builds pulumi-language-yaml beside pulumi)`);
  }
  return host;
}

/** A YAML example's Pulumi.yaml, as the native-plugin tests read it. */
export interface YamlProject {
  name: string;
  plugins: { providers: { name: string; path: string }[] };
  config: Record<string, unknown>;
  resources: Record<string, { type: string; properties: Record<string, unknown>; options?: unknown }>;
  outputs: Record<string, string>;
}

/** The Pulumi.yaml of the example in `dir`. */
export const readYamlProject = (dir: string): YamlProject =>
  parseYaml(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as YamlProject;

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The emulator's requests during the run. */
  requests: { method: string; path: string; status: number }[];
}

export interface StateResource {
  urn: string;
  id?: string;
  type: string;
  dependencies?: string[];
}

export interface Checkpoint {
  resources?: StateResource[];
  pending_operations?: { type: string; resource: { urn: string; inputs: Record<string, unknown> } }[];
}

export interface ProgramDirOptions {
  /** The prefix of the temporary directory under test/cli (git-ignored as `.tmp-*`). */
  prefix: string;
  project: string;
  /** The lines of index.js (index.ts with `typescript`); with `yaml`, Pulumi.yaml's after its name and runtime. */
  program: string[];
  /** A TypeScript program, index.ts, type-checked as the CLI runs it (with a strict tsconfig.json). */
  typescript?: boolean;
  /** A YAML program (`runtime: yaml`, run by pulumi-language-yaml beside the CLI): Pulumi.yaml alone. */
  yaml?: boolean;
  /** Lines added to Pulumi.yaml (a `plugins:` section). */
  pulumiYaml?: string[];
  emulator: Emulator;
  cliRoot: string;
}

export class ProgramDir {
  readonly root: string;
  readonly program: string;
  readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: ProgramDirOptions) {
    this.root = fs.mkdtempSync(path.join(REPO_ROOT, "test", "cli", `.tmp-${options.prefix}-`));
    this.program = path.join(this.root, "program");
    fs.mkdirSync(this.program);
    fs.mkdirSync(path.join(this.root, "backend"));
    const main = options.typescript ? "index.ts" : "index.js";
    if (options.yaml) {
      const yaml = [`name: ${options.project}`, "runtime: yaml", ...(options.pulumiYaml ?? []), ...options.program, ""];
      fs.writeFileSync(path.join(this.program, "Pulumi.yaml"), yaml.join("\n"));
    } else {
      const runtime = `runtime:\n  name: nodejs\n  options:\n    typescript: ${options.typescript === true}\n`;
      const yaml = [`name: ${options.project}\n${runtime}main: ${main}`, ...(options.pulumiYaml ?? []), ""];
      fs.writeFileSync(path.join(this.program, "Pulumi.yaml"), yaml.join("\n"));
      fs.writeFileSync(path.join(this.program, main), [...options.program, ""].join("\n"));
    }
    if (options.typescript) {
      const compilerOptions = {
        strict: true,
        target: "ES2021",
        module: "node16",
        moduleResolution: "node16",
        skipLibCheck: true,
      };
      fs.writeFileSync(path.join(this.program, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [main] }));
    }
    this.env = {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${path.join(this.root, "backend")}`,
      PULUMI_HOME: path.join(this.root, "home"),
      PULUMI_CONFIG_PASSPHRASE: "pulumi-neon-dynamic-tests",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_OPTION_NON_INTERACTIVE: "true",
      PATH: `${path.join(options.cliRoot, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      NEON_API_KEY: "",
      NEON_API_HOST: "",
    };
  }

  /** `pulumi <args>` in the program's directory, in a process group of its own; `started` sees the child. */
  run(args: string[], started?: (child: ChildProcess) => void): Promise<Run> {
    const { emulator, cliRoot } = this.options;
    const mark = emulator.requests.length;
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(cliRoot, "bin", "pulumi"), args, {
        cwd: this.program,
        env: this.env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (chunk) => (stdout += chunk));
      child.stderr?.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code, signal) =>
        resolve({ code, signal, stdout, stderr, requests: emulator.requests.slice(mark) }),
      );
      started?.(child);
    });
  }

  /** Like `run`, and fails the test with the CLI's output when it does not exit 0. */
  async ok(args: string[]): Promise<Run> {
    const result = await this.run(args);
    if (result.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** The stack's checkpoint as the file backend keeps it. */
  checkpoint(stack = "dev"): Checkpoint {
    const file = path.join(this.root, "backend", ".pulumi", "stacks", this.options.project, `${stack}.json`);
    return (JSON.parse(fs.readFileSync(file, "utf8")) as { checkpoint: { latest: Checkpoint } }).checkpoint.latest;
  }

  /** Processes still running with this directory's PULUMI_HOME: those the CLI started and left behind. */
  survivors(): { pid: number; command: string }[] {
    const marker = `PULUMI_HOME=${this.env.PULUMI_HOME}`;
    const found: { pid: number; command: string }[] = [];
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      try {
        const environ = fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
        if (!environ.includes(marker)) continue;
        const command = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim();
        found.push({ pid: Number(entry), command });
      } catch {
        // gone, or not ours to read
      }
    }
    return found;
  }

  /** Kills (by pid) what the CLI left running, then removes the directory. */
  async dispose(): Promise<void> {
    for (const { pid } of this.survivors()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
