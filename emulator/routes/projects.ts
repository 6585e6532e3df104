import { listedProjects, projectFor } from "../access";
import { defaultLimit, page } from "../paging";
import { renderProject } from "../render";
import type { RequestContext, Route } from "../router";
import type { Project } from "../types";
import { ID_PATTERN, parseLimit } from "../validation";
import { badRequest } from "../errors";

/**
 * `{projects, pagination: {cursor}, applications: {}, integrations: {}}` with limit 1..400 (default 10); `org_id`
 * filters, and for a personal key names the organization whose projects to list (access.ts).
 */
function listing(ctx: RequestContext, shared: boolean) {
  const limit = parseLimit(
    ctx.query.get("limit") ?? undefined,
    400,
    defaultLimit(ctx.state.behaviours.pageSize, 10, 400),
  );
  const search = ctx.query.get("search")?.toLowerCase();
  const orgId = ctx.query.get("org_id");
  if (orgId !== null && !ID_PATTERN.test(orgId)) throw badRequest(`org_id must match ${ID_PATTERN.source}`);
  const all: Project[] = shared ? [] : listedProjects(ctx.state.store, ctx.key, orgId);
  const matching = all.filter(
    (p) =>
      (!search || p.name.toLowerCase().includes(search) || p.id.includes(search)) &&
      (orgId === null || p.orgId === orgId),
  );
  const { items, cursor } = page(matching, ctx.query.get("cursor"), limit);
  return {
    status: 200,
    body: {
      projects: items.map((p) => renderProject(p, ctx.state.behaviours.storePasswords)),
      pagination: { cursor },
      applications: {},
      integrations: {},
    },
  };
}

/** The project list (owned), the shared list (none are shared in the emulator) and one project. */
export const projectRoutes: Route[] = [
  { method: "GET", pattern: "/projects", handler: (ctx) => listing(ctx, false) },
  { method: "GET", pattern: "/projects/shared", handler: (ctx) => listing(ctx, true) },
  {
    method: "GET",
    pattern: "/projects/:project_id",
    handler: ({ state, key, params }) => ({
      status: 200,
      body: {
        project: renderProject(projectFor(state.store, key, params.project_id), state.behaviours.storePasswords),
      },
    }),
  },
];
