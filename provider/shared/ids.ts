/**
 * The shapes of the service's ids, checked offline where a program gives one (api.md, Ids): a project's, a branch's
 * (`br-…`) and a compute's (`ep-…`). One place, so that every resource names them in the same words.
 */
import { matches, Validator } from "./validators";

export const PROJECT_ID = /^[a-z0-9-]{1,60}$/;
export const BRANCH_ID = /^br-[a-z0-9-]{1,60}$/;
export const COMPUTE_ID = /^ep-[a-z0-9-]{1,60}$/;

export const PROJECT_ID_SHAPE = "a project id: 1 to 60 lowercase letters, digits and hyphens";
export const BRANCH_ID_SHAPE = "a branch id: 'br-' then 1 to 60 lowercase letters, digits and hyphens";
export const COMPUTE_ID_SHAPE = "a compute id: 'ep-' then 1 to 60 lowercase letters, digits and hyphens";

export const isProjectId: Validator = matches(PROJECT_ID, PROJECT_ID_SHAPE);
export const isBranchId: Validator = matches(BRANCH_ID, BRANCH_ID_SHAPE);
export const isComputeId: Validator = matches(COMPUTE_ID, COMPUTE_ID_SHAPE);

/** A compute's pooled connection host: `-pooler` after the compute id (api.md, Ids). */
export const poolerHost = (id: string, host: string): string =>
  host.startsWith(`${id}.`) ? `${id}-pooler${host.slice(id.length)}` : host;
