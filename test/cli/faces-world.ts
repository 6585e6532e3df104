/**
 * The world of differential-faces.test.ts: the one program both faces run (the package's dynamic classes, or
 * hand-written classes of the native plugin's types), a face (an emulator of its own and a program directory run by the
 * real CLI), and what a command showed on a face, read from the engine's events and the emulator's request log, every
 * id, time and random part masked by a label that means the same on both faces. project.test.ts runs a program of its
 * own (a Project, the native face through the generated SDK) in the same world.
 */
import * as fs from "fs";
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { nativeProgramDir, ProgramDir, Run } from "./program-dir";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const PROJECT = "neon-faces"; // the same on both faces: a compute's name carries a tag of project, stack and name
export const FACES = ["dynamic", "native"] as const;
export type FaceName = (typeof FACES)[number];

/** The program's resources and outputs, as both faces declare them (`Neon` is the dynamic package or the native kit). */
const RESOURCES = [
  `const config = new pulumi.Config();`,
  `const projectId = config.require("projectId");`,
  `const size = config.requireNumber("size");`,
  `const branch = new Neon.Branch("feature", { projectId });`,
  `const onBranch = { projectId, branchId: branch.branchId };`,
  `const db = new Neon.Compute("db", { ...onBranch, autoscalingLimitMinCu: size, autoscalingLimitMaxCu: size });`,
  `const role = new Neon.Role("app", { ...onBranch, name: "app_user" });`,
  `const appdb = new Neon.Database("appdb", { ...onBranch, name: config.require("databaseName"), ownerName: role.name });`,
  `export const branchId = branch.branchId;`,
  `export const branchName = branch.name;`,
  `export const endpointId = db.endpointId;`,
  `export const host = db.host;`,
  `export const poolerHost = db.poolerHost;`,
  `export const sizes = [db.autoscalingLimitMinCu, db.autoscalingLimitMaxCu];`,
  `export const roleName = role.name;`,
  `export const password = role.password;`,
  `export const databaseName = appdb.name;`,
  `export const databaseId = appdb.databaseId;`,
  `export const owner = appdb.ownerName;`,
];

const DYNAMIC_PROGRAM = [
  `import * as pulumi from "@pulumi/pulumi";`,
  `// The package's classes (its types are not read here: its export map needs a rootDir the test's tsconfig lacks).`,
  `// eslint-disable-next-line @typescript-eslint/no-require-imports`,
  `const Neon = require("pulumi-neon-dynamic");`,
  ``,
  ...RESOURCES,
];

/** Every output of each native type (schema.json), which a hand-written class passes as undefined to read it. */
function nativeOutputs(): Record<string, string[]> {
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")) as {
    resources: Record<string, { properties: Record<string, unknown> }>;
  };
  const types = ["Branch", "Compute", "Role", "Database"];
  return Object.fromEntries(types.map((t) => [t, Object.keys(schema.resources[`neon:index:${t}`].properties)]));
}

const NATIVE_PROGRAM = [
  `import * as pulumi from "@pulumi/pulumi";`,
  ``,
  `type Args = Record<string, pulumi.Input<unknown>>;`,
  `const OUTPUTS: Record<string, string[]> = ${JSON.stringify(nativeOutputs())};`,
  `/** A resource of the native plugin, declared by hand (no SDK is generated yet): its outputs passed as undefined. */`,
  `class Native extends pulumi.CustomResource {`,
  `  [output: string]: unknown;`,
  `  constructor(type: string, name: string, args: Args, opts?: pulumi.CustomResourceOptions) {`,
  `    const outputs = Object.fromEntries(OUTPUTS[type].map((key) => [key, undefined]));`,
  `    super(\`neon:index:\${type}\`, name, { ...outputs, ...args }, opts);`,
  `  }`,
  `}`,
  `const kind = (type: string) => class extends Native {`,
  `  constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {`,
  `    super(type, name, args, opts);`,
  `  }`,
  `};`,
  `const Neon = { Branch: kind("Branch"), Compute: kind("Compute"), Role: kind("Role"), Database: kind("Database") };`,
  ``,
  ...RESOURCES,
];

export interface Metadata {
  op: string;
  urn: string;
  type: string;
  keys?: string[];
  diffs?: string[];
  detailedDiff?: Record<string, { diffKind: string; inputDiff: boolean }> | null;
  old?: { inputs?: Record<string, unknown> };
  new?: { inputs?: Record<string, unknown> };
}

