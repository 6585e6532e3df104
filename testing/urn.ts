/**
 * URNs as the engine makes them: `urn:pulumi:<stack>::<project>::<parent types $-joined and the type>::<name>`.
 * pulumi/pulumi `pkg/resource/deploy/deployment.go` generateURN: the parent's qualified type prefixes the type, except
 * when the parent is the root stack (`pulumi:pulumi:Stack`) or there is none.
 */
export const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";
export const NODEJS_DYNAMIC_PACKAGE = "pulumi-nodejs";

export function makeUrn(
  stack: string,
  project: string,
  parent: string | undefined,
  type: string,
  name: string,
): string {
  const parentType = parent ? qualifiedType(parent) : "";
  const typeChain = parentType && parentType !== ROOT_STACK_TYPE ? `${parentType}$${type}` : type;
  return `urn:pulumi:${stack}::${project}::${typeChain}::${name}`;
}

/** The `$`-joined type chain of a URN (resource.URN.QualifiedType). */
export function qualifiedType(urn: string): string {
  return urn.split("::")[2] ?? "";
}

/** The last type of a URN's chain (resource.URN.Type). */
export function typeOf(urn: string): string {
  const chain = qualifiedType(urn).split("$");
  return chain[chain.length - 1];
}

/** The resource name of a URN (resource.URN.Name); names may contain "::". */
export function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

/**
 * The default provider of a package: `urn:pulumi:<stack>::<project>::pulumi:providers:<pkg>::default`
 * (deployment.go defaultProviderURN; the name is "default" when the registration names no version).
 */
export function defaultProviderUrn(stack: string, project: string, pkg = NODEJS_DYNAMIC_PACKAGE): string {
  return `urn:pulumi:${stack}::${project}::pulumi:providers:${pkg}::default`;
}

/** True for a provider resource's type (`pulumi:providers:<pkg>`). */
export function isProviderType(type: string): boolean {
  return type.startsWith("pulumi:providers:");
}
