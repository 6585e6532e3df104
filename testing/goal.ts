/**
 * A registration's goal (resource.Goal in pulumi/pulumi `sdk/go/common/resource/resource_goal.go`), read from the
 * RegisterResourceRequest the Node.js SDK sends, and the URNs its aliases stand for (step_generator.go
 * `generateAliases`, `collapseAliasToUrn`, `inheritedChildAlias`).
 */
import { isProviderType, makeUrn, nameOf, qualifiedType, ROOT_STACK_TYPE, typeOf } from "./urn";
import { Props, Value } from "./values";

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface AliasSpec {
  urn?: string;
  name?: string;
  type?: string;
  parent?: string;
  noParent?: boolean;
  project?: string;
  stack?: string;
}

export interface Goal {
  type: string;
  name: string;
  custom: boolean;
  parent?: string;
  inputs: Props;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  protect?: boolean;
  retainOnDelete?: boolean;
  /** undefined: the provider decides; set: the program's option overrides it (continueStepsFromDiff). */
  deleteBeforeReplace?: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  additionalSecretOutputs: string[];
  aliases: AliasSpec[];
  replacementTrigger?: Value;
  /** The `import` option's id (not modelled: see unmodelled). */
  importId?: string;
  /** An explicit provider's reference (not modelled: see unmodelled). */
  provider?: string;
}

/** The goal a RegisterResourceRequest states. */
export function goalOf(req: any): Goal {
  const propertyDependencies: Record<string, string[]> = {};
  req
    .getPropertydependenciesMap()
    .forEach((deps: any, key: string) => (propertyDependencies[key] = deps.getUrnsList()));
  return {
    type: req.getType(),
    name: req.getName(),
    custom: req.getCustom(),
    parent: req.getParent() || undefined,
    inputs: req.getObject()?.toJavaScript() ?? {},
    dependencies: req.getDependenciesList(),
    propertyDependencies,
    protect: req.hasProtect() ? req.getProtect() : undefined,
    retainOnDelete: req.hasRetainondelete() ? req.getRetainondelete() : undefined,
    deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
    ignoreChanges: req.getIgnorechangesList(),
    replaceOnChanges: req.getReplaceonchangesList(),
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    aliases: req.getAliasesList().map(aliasOf),
    replacementTrigger: req.hasReplacementTrigger() ? req.getReplacementTrigger().toJavaScript() : undefined,
    importId: req.getImportid() || undefined,
    provider: req.getProvider() || undefined,
  };
}

/**
 * Why the local engine refuses a registration, if it does: what this package's resources do not use, so this engine
 * does not model it (testing/README.md). Explicit providers: a dynamic resource always uses the default provider of
 * `pulumi-nodejs`, and another package's provider would need that package's plugin. Import: the engine's import step
 * (step_generator.go continueStepsFromImport: Read of the id, then Check and Diff against the program) is not
 * modelled; a Compute adopts an existing compute with `adoptId` instead.
 */
export function unmodelled(goal: Goal): string | undefined {
  if (isProviderType(goal.type)) {
    return `${goal.name}: explicit provider resources (${goal.type}) are not modelled by the local engine; dynamic resources use the default provider`;
  }
  if (goal.provider)
    return `${goal.name}: the provider option (explicit providers) is not modelled by the local engine`;
  if (goal.importId) return `${goal.name}: the import option is not modelled by the local engine`;
  return undefined;
}

function aliasOf(alias: any): AliasSpec {
  if (alias.hasUrn()) return { urn: alias.getUrn() };
  const spec = alias.getSpec();
  return {
    name: spec.getName() || undefined,
    type: spec.getType() || undefined,
    parent: spec.getParenturn() || undefined,
    noParent: spec.getNoparent(),
    project: spec.getProject() || undefined,
    stack: spec.getStack() || undefined,
  };
}

/** The old URNs a registration may match, in order (step_generator.go generateAliases). */
export function aliasUrns(
  goal: Goal,
  where: { stack: string; project: string; parentAliases: Map<string, string> },
): string[] {
  const result: string[] = [];
  const add = (urn: string) => result.includes(urn) || result.push(urn);
  const collapse = (alias: AliasSpec): string => {
    if (alias.urn) return alias.urn;
    let parent = alias.parent ? (where.parentAliases.get(alias.parent) ?? alias.parent) : goal.parent;
    if (alias.noParent || (parent && qualifiedType(parent) === ROOT_STACK_TYPE)) parent = undefined;
    const project = alias.project ?? where.project;
    const stack = alias.stack ?? where.stack;
    return makeUrn(stack, project, parent, alias.type ?? goal.type, alias.name ?? goal.name);
  };
  for (const alias of goal.aliases) add(collapse(alias));
  const parentAlias = goal.parent ? where.parentAliases.get(goal.parent) : undefined;
  if (goal.parent && parentAlias) {
    const inherited = (type: string, name: string) => {
      const parentName = nameOf(goal.parent as string);
      const aliasName = name.startsWith(parentName) ? nameOf(parentAlias) + name.slice(parentName.length) : name;
      return makeUrn(where.stack, where.project, parentAlias, type, aliasName);
    };
    add(inherited(goal.type, goal.name));
    for (const alias of goal.aliases) {
      const child = collapse(alias);
      add(inherited(typeOf(child), nameOf(child)));
    }
  }
  return result;
}