export interface EngineEvent {
  resourcePreEvent?: { metadata: Metadata };
  resOutputsEvent?: { metadata: Metadata };
  resOpFailedEvent?: { metadata: Metadata };
  diagnosticEvent?: { urn?: string; message: string; severity: string; ephemeral?: boolean };
}

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** One face: its emulator, its program directory, and the labels that mask its ids. */
export interface Face {
  name: FaceName;
  emulator: Emulator;
  dir: ProgramDir;
  /** id → label: `{br:main}`, `{br:feature}` (the Branch resource's), `{ep:db}`, `{db:appdb}`. */
  labels: Map<string, string>;
}

/** Another program than differential-faces' (each face's own lines), its Pulumi project's name and the SDK. */
export interface FaceProgram {
  program: Record<FaceName, string[]>;
  project: string;
  /** The native face's program imports the generated Node.js SDK (`@pulumi-neon/neon`, program-dir.ts). */
  sdk?: boolean;
}

/**
 * A face: a fresh emulator (the default fixture) and a directory with the face's program (differential-faces' unless
 * `other` gives one), run by the CLI.
 */
export async function startFace(name: FaceName, cliRoot: string, other?: FaceProgram): Promise<Face> {
  const emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  const program = other?.program[name] ?? (name === "dynamic" ? DYNAMIC_PROGRAM : NATIVE_PROGRAM);
  const dir = nativeProgramDir(emulator, cliRoot, {
    prefix: `faces-${name}`,
    project: other?.project ?? PROJECT,
    program,
    sdk: name === "native" && other?.sdk === true,
  });
  dir.env.PULUMI_DEBUG_COMMANDS = "true"; // the CLI takes --event-log (the engine's events) only with it
  return { name, emulator, dir, labels: new Map() };
}

/** A change of the program's config, as the default provider's step shows it on each face (expectSame). */
export const configChange = (key: string) => ({ dynamic: `update changed ${PROJECT}:${key}`, native: "same" });

export const nameOf = (urn: string) => urn.split("::").pop()!;

/** A type token with its face taken out: `neon:Compute` for both faces' computes, `provider` for both providers. */
export function typeOf(type: string): string {
  if (type.startsWith("pulumi:providers:")) return "provider";
  return type.replace(/^pulumi-nodejs:dynamic\/neon:/, "neon:").replace(/^neon:index:/, "neon:");
}

/**
 * Learns the labels of the ids the state holds (and the emulator's branches), after a command. A Project's id is
 * `{pr:<name>}`, and the default objects it made `{br:<name>.default}`, `{ep:<name>.default}`.
 */
function learn(face: Face): void {
  for (const [name, id] of Object.entries(face.emulator.branches))
    if (!face.labels.has(id)) label(face, id, `br:${name}`);
  const kinds: Record<string, string> = { Branch: "br", Compute: "ep", Database: "db", Project: "pr" };
  for (const r of (face.dir.checkpoint().resources ?? []) as StateResource[]) {
    const type = typeOf(r.type).replace("neon:", "");
    const kind = kinds[type];
    if (kind && r.id) label(face, r.id, `${kind}:${nameOf(r.urn)}`);
    if (type !== "Project") continue;
    const { defaultBranchId, defaultComputeId } = r.outputs ?? {};
    if (typeof defaultBranchId === "string") label(face, defaultBranchId, `br:${nameOf(r.urn)}.default`);
    if (typeof defaultComputeId === "string") label(face, defaultComputeId, `ep:${nameOf(r.urn)}.default`);
  }
}

function label(face: Face, id: string, base: string): void {
  if (face.labels.has(id)) return;
  const taken = [...face.labels.values()].filter((l) => l === `{${base}}` || l.startsWith(`{${base}#`)).length;
  face.labels.set(id, taken === 0 ? `{${base}}` : `{${base}#${taken + 1}}`);
}

/** A text with its face's ids, times, operations and random parts masked. */
export function masked(face: Face, text: string): string {
  let out = text.split(face.emulator.projectId).join("{project}");
  for (const [id, l] of face.labels) {
    // A database's id is a number: in JSON, bare or as the state's string id; it becomes the string of its label.
    const number = new RegExp(`"${id}"|(?<![\\w."])${id}(?![\\w."])`, "g");
    out = /^\d+$/.test(id) ? out.replace(number, JSON.stringify(l)) : out.split(id).join(l);
  }
  out = out.replace(/\bep-[a-z]+-[a-z]+-\d{6}/g, "{ep:?}").replace(/\bbr-[a-z]+-[a-z]+-\d{6}/g, "{br:?}");
  out = out.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "{op}");
  out = out.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "{time}");
  out = out.replace(/"ciphertext":"[^"]*"/g, '"ciphertext":"{ciphertext}"'); // a secret in the state
  return out.replace(/\b(pulumi-[0-9a-f]{12})-[0-9a-f]{8}\b/g, "$1-{n}");
}

