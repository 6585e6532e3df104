/**
 * Identity before write. The API addresses a role or a database by its name, and a name can pass to another object
 * outside Pulumi: a blue/green swap renames ours and gives its old name to a new database; a role deleted and made
 * again under its name is another role (a new password, a new creation time). A PATCH, DELETE or password reset sent
 * to the state's name would then change or delete the other object. So before each, the branch is read and the object
 * under the state's name is compared with the identity the state records (the database id, the creation time):
 *
 * - ours: written under that name;
 * - another object holds the name, or none does, and ours is in the branch under another name (found by its id; only
 *   databases have one): written under its new name, with a warning naming what happened;
 * - ours is in the branch under no name: gone (its project answering); the other object is never touched.
 *
 * State written before a creation time was recorded (or an object kept in state without one, after a failed create)
 * is identified by its name (and id) alone, as before; the next read records the creation time.
 * A rename or swap between this read and the write cannot be seen (the API has no conditional write).
 */
import type { Database, Role } from "../../client";
import { BranchAddress } from "./branch-objects";
import { warn } from "./diagnostics";
import { found } from "./errors";
import { goneError, goneText, ProjectObject, projectAnswers } from "./lifecycle";
import { client } from "./runtime";

/** What the docs say of objects renamed or replaced outside Pulumi. */
export const IDENTITY_DOCS = "docs/resources.md#roles-and-databases-renamed-or-replaced-outside-pulumi";

/** What a role or database record shows of its identity. */
export type NamedObject = Pick<Role, "name" | "created_at"> & { id?: Database["id"] };

/** The identity a state records: the id where the API gives one (databases), the creation time. */
export interface RecordedIdentity {
  id?: string;
  createdAt?: string;
}

/** The records of each kind. */
interface Objects {
  role: Role;
  database: Database;
}

/** A role or database as its state records it. */
export interface Target<K extends keyof Objects = keyof Objects> {
  kind: K;
  /** How messages name it: `Database appdb (id 123)`, `Role app_user`. */
  label: string;
  address: BranchAddress;
  /** The name in state. */
  name: string;
  recorded: RecordedIdentity;
}

/** What the branch holds of a target. `holder`: another object, under the state's name. */
export type Identified<T extends NamedObject> =
  { found: "ours"; object: T } | { found: "renamed"; object: T; holder?: T } | { found: "gone"; holder?: T };

/** True when `object` has the recorded identity (what is not recorded is not compared). */
export function isOurs(object: NamedObject, recorded: RecordedIdentity): boolean {
  const sameId = recorded.id === undefined || object.id === undefined || String(object.id) === recorded.id;
  return sameId && (recorded.createdAt === undefined || sameInstant(object.created_at, recorded.createdAt));
}

function sameInstant(a: string, b: string): boolean {
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(x) || Number.isNaN(y) ? a === b : x === y;
}

/** The recorded identity in a state: its `createdAt`, and the id given (a database's). */
export function recordedIn(props: Record<string, unknown>, id?: string): RecordedIdentity {
  return {
    ...(id !== undefined ? { id } : {}),
    ...(typeof props.createdAt === "string" ? { createdAt: props.createdAt } : {}),
  };
}

const LISTS: { [K in keyof Objects]: (address: BranchAddress) => Promise<Objects[K][]> } = {
  role: ({ projectId, branchId }) => client().roles.list(projectId, branchId),
  database: ({ projectId, branchId }) => client().databases.list(projectId, branchId),
};

/** What the branch holds of the target, from one read of its list (a branch that answers 404 holds nothing). */
export async function identify<K extends keyof Objects>(target: Target<K>): Promise<Identified<Objects[K]>> {
  const list: (address: BranchAddress) => Promise<Objects[K][]> = LISTS[target.kind];
  const objects = (await found(() => list(target.address))) ?? [];
  const holder = objects.find((object) => object.name === target.name);
  if (holder && isOurs(holder, target.recorded)) return { found: "ours", object: holder };
  const byId = target.recorded.id === undefined ? undefined : objects.find((o) => isOurs(o, target.recorded));
  return byId ? { found: "renamed", object: byId, holder } : { found: "gone", holder };
}

/**
 * Identity before write: the name to send the write to. Ours renamed: its new name, warned. Gone (once its project
 * answers): a change is refused, saying so; a delete resolves undefined (nothing to delete), warned when another object
 * holds the name.
 */
export async function nameToWrite<K extends keyof Objects>(
  target: Target<K>,
  write: "change" | "delete",
): Promise<string | undefined> {
  const now = await identify(target);
  if (now.found === "ours") return now.object.name;
  if (now.found === "renamed") {
    const doing = write === "change" ? "the change goes to" : "it is deleted under";
    warn(`${renamedText(target, now.object, now.holder)}: ${doing} ${now.object.name}. ${RECORD_NAME}`);
    return now.object.name;
  }
  if (!now.holder) await projectAnswers(objectOf(target));
  if (write === "change") throw goneError(objectOf(target), { ...taken(target, now.holder), refused: true });
  if (now.holder)
    warn(`${gone(target, now.holder)} Nothing was deleted; the resource leaves the state (${IDENTITY_DOCS}).`);
  return undefined;
}

/**
 * For a read: ours, under whatever name it has now; undefined when it is gone (once its project answers), warned when
 * another object holds its name (the refresh drops ours from the state; the other is never recorded as ours).
 */
export async function readOurs<K extends keyof Objects>(target: Target<K>): Promise<Objects[K] | undefined> {
  const now = await identify(target);
  if (now.found !== "gone") return now.object;
  if (now.holder) warn(`${gone(target, now.holder)} The refresh removes it from the state (${IDENTITY_DOCS}).`);
  else await projectAnswers(objectOf(target));
  return undefined;
}

/** The target as the lifecycle's messages name it (shared/lifecycle.ts): a 404 proves it gone once its project answers. */
function objectOf(target: Target): ProjectObject {
  const { projectId, branchId } = target.address;
  return { kind: target.kind, label: target.label, projectId, branchId, docs: IDENTITY_DOCS };
}

const RECORD_NAME = `Run \`pulumi refresh\` to record its name (${IDENTITY_DOCS}).`;

/** `the database now named shop (id 12) is another one, left untouched`. */
export function holderText(kind: Target["kind"], holder: NamedObject): string {
  const which = holder.id !== undefined ? `id ${holder.id}` : `created ${holder.created_at}`;
  return `the ${kind} now named ${holder.name} (${which}) is another one, left untouched`;
}

function renamedText(target: Target, object: NamedObject, holder: NamedObject | undefined): string {
  const where = `${target.label} of branch ${target.address.branchId}`;
  return `${where} was renamed outside Pulumi to ${object.name}${holder ? `, and ${holderText(target.kind, holder)}` : ""}`;
}

/** What a message about ours gone adds: the object that holds its name, if any, and what to do then. */
function taken(target: Target, holder: NamedObject | undefined): { also?: string; next?: string } {
  if (!holder) return {};
  const next = `give it another name, or remove it from the program: the other ${target.kind} stays`;
  return { also: `and ${holderText(target.kind, holder)}`, next };
}

/** Ours is gone: says so, and names the object that holds its name, if any (one sentence). */
const gone = (target: Target, holder: NamedObject | undefined): string =>
  goneText(objectOf(target), taken(target, holder));
