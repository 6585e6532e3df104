/**
 * `pulumi import TYPE NAME ID`: the engine's Read with the import id alone, no properties and no inputs (pulumi/pulumi
 * step.go, ImportStep.Apply). The ids are the Terraform Neon providers': a branch `<project>/<branch>`, a compute
 * `<project>/<endpoint>`, a role or a database `<project>/<branch>/<name>`. The object is read by its resource's own
 * read (the refresh's), and the answer carries what a create would have left in state:
 *
 * - the id the resource keeps in state (a compute's `ep-…`, a branch's `br-…`, a role's `<project>/<branch>/<name>`,
 *   a database's service id), so that later calls find it as they find a created one;
 * - the outputs, with the inputs the class (here the URN) sets, `resourceName` and `ownerTag`, and the inputs declared
 *   (`declared`) where the resource records them: the Diff of the program's next preview compares with these;
 * - the inputs a program needs to declare it (`importedInputs`), which the engine records as the state's inputs and
 *   prints as code: declaring exactly these, the preview after the import shows no change.
 *
 * An ApiKey is refused: Neon returns a key's secret only in the answer to its creation.
 */
import {
  COMPUTE_ID,
  COMPUTE_ID_SHAPE,
  BRANCH_ID,
  BRANCH_ID_SHAPE,
  PROJECT_ID,
  PROJECT_ID_SHAPE,
} from "../provider/shared/ids";
import { Declaration, programInputs, sameValue } from "../provider/shared/declaration";
import { errorKind, found } from "../provider/shared/errors";
import { outOfReach, projectMissing } from "../provider/shared/lifecycle";
import { client } from "../provider/shared/runtime";
import type { Served } from "./resources";
import { internalInputs } from "./urn";

type Props = Record<string, unknown>;

/** A part of an import id: its name in the form, and its shape (api.md, Ids). */
interface Part {
  name: string;
  pattern: RegExp;
  shape: string;
}

const PROJECT: Part = { name: "project", pattern: PROJECT_ID, shape: PROJECT_ID_SHAPE };
const BRANCH: Part = { name: "branch", pattern: BRANCH_ID, shape: BRANCH_ID_SHAPE };
const ENDPOINT: Part = { name: "endpoint", pattern: COMPUTE_ID, shape: COMPUTE_ID_SHAPE };
/** A role's or database's name: the rest of the id, whatever it holds (ids hold no `/`: role/declaration.ts). */
const NAME: Part = { name: "name", pattern: /^.+$/s, shape: "the name, not empty" };

/** What the resource's read needs: the id it keeps in state, and the properties it reads. */
interface Located {
  id: string;
  props: Props;
}

/** How one resource is imported. */
interface Importer {
  /** The import id's parts, in order; the last one is the rest of the id when it is a name. */
  parts: Part[];
  example: string;
  /** The id and properties to read, from the id's parts; undefined when the object is not there. */
  locate(parts: string[]): Promise<Located | undefined> | Located;
  /** Inputs not handed back, with why (what a program leaves out is no change). */
  leftOut?: string[];
  /** The resource records the declared inputs among its outputs (`declared`: compute/plan.ts, branch/plan.ts). */
  recordsDeclared?: boolean;
}

const IMPORTERS: Record<string, Importer> = {
  Branch: {
    parts: [PROJECT, BRANCH],
    example: "my-project-123456/br-cool-darkness-123456",
    // `protected: true` only quiets the read's warning of a branch protected outside the program (branch/impl.ts):
    // the program is what the import writes, and the inputs it hands back say `protected: true` for such a branch.
    locate: ([projectId, branchId]) => ({ id: branchId, props: { projectId, protected: true } }),
    // The point on the parent the service recorded at creation: a program that leaves it out branched from the
    // parent's head, and leaving it out is no change (the Diff compares with `origin`: branch/plan.ts).
    leftOut: ["parentLsn", "parentTimestamp"],
    recordsDeclared: true,
  },
  Compute: {
    parts: [PROJECT, ENDPOINT],
    example: "my-project-123456/ep-cool-darkness-123456",
    locate: ([projectId, endpointId]) => ({ id: endpointId, props: { projectId } }),
    recordsDeclared: true,
  },
  Role: {
    parts: [PROJECT, BRANCH, NAME],
    example: "my-project-123456/br-cool-darkness-123456/app_user",
    // The state's id is the import id itself (role/declaration.ts), and the read takes the address from it.
    locate: ([projectId, branchId, name]) => ({
      id: `${projectId}/${branchId}/${name}`,
      props: { projectId, branchId, name },
    }),
  },
  Project: {
    parts: [PROJECT],
    example: "my-project-123456",
    // The read takes the default branch, role and database and reveals the role's password (project/changes.ts).
    locate: ([projectId]) => ({ id: projectId, props: {} }),
  },
  Database: {
    parts: [PROJECT, BRANCH, NAME],
    example: "my-project-123456/br-cool-darkness-123456/appdb",
    // The state's id is the service's database id, which stays across a rename (database/declaration.ts).
    locate: async ([projectId, branchId, name]) => {
      const database = await found(() => client().databases.get(projectId, branchId, name));
      if (database === undefined) return undefined;
      return { id: String(database.id), props: { projectId, branchId, name } };
    },
  },
};

