/**
 * What the URN says of a resource, and the inputs a dynamic resource's class sets that a native resource's program
 * does not: the declaration's `internal` rows (`resourceName`, Compute's `ownerTag`), which messages, default names and
 * the recognition of a compute left by an interrupted run rely on. Here they come from the URN, which names the same
 * project, stack and resource the class reads from Pulumi's runtime.
 */
import { ownerTagFor } from "../provider/compute/owner-tag";
import type { Declaration } from "../provider/shared/declaration";

type Props = Record<string, unknown>;

export interface UrnParts {
  stack: string;
  project: string;
  /** The resource's own type (the last of a parent chain `parent$child`). */
  type: string;
  name: string;
}

/** `urn:pulumi:<stack>::<project>::<parent types$type>::<name>` (pulumi/pulumi sdk/go/common/resource/urn.go). */
export function parseUrn(urn: string): UrnParts {
  const [head = "", project = "", qualified = "", ...name] = urn.split("::");
  const types = qualified.split("$");
  return {
    stack: head.replace(/^urn:pulumi:/, ""),
    project,
    type: types[types.length - 1],
    name: name.join("::"),
  };
}

/** The internal inputs of the resource `urn`, as the dynamic resource's class sets them. */
export function internalInputs(declaration: Declaration, urn: string): Props {
  const { project, stack, name } = parseUrn(urn);
  const derived: Props = {
    resourceName: name,
    ownerTag: ownerTagFor(project, stack, name),
  };
  return Object.fromEntries(Object.entries(derived).filter(([property]) => declaration.inputs[property]?.internal));
}

/** The new inputs with the internal inputs the program left out filled from the URN. */
export function withInternalInputs(declaration: Declaration, urn: string, news: Props): Props {
  const filled = { ...news };
  for (const [property, value] of Object.entries(internalInputs(declaration, urn)))
    if (filled[property] === undefined) filled[property] = value;
  return filled;
}
