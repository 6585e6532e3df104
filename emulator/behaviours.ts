/**
 * How the emulated service behaves where the real service changed, or where the specification and the real
 * service disagree. Every default is the real service as `api.md` records it (late 2026), so tests, examples and
 * the benchmarks meet the realistic service unless they ask otherwise; each switch exists so that a test can pin
 * the older or the specified behaviour on purpose. The sources are listed in `emulator/README.md` ("Sources").
 */
export interface ServiceBehaviours {
  /**
   * DELETE of a compute returns a running `suspend_compute` operation (the official spec's example), which locks
   * the project (423) until it ends. Off: the specification's empty `operations`.
   */
  deleteOperations: boolean;
  /** A 429 carries `Retry-After` (seconds). Off (the real service): no `Retry-After` is documented. */
  retryAfter: boolean;
  /**
   * Responses carry the deprecated `pooler_enabled` / `pooler_mode`, and requests' are applied. Off (the default): a
   * response lacks them (api.md, Pooler fields: "A response may lack them"; their removal was scheduled for
   * 2026-06-20), and a request's are ignored like any unknown field (a guess).
   */
  poolerFields: boolean;
  /**
   * What a request carrying `pooler_enabled` / `pooler_mode` gets. `accepted` (the default): applied with
   * `poolerFields`, else ignored. `refused`: 400 naming the field (status and wording a guess), the plausible service
   * once the fields are gone, so that a client can be proved right under each of the three.
   */
  poolerRequests: PoolerRequests;
  /** `POST …/restart` of an idle compute is refused (Neon docs, Manage computes). Off: it restarts anyway. */
  restartRequiresActive: boolean;
  /**
   * Service ms a branch created through the API stays "not ready" after its `create_branch` operation ended;
   * compute creates on it answer 422 `branch not ready yet` until then (it is not ready while that operation
   * runs either).
   */
  branchReadyDelayMs: number;
  /**
   * What a PATCH carrying `endpoint.branch_id` does. `moves`: the compute moves (the real service today, api.md
   * "Branch move"). The OpenAPI document deprecates the field ("will be removed in a future release"); after that
   * the service may refuse it (`refused`: 400 naming the field; status and wording a guess) or ignore it as it
   * ignores unknown fields (`ignored`: the compute stays on its branch, the rest of the PATCH applies). These two
   * exist so that a client can be proved right under each; neither is the service today.
   */
  branchMove: BranchMove;
  /**
   * Items a page holds when a request to a route that pages (the OpenAPI document gives `limit` and `cursor` to
   * `/projects`, `/projects/shared`, `/projects/{p}/branches` and `/projects/{p}/operations`) gives no `limit`.
   * Unset: the documented default (projects 10), else a guess (operations 10, branches all). The real default of
   * the branch and operation lists is not documented, so a client must follow the cursor whatever it is; tests set
   * a small one so that a client reading one page fails them.
   */
  pageSize?: number;
  /**
   * The projects' `store_passwords` (OpenAPI `Project.store_passwords`): on, each project's own (a create may set it
   * false: domain/projects.ts `passwordsStored`). Off: every project's is false, and reveal_password answers 412 "Storing
   * passwords is disabled" (OpenAPI `getProjectBranchRolePassword`), the refusal a provider must survive.
   */
  storePasswords: boolean;
  /**
   * What reveal_password shows while a password reset's operations run. `new` (the default): the new password at
   * once. `old`: the old one until the last operation finishes ("The old password remains valid until last operation
   * finishes": OpenAPI `resetProjectBranchRolePassword`). Which the service does is a **guess**, so both are modelled.
   */
  revealAfterReset: RevealAfterReset;
  /**
   * Until when a deleted database still counts as owned by its role, refusing the role's delete (422: Neon docs,
   * Manage roles, "The database must be deleted before"). `answered` (the default): gone once its delete is answered,
   * so a role delete sent while that delete's operation runs meets the project lock (423). `finished`: counted until
   * the delete's operations finish, so that role delete answers 422 though the database is no longer listed. Which the
   * service does is a **guess**, so both are modelled (issue 23, item 19: provider/role/refusal.ts converges under each).
   */
  databaseOwnedUntil: DatabaseOwnedUntil;
}

export const DATABASE_OWNED_UNTIL = ["answered", "finished"] as const;
export type DatabaseOwnedUntil = (typeof DATABASE_OWNED_UNTIL)[number];