/** Why an ApiKey cannot be imported, and what to do instead. */
const API_KEY_REFUSAL =
  "Neon returns a key's secret value only in the answer that creates it, so an imported key would have no `key` " +
  "output. Declare a new ApiKey instead (pulumi up creates it and records its key), move its users to it, then revoke " +
  "the old key in the Neon console.";

/** The import's answer: the state's id, the outputs and the inputs. */
export interface Imported {
  id: string;
  outputs: Props;
  inputs: Props;
}

/** Reads the object `importId` names, for the resource `urn`; see the module's doc. */
export async function importResource(served: Served, importId: string, urn: string): Promise<Imported> {
  const { declaration, lifecycle } = served;
  const importer = IMPORTERS[declaration.name];
  if (!importer) throw new Error(`cannot import ${declaration.name} ${importId}: ${API_KEY_REFUSAL}`);
  const parts = parseImportId(declaration.name, importer, importId);
  await projectReached(declaration, importId, parts);
  const internal = internalInputs(declaration, urn);
  const located = await importer.locate(parts);
  const read = located && (await lifecycle.read(located.id, { ...located.props, ...internal }));
  if (!read?.id) throw await missing(declaration, importId, parts);
  const outputs = { ...(read.props as Props) };
  const inputs = importedInputs(declaration, outputs, importer.leftOut);
  if (importer.recordsDeclared) outputs.declared = Object.keys({ ...inputs, ...internal }).sort();
  return { id: read.id, outputs, inputs };
}

/**
 * Resolves when the import id's project answers; otherwise (it does not exist, or the key does not reach it: Neon
 * answers 404 for both) throws saying so. Nothing is in the state yet, so there is nothing to remove from it.
 */
async function projectReached(declaration: Declaration, importId: string, parts: string[]): Promise<void> {
  const [projectId] = parts;
  const unanswered = await projectMissing({ projectId });
  if (unanswered === undefined) return;
  const label = `${declaration.name.toLowerCase()} ${parts[parts.length - 1]}`;
  throw new Error(
    `cannot import ${declaration.name} ${importId}: neither ${label} nor its project ${projectId} was found: check ` +
      `the project id, or ${outOfReach(projectId)}`,
    { cause: unanswered },
  );
}

/** The object is not there (its project answers): said, naming it, or its branch when that is missing too. */
async function missing(declaration: Declaration, importId: string, parts: string[]): Promise<Error> {
  const [projectId, branchId] = parts;
  const cannot = `cannot import ${declaration.name} ${importId}`;
  if (parts.length > 2 && !(await branchAnswers(projectId, branchId))) {
    return new Error(`${cannot}: project ${projectId} has no branch ${branchId}; check the branch id`);
  }
  const label = `${declaration.name.toLowerCase()} ${parts[parts.length - 1]}`;
  const where = parts.length > 2 ? `branch ${branchId} of project ${projectId}` : `project ${projectId}`;
  return new Error(`${cannot}: ${label} does not exist in ${where}`);
}

/** False when the project's branch answers 404; anything else is no proof of a missing branch. */
async function branchAnswers(projectId: string, branchId: string): Promise<boolean> {
  try {
    await client().branches.get(projectId, branchId);
    return true;
  } catch (error) {
    return errorKind(error) !== "not_found";
  }
}

/** The parts of `importId` in the resource's form, or an error naming the resource, the form and the id given. */
function parseImportId(type: string, importer: Importer, importId: string): string[] {
  const { parts } = importer;
  const split = importId.split("/");
  const named = parts[parts.length - 1] === NAME;
  const values = named ? [...split.slice(0, parts.length - 1), split.slice(parts.length - 1).join("/")] : split;
  const counted = named ? split.length >= parts.length : split.length === parts.length;
  const wrong = !counted
    ? `it has ${split.length} part${split.length === 1 ? "" : "s"}, not ${parts.length}`
    : parts.map((p, i) => (p.pattern.test(values[i]) ? "" : `<${p.name}> must be ${p.shape}`)).find(Boolean);
  if (!wrong) return values;
  const form = parts.map((p) => `<${p.name}>`).join("/");
  throw new Error(
    `cannot import ${type} ${JSON.stringify(importId)}: the import id of a ${type} is ${form} (such as ` +
      `${importer.example}), and ${wrong}`,
  );
}

/**
 * The inputs a program declares to have this object, as its outputs show them: each program input the outputs carry
 * under its own name, except those left out, the deprecated ones (a program would be warned of them) and a value that
 * is the row's default or nothing (an empty map): leaving those out is no change.
 */
function importedInputs(declaration: Declaration, outputs: Props, leftOut: string[] = []): Props {
  const inputs: Props = {};
  for (const name of programInputs(declaration)) {
    const row = declaration.inputs[name];
    const value = outputs[name];
    if (!(name in declaration.outputs) || leftOut.includes(name) || row.deprecation) continue;
    if (value === undefined || value === null || isEmptyMap(value)) continue;
    if (row.default !== undefined && sameValue(declaration, name, value, row.default)) continue;
    inputs[name] = value;
  }
  return inputs;
}

const isEmptyMap = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
