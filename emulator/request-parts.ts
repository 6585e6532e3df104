import { randomUUID } from "node:crypto";
import { ApiError } from "./errors";

/** A request's parts the exchange (server.ts) reads: its request id, its path segments, its decoded path parameters. */

/** An echoed X-Request-ID when it is sane, else a fresh uuid: every error body carries one. */
export function requestIdOf(header: string | string[] | undefined): string {
  if (typeof header === "string" && header.length > 0 && header.length <= 200 && /^[\x21-\x7e]+$/.test(header)) {
    return header;
  }
  return randomUUID();
}

/** Path segments; an empty segment inside the path (`//projects`) matches no route rather than being collapsed. */
export function splitPath(path: string): string[] {
  const parts = path.split("/");
  parts.shift();
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts.includes("") ? ["", ...parts] : parts;
}

export function decodeParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      throw new ApiError(400, `malformed path parameter ${k}`);
    }
  }
  return out;
}
