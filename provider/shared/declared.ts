/**
 * `declared`: the inputs a program set, which a resource's provider records among its outputs, so that a refresh
 * records drift only in those, and a property the program removed can be told from one it never set.
 */
type Props = Record<string, unknown>;

/** The inputs `inputs` sets, sorted: every key but `__provider`, the resource's own `records` and undefined ones. */
export function declaredOf(inputs: Props, records: readonly string[]): string[] {
  return Object.keys(inputs)
    .filter((key) => key !== "__provider" && !records.includes(key) && inputs[key] !== undefined)
    .sort();
}

/** What `outputs` record as declared; undefined in a state written before `declared` was. */
export function declaredIn(outputs: Props): string[] | undefined {
  return Array.isArray(outputs.declared) ? (outputs.declared as string[]) : undefined;
}
