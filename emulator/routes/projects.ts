import { listedProjects } from "../access";
import { createProject } from "../domain/project-create";
import { defaultsOf, deleteProject, passwordsStored, updateProject } from "../domain/projects";
import { badRequest } from "../errors";
import { defaultLimit, page } from "../paging";
import { parseProjectCreate, parseProjectUpdate } from "../project-input";
import { renderBranch, renderConnections, renderDatabase, renderEndpoint, renderRole } from "../render";
import { renderProject, renderProjectDetail } from "../render-project";
import type { Reply, RequestContext, Route } from "../router";
import type { Project } from "../types";
import { ID_PATTERN, parseLimit } from "../validation";
import { created, settledProject } from "./gate";

/**
 * Projects (OpenAPI `listProjects`, `listSharedProjects`, `createProject`, `getProject`, `updateProject`,
 * `deleteProject`): each handler parses the request, calls its rule in domain/ (project-create.ts, projects.ts) and
 * renders the reply.
 */

/**
 * `{projects, pagination: {cursor}, applications: {}, integrations: {}}` with limit 1..400 (default 10); `org_id`
 * filters, and for a personal key names the organization whose projects to list (access.ts).
 */
function listing(ctx: RequestContext, shared: boolean): Reply {
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
      projects: items.map((p) => renderProject(p, passwordsStored(ctx.state, p))),
      pagination: { cursor },
      applications: {},
      integrations: {},
    },
  };
}

const detail = (ctx: RequestContext, p: Project) => renderProjectDetail(p, passwordsStored(ctx.state, p), ctx.now);

/** POST → 201 `{project, connection_uris, roles, databases, operations, branch, endpoints}` (OpenAPI `CreatedProject`). */
function create(ctx: RequestContext): Reply {
  const input = parseProjectCreate(ctx.body);
  const made = createProject(ctx.state, ctx.key, input, ctx.account.plan, ctx.now);
  const { role, database, endpoint } = made;
  const body = {
    project: detail(ctx, made.project),
    connection_uris: renderConnections({ role, database, endpoint }),
    roles: [renderRole(role, true)],
    databases: [renderDatabase(database)],
    operations: created(ctx, made.operations),
    branch: renderBranch(made.branch, ctx.now, true),
    endpoints: [renderEndpoint(endpoint, ctx.state.behaviours.poolerFields)],
  };
  return { status: 201, body };
}

/** PATCH → 200 `{project, operations}` (OpenAPI `updateProject`; domain/projects.ts). */
function update(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  const input = parseProjectUpdate(ctx.body, defaultsOf(project));
  const { operations } = updateProject(ctx.state, project, input, ctx.account.plan, ctx.now);
  return { status: 200, body: { project: detail(ctx, project), operations: created(ctx, operations) } };
}

/** DELETE → 200 `{project}` (OpenAPI `deleteProject`); the project and everything in it are gone (domain/projects.ts). */
function remove(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  return { status: 200, body: { project: detail(ctx, deleteProject(ctx.state, ctx.key, project, ctx.now)) } };
}

/** The project list (owned), the shared list (none are shared in the emulator), and one project's routes. */
export const projectRoutes: Route[] = [
  { method: "GET", pattern: "/projects", handler: (ctx) => listing(ctx, false) },
  { method: "POST", pattern: "/projects", handler: create },
  { method: "GET", pattern: "/projects/shared", handler: (ctx) => listing(ctx, true) },
  {
    method: "GET",
    pattern: "/projects/:project_id",
    handler: (ctx) => ({ status: 200, body: { project: detail(ctx, settledProject(ctx)) } }),
  },
  { method: "PATCH", pattern: "/projects/:project_id", handler: update },
  { method: "DELETE", pattern: "/projects/:project_id", handler: remove },
];
