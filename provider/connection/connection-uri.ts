/**
 * Connection strings, built in the program from a compute's host and a role's password: no request, a secret, and
 * known at preview whenever its parts are (a compute that already exists, a password from state).
 *
 * The service's own `GET /projects/{id}/connection_uri` (OpenAPI getConnectionURI) answers the same URI for a role,
 * database and compute that exist, but only once they exist and with a request on every run; this one is a pure
 * function of the outputs Pulumi already holds (docs/resources.md, Connection strings).
 */
import * as pulumi from "@pulumi/pulumi";

export interface ConnectionUriArgs {
  /** The compute to connect to: a `Compute`, or anything carrying its `host` (and `poolerHost` for `pooled`). */
  compute: { host: pulumi.Input<string>; poolerHost?: pulumi.Input<string | undefined> };
  /** The role to connect as (a `Role`'s `name`, or an inherited role's name). */
  roleName: pulumi.Input<string>;
  /**
   * The role's password: a `Role`'s `password`, or `getRolePasswordOutput(...).password`. Typed as a Role's output
   * is (a role without login has none); a missing password fails, naming it.
   */
  password: pulumi.Input<string | undefined>;
  /** The database to connect to. */
  databaseName: pulumi.Input<string>;
  /** Through the connection pooler (the compute's `poolerHost`, Neon's `-pooler` host); default false. */
  pooled?: pulumi.Input<boolean>;
}

/** The parts of a connection URI, resolved. */
export interface ConnectionParts {
  host: string;
  roleName: string;
  password: string | undefined;
  databaseName: string;
}

/**
 * `postgresql://<role>:<password>@<host>/<database>?sslmode=require`, a secret. Role, password and database are
 * percent-encoded (every character but RFC 3986's unreserved ones), so any name or password makes a URI that libpq
 * and URL parsers read back as given; the host must be a host name.
 */
export function connectionUri(args: ConnectionUriArgs): pulumi.Output<string> {
  const pooled = pulumi.output(args.pooled ?? false);
  const host = pulumi
    .all([args.compute.host, args.compute.poolerHost, pooled])
    .apply(([direct, pooler, usePooler]) => chooseHost(direct, pooler, usePooler));
  const uri = pulumi
    .all([host, args.roleName, args.password, args.databaseName])
    .apply(([h, roleName, password, databaseName]) =>
      formatConnectionUri({ host: h, roleName, password, databaseName }),
    );
  return pulumi.secret(uri);
}

/** The compute's host, or its pooled host for `pooled: true`. */
function chooseHost(direct: string, pooler: string | undefined, pooled: boolean): string {
  if (typeof pooled !== "boolean") throw new Error(`connectionUri: pooled must be true or false, got ${typeof pooled}`);
  if (!pooled) return direct;
  if (typeof pooler !== "string" || pooler === "") {
    throw new Error(
      "connectionUri: pooled: true needs the compute's poolerHost (pass a Compute, or an object with host and " +
        "poolerHost)",
    );
  }
  return pooler;
}

/** Pure: the URI of `parts`; throws naming the part that cannot make one (never showing the password). */
export function formatConnectionUri(parts: ConnectionParts): string {
  const problems = [
    hostProblem(parts.host),
    nameProblem("roleName", parts.roleName),
    nameProblem("databaseName", parts.databaseName),
    typeof parts.password === "string"
      ? undefined
      : `password must be a string (a role with noLogin has none), got ${typeof parts.password}`,
  ].filter((problem): problem is string => problem !== undefined);
  if (problems.length > 0) throw new Error(`connectionUri: ${problems.join("; ")}`);
  const user = `${encodePart(parts.roleName)}:${encodePart(parts.password as string)}`;
  return `postgresql://${user}@${parts.host}/${encodePart(parts.databaseName)}?sslmode=require`;
}

/** encodeURIComponent leaves !'()* as they are; RFC 3986 reserves them (sub-delims): encode them too. */
export function encodePart(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A DNS host name (Neon's are `ep-…-123456.<region>.aws.neon.tech`), optionally with a port. */
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::\d{1,5})?$/;

function hostProblem(host: unknown): string | undefined {
  if (typeof host !== "string" || host === "") return `the compute's host must be a host name, got ${typeof host}`;
  return HOST.test(host)
    ? undefined
    : `the compute's host must be a host name (letters, digits, - and .), got "${host}"`;
}

function nameProblem(field: string, value: unknown): string | undefined {
  if (typeof value !== "string") return `${field} must be a string, got ${typeof value}`;
  return value === "" ? `${field} must not be empty` : undefined;
}
