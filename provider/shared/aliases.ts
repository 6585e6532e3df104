/**
 * The advice that keeps the data, first in every refusal of a create whose name the branch (or project) already has.
 * Renaming a resource in the program (its Pulumi name) or moving it under a new parent, without an alias, makes Pulumi
 * see a new resource and an old one: it creates the new one first, which the service refuses (the name is taken by
 * the old one), and would then delete the old one. Advice to delete the object or drop it from the program loses what
 * it holds (a database's data, a role's password in use); an alias keeps the object and its state.
 */

/** One sentence: give the resource an alias to its old name or parent (`what`: `role`, `database`). */
export function aliasAdvice(what: string): string {
  return (
    `If this resource was renamed in the program (its Pulumi name) or moved under a new parent, give it an alias to ` +
    `what it was, and it keeps its ${what}: aliases: [{ name: "<its old resource name>" }] (or [{ parent: <its old ` +
    `parent> }]; pulumi.rootStackResource if it had none).`
  );
}
