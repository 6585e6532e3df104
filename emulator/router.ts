import type { Clock } from "./clock";
import type { Service } from "./domain/service";
import type { Account, KeyRecord } from "./types";

/** The emulator's state as routes see it: the service whose rules they call (domain/service.ts), and the clock. */
export interface AppState extends Service {
  clock: Clock;
}

/** One authenticated request, already parsed; `now` is read once so a request sees one instant. */
export interface RequestContext {
  state: AppState;
  account: Account;
  key: KeyRecord;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  now: number;
}

export interface Reply {
  status: number;
  body: unknown;
}

export type Handler = (ctx: RequestContext) => Reply;

export interface Route {
  method: string;
  pattern: string; // "/projects/:project_id/endpoints"
  handler: Handler;
}

interface Compiled extends Route {
  segments: string[];
}

export type Match =
  | { kind: "route"; route: Route; params: Record<string, string> }
  | { kind: "method"; allowed: string[] }
  | { kind: "none" };

/**
 * Path matching by segments, no regex per request. Separates "no such path" (404) from "path exists, wrong
 * method" (405), so a client's typo in a method is not mistaken for a missing object.
 */
export class Router {
  private readonly routes: Compiled[] = [];

  add(routes: Route[]): this {
    for (const r of routes) this.routes.push({ ...r, segments: r.pattern.split("/").filter(Boolean) });
    return this;
  }

  match(method: string, segments: string[]): Match {
    const allowed: string[] = [];
    for (const r of this.routes) {
      const params = matchSegments(r.segments, segments);
      if (!params) continue;
      if (r.method === method) return { kind: "route", route: r, params };
      allowed.push(r.method);
    }
    return allowed.length ? { kind: "method", allowed } : { kind: "none" };
  }
}

function matchSegments(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p.charCodeAt(0) === 58 /* : */) params[p.slice(1)] = segments[i];
    else if (p !== segments[i]) return undefined;
  }
  return params;
}
