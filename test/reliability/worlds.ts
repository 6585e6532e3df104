/**
 * Declared worlds: what a program declares (computes and API keys), random successors of a world (create,
 * resize, move, restart trigger, rotate, delete), and the Pulumi program that declares a world.
 *
 * Successors never ask the service for something it must refuse: a branch holds one primary (read_write)
 * compute, and the main branch's primary belongs to the fixture, so a new or moved primary only goes to a
 * branch that has none before and after the change (a delete runs at the end of an `up`, after creates).
 */
import { mulberry32 } from "../../emulator/faults";
import { ApiKey, Compute } from "../../provider";
import { BRANCHES, BranchName, RigProject } from "./rig";

export interface ComputeDecl {
  name: string;
  project: number;
  branch: BranchName;
  type: "read_write" | "read_only";
  min: number;
  max: number;
  /** restartTriggers: [trigger]; a new value restarts the compute through the restart API. */
  trigger: number;
}

export interface KeyDecl {
  name: string;
  keyName: string;
}

export interface DeclaredWorld {
  computes: ComputeDecl[];
  keys: KeyDecl[];
}

export type Random = () => number;

/** Seedable (the emulator's mulberry32), so that a run is reproduced from its seed. */
export const seeded = (seed: number): Random => mulberry32(seed);

/** A primary compute declaration on the first project's `dev` branch, with what the caller changes. */
export function primaryDecl(name: string, extra: Partial<ComputeDecl> = {}): ComputeDecl {
  return { name, project: 0, branch: "dev", type: "read_write", min: 0.25, max: 1, trigger: 0, ...extra };
}

export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** Size pairs the service accepts: fixed sizes and autoscaling ranges. */
export const SIZE_PAIRS: readonly (readonly [number, number])[] = [
  [0.25, 0.25],
  [0.5, 0.5],
  [1, 1],
  [2, 2],
  [0.25, 1],
  [0.5, 2],
  [1, 4],
  [2, 8],
  [20, 20],
];

export const EMPTY_WORLD: DeclaredWorld = { computes: [], keys: [] };

/** A short name drawn from the seeded sequence (so a seed reproduces names too). */
const nameOf = (random: Random, prefix: string): string => `${prefix}${Math.floor(random() * 2 ** 32).toString(36)}`;

/** A random successor of `world`: each resource kept, changed or deleted, and a few new ones. */
export function nextWorld(random: Random, world: DeclaredWorld, projects: number, tag: string): DeclaredWorld {
  const computes: ComputeDecl[] = [];
  const taken = new Set(world.computes.filter((c) => c.type === "read_write").map(primarySlot));
  for (const old of world.computes) {
    const roll = random();
    if (roll < 0.15) continue; // delete
    const next = { ...old };
    if (roll < 0.35)
      [next.min, next.max] = pick(
        random,
        SIZE_PAIRS.filter(([a, b]) => a !== old.min || b !== old.max),
      );
    else if (roll < 0.5) next.trigger = old.trigger + 1;
    else if (roll < 0.65) next.branch = freeBranch(random, next, taken) ?? old.branch;
    computes.push(next);
    if (next.type === "read_write") taken.add(primarySlot(next));
  }
  const additions = Math.floor(random() * 3);
  for (let i = 0; i < additions && computes.length < 6; i++) {
    const [min, max] = pick(random, SIZE_PAIRS);
    const project = Math.floor(random() * projects);
    const free = (["dev", "staging"] as const).filter((b) => !taken.has(`${project}/${b}`));
    const primary = free.length > 0 && random() < 0.5;
    const branch = primary ? pick(random, free) : pick(random, BRANCHES);
    const fresh: ComputeDecl = {
      name: nameOf(random, "c"),
      project,
      branch,
      type: primary ? "read_write" : "read_only",
      min,
      max,
      trigger: 0,
    };
    if (primary) taken.add(primarySlot(fresh));
    computes.push(fresh);
  }
  return { computes, keys: nextKeys(random, world.keys, tag) };
}

function nextKeys(random: Random, keys: KeyDecl[], tag: string): KeyDecl[] {
  const next: KeyDecl[] = [];
  for (const old of keys) {
    const roll = random();
    if (roll < 0.15) continue; // delete (revoke)
    next.push(roll < 0.4 ? { ...old, keyName: `${tag}-${nameOf(random, old.name)}` } : old); // rotate: a new name
  }
  if (next.length < 3 && random() < 0.6) {
    const name = nameOf(random, "k");
    next.push({ name, keyName: `${tag}-${name}` });
  }
  return next;
}

function primarySlot(c: Pick<ComputeDecl, "project" | "branch">): string {
  return `${c.project}/${c.branch}`;
}

/** A branch other than the compute's where it may go: for a primary, one no primary holds or held. */
function freeBranch(random: Random, c: ComputeDecl, taken: Set<string>): BranchName | undefined {
  const candidates = (["main", "dev", "staging"] as const).filter((b) => b !== c.branch);
  const allowed =
    c.type === "read_only" ? candidates : candidates.filter((b) => b !== "main" && !taken.has(`${c.project}/${b}`));
  return allowed.length > 0 ? pick(random, allowed) : undefined;
}

/** The Pulumi program declaring `world`; it returns the keys' secrets, which the secret scan looks for. */
export function programOf(world: DeclaredWorld, projects: RigProject[]): () => Record<string, unknown> {
  return () => {
    for (const c of world.computes) {
      const project = projects[c.project];
      new Compute(c.name, {
        projectId: project.id,
        branchId: project.branches[c.branch],
        type: c.type,
        autoscalingLimitMinCu: c.min,
        autoscalingLimitMaxCu: c.max,
        restartTriggers: [c.trigger],
      });
    }
    const keys = world.keys.map((k) => new ApiKey(k.name, { keyName: k.keyName }).key);
    return { keys };
  };
}