export const REVEALS_AFTER_RESET = ["new", "old"] as const;
export type RevealAfterReset = (typeof REVEALS_AFTER_RESET)[number];

export const BRANCH_MOVES = ["moves", "refused", "ignored"] as const;
export type BranchMove = (typeof BRANCH_MOVES)[number];

export const POOLER_REQUESTS = ["accepted", "refused"] as const;
export type PoolerRequests = (typeof POOLER_REQUESTS)[number];

/** What the request parsers do with a request's pooler fields. */
export type PoolerRule = "applied" | "ignored" | "refused";

/** The pooler rule of these behaviours: refused, else applied while responses carry the fields, else ignored. */
export function poolerRule(b: Pick<ServiceBehaviours, "poolerFields" | "poolerRequests">): PoolerRule {
  if (b.poolerRequests === "refused") return "refused";
  return b.poolerFields ? "applied" : "ignored";
}

/** The real service (api.md, "Facts of the real service … (late 2026)"). */
export const REAL_SERVICE: ServiceBehaviours = {
  deleteOperations: true,
  retryAfter: false,
  poolerFields: false,
  poolerRequests: "accepted",
  restartRequiresActive: true,
  branchReadyDelayMs: 0,
  branchMove: "moves",
  pageSize: undefined,
  storePasswords: true,
  revealAfterReset: "new",
  databaseOwnedUntil: "answered",
};

/** The behaviours of an emulator: the real service, with what the caller set (undefined = the default). */
export function resolveBehaviours(set: Partial<ServiceBehaviours> = {}): ServiceBehaviours {
  const out = { ...REAL_SERVICE };
  for (const key of Object.keys(out) as (keyof ServiceBehaviours)[]) {
    const value = set[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  if (!(out.branchReadyDelayMs >= 0)) throw new RangeError("branchReadyDelayMs must be a number ≥ 0");
  if (!BRANCH_MOVES.includes(out.branchMove))
    throw new RangeError(`branchMove must be one of ${BRANCH_MOVES.join(", ")}, not ${JSON.stringify(out.branchMove)}`);
  if (out.pageSize !== undefined && !(Number.isInteger(out.pageSize) && out.pageSize >= 1))
    throw new RangeError(`pageSize must be an integer ≥ 1, not ${JSON.stringify(out.pageSize)}`);
  if (!REVEALS_AFTER_RESET.includes(out.revealAfterReset)) {
    const allowed = REVEALS_AFTER_RESET.join(", ");
    throw new RangeError(`revealAfterReset must be one of ${allowed}, not ${JSON.stringify(out.revealAfterReset)}`);
  }
  if (!DATABASE_OWNED_UNTIL.includes(out.databaseOwnedUntil)) {
    const allowed = DATABASE_OWNED_UNTIL.join(", ");
    throw new RangeError(`databaseOwnedUntil must be one of ${allowed}, not ${JSON.stringify(out.databaseOwnedUntil)}`);
  }
  if (!POOLER_REQUESTS.includes(out.poolerRequests)) {
    const allowed = POOLER_REQUESTS.join(", ");
    throw new RangeError(`poolerRequests must be one of ${allowed}, not ${JSON.stringify(out.poolerRequests)}`);
  }
  return out;
}

/**
 * One line naming every behaviour, for a benchmark's or a test run's header, so a figure always says which
 * service it was measured against.
 */
export function describeBehaviours(b: ServiceBehaviours): string {
  return [
    `deletes ${b.deleteOperations ? "return a running suspend_compute" : "return no operations"}`,
    `429 ${b.retryAfter ? "with" : "without"} Retry-After`,
    `pooler fields ${b.poolerFields ? "present" : "absent"} in responses, ${poolerRule(b)} in requests`,
    `restart of an idle compute ${b.restartRequiresActive ? "refused" : "allowed"}`,
    `new branches not ready for their create_branch operation${b.branchReadyDelayMs ? ` + ${b.branchReadyDelayMs} ms` : ""}`,
    `branch_id in an update ${b.branchMove === "moves" ? "moves the compute" : b.branchMove}`,
    ...(b.pageSize === undefined ? [] : [`lists without a limit answer pages of ${b.pageSize}`]),
    `passwords ${b.storePasswords ? "stored" : "not stored (reveal answers 412)"}`,
    `reveal during a reset ${b.revealAfterReset === "new" ? "shows the new password" : "shows the old password until its operations finish"}`,
    `a deleted database counts as its role's until its delete is ${b.databaseOwnedUntil}`,
  ].join("; ");
}
