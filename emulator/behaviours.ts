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
   * Responses carry the deprecated `pooler_enabled` / `pooler_mode` (removed 2026-06-20). Off (the real service
   * after that date): responses lack them, and requests that carry them are accepted with the fields ignored.
   */
  poolerFields: boolean;
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
}

export const BRANCH_MOVES = ["moves", "refused", "ignored"] as const;
export type BranchMove = (typeof BRANCH_MOVES)[number];

/** The real service (api.md, "Facts of the real service … (late 2026)"). */
export const REAL_SERVICE: ServiceBehaviours = {
  deleteOperations: true,
  retryAfter: false,
  poolerFields: false,
  restartRequiresActive: true,
  branchReadyDelayMs: 0,
  branchMove: "moves",
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
    `pooler fields ${b.poolerFields ? "present" : "absent"}`,
    `restart of an idle compute ${b.restartRequiresActive ? "refused" : "allowed"}`,
    `new branches not ready for their create_branch operation${b.branchReadyDelayMs ? ` + ${b.branchReadyDelayMs} ms` : ""}`,
    `branch_id in an update ${b.branchMove === "moves" ? "moves the compute" : b.branchMove}`,
  ].join("; ");
}
