/** The typed client of Neon's management API (subpath export `pulumi-neon-dynamic/sdk`). */
export { NeonClient, ClientOptions, DEFAULT_TIMEOUT_MS } from "./client";
export {
  resolveConfig,
  configValue,
  CONFIG_KEYS,
  DEFAULT_API_URL,
  NO_KEY_MESSAGE,
  ConfigSource,
  ResolvedConfig,
} from "./config";
export { NeonError, NeonErrorKind, NeonErrorInit, OperationFacts, NOT_READY } from "./errors";
export { isUnreachable, displayUrl } from "./axios-errors";
export { Progress } from "./progress";
export {
  RetryPolicy,
  DEFAULT_RETRY_POLICY,
  isRetryable,
  isOutcomeUnknown,
  backoffMs,
  parseRetryAfter,
  waitBeforeRetryMs,
} from "./retry";
export { WaitPolicy, WaitOptions, DEFAULT_WAIT_POLICY, waitForOperations } from "./wait";
export { isDone, isFailed, isRetrying } from "./operation-status";
export { RateLimitOptions, DEFAULT_RATE_LIMIT } from "./rate-limit";
export { ProjectQuery } from "./paging";
export { EndpointWithOperations, EndpointDeleted, RecoverCreated } from "./resources/endpoints";
export { Recover } from "./resources/recover";
export { AnnotatedBranch, BranchCreate, BranchWithOperations, BranchDeleted } from "./resources/branches";
export { RoleWithOperations, RoleDeleted } from "./resources/roles";
export { DatabaseWithOperations, DatabaseDeleted } from "./resources/databases";
export { ConnectionUriQuery, ProjectDeleted } from "./resources/projects";
export * from "./schemas";
export * from "./schemas-api-keys";
export * from "./schemas-branches";
export * from "./schemas-roles-databases";
export * from "./schemas-projects";