/** What one command showed, masked so that both faces' views are equal where they behave alike. */
export interface View {
  steps: string[];
  diagnostics: string[];
  /** Every write, "METHOD path", sorted (steps that run in parallel interleave theirs). */
  writes: string[];
  /** Every read, sorted; the polls of operations as one line. */
  reads: string[];
}

function eventsOf(file: string): EngineEvent[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EngineEvent);
}

/** The inputs an update changed, by comparing the old and the new (internal keys, `__provider`, left out). */
function changedInputs(metadata: Metadata): string[] {
  const before = metadata.old?.inputs ?? {};
  const after = metadata.new?.inputs ?? {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)].filter((k) => !k.startsWith("__")));
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

export interface Command {
  run: Run;
  events: EngineEvent[];
  view: View;
}

/**
 * `pulumi <args> --event-log`, on one face: its steps, its diagnostics and its requests, masked. It must exit 0, or
 * with `fails`, must not (a refusal the test expects).
 */
export async function command(face: Face, args: string[], preview: boolean, fails = false): Promise<Command> {
  const log = path.join(face.dir.root, `events-${Date.now()}.jsonl`);
  const logged = [...args, "--event-log", log];
  const run = fails ? await face.dir.run(logged) : await face.dir.ok(logged);
  if (fails && run.code === 0)
    throw new Error(`pulumi ${args.join(" ")} succeeded on the ${face.name} face:\n${run.stdout}`);
  learn(face);
  const events = eventsOf(log);
  const steps = events
    .map((e) => (preview ? e.resourcePreEvent : (e.resOutputsEvent ?? e.resOpFailedEvent))?.metadata)
    .filter((m): m is Metadata => m !== undefined && m.type !== "pulumi:pulumi:Stack")
    .map((m) => {
      const changed = m.op === "update" ? ` changed ${changedInputs(m).join(",")}` : "";
      const keys = m.keys && m.keys.length > 0 ? ` keys ${[...m.keys].sort().join(",")}` : "";
      return `${nameOf(m.urn)} ${typeOf(m.type)}: ${m.op}${changed}${keys}`;
    })
    .sort();
  const diagnostics = events
    .map((e) => e.diagnosticEvent)
    .filter((d) => d !== undefined && !d.ephemeral && d.severity !== "debug")
    .map((d) => masked(face, d!.message.replace(/^warning: /, "").trim()))
    .sort();
  const line = (r: { method: string; path: string }) =>
    masked(face, `${r.method} ${r.path}`).replace(/(\/operations)\/\{op\}$/, "$1");
  const writes = run.requests
    .filter((r) => r.method !== "GET")
    .map(line)
    .sort();
  // Every read counts, but an operation's: it is polled as long as it runs, which depends on timing (one line).
  const gets = run.requests.filter((r) => r.method === "GET").map(line);
  const polls = gets.filter((get) => get.endsWith("/operations"));
  const reads = [...gets.filter((get) => !get.endsWith("/operations")), ...new Set(polls)].sort();
  return { run, events, view: { steps, diagnostics, writes, reads } };
}

/** The stack's outputs (`pulumi stack output --json`), masked; with `secrets`, the secrets shown. */
export async function stackOutputs(face: Face, secrets = false): Promise<Record<string, unknown>> {
  const run = await face.dir.ok(["stack", "output", "--json", ...(secrets ? ["--show-secrets"] : [])]);
  return JSON.parse(masked(face, run.stdout)) as Record<string, unknown>;
}

/** Each program resource's state (type mapped, `__provider` left out), masked; and whether it had `__provider`. */
export function stateOf(face: Face): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of (face.dir.checkpoint().resources ?? []) as StateResource[]) {
    if (!r.type.includes("neon:")) continue;
    const drop = ({ __provider, ...rest }: Record<string, unknown> = {}) => ({
      rest,
      dynamic: __provider !== undefined,
    });
    const inputs = drop(r.inputs);
    const outputs = drop(r.outputs);
    out[nameOf(r.urn)] = JSON.parse(
      masked(
        face,
        JSON.stringify({
          type: typeOf(r.type),
          id: r.id,
          inputs: inputs.rest,
          outputs: outputs.rest,
          __provider: inputs.dynamic || outputs.dynamic,
        }),
      ),
    );
  }
  return out;
}
