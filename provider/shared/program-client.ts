/**
 * A client for functions that run in the program, not in the plugin (getProjects, getRolePassword): credentials
 * resolved exactly as the plugin resolves them (`neon:apiKey` / `neon:apiUrl` from the stack config, else NEON_API_KEY /
 * NEON_API_HOST; never a program's own `apiKey`), when the function is called.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigSource, NeonClient, resolveConfig } from "../../client";

/** The stack configuration as the program sees it, by full key (`neon:apiKey`). */
const programConfig: ConfigSource = {
  get(key) {
    const separator = key.indexOf(":");
    return new pulumi.Config(key.slice(0, separator)).get(key.slice(separator + 1));
  },
};

/** A new client with the program's credentials; fails before any request when no key is set. */
export function programClient(): NeonClient {
  const { apiKey, apiUrl } = resolveConfig(undefined, programConfig, process.env);
  return new NeonClient({ apiKey, apiUrl });
}

/** The setting the program's key comes from, for messages: `neon:apiKey`, else `NEON_API_KEY`. */
export function programKeySetting(): string {
  const configured = programConfig.get("neon:apiKey");
  return configured !== undefined && configured.trim() !== "" ? "neon:apiKey" : "NEON_API_KEY";
}

/** The arguments of a function's Output form: each may be an Output. */
export type InputsOf<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** A function as a program calls it: `lookUp` with the program's client, `key` naming the setting its key comes from. */
export const inProgram = <A, R>(
  lookUp: (client: NeonClient, args: A, key: string) => Promise<R>,
  args: A,
): Promise<R> => lookUp(programClient(), args, programKeySetting());

/**
 * A function's Output form: `call` of the resolved `args`, whose failure is an error of the same message without stack
 * frames. On Node.js 20.20 the SDK's report of a program's uncaught error (`util.inspect` with colors, @pulumi/pulumi
 * cmd/run/error.ts) never returns on a frame in `node_modules/@pulumi/output.ts`, which an error raised inside an apply
 * carries (nodejs/node#64011, fixed by #64022): a failed lookup hung the program. The message says what a user needs.
 */
export function outputOf<T extends object, R>(
  args: T,
  call: (resolved: pulumi.Unwrap<T>) => Promise<R>,
): pulumi.Output<R> {
  return pulumi.output(args).apply((resolved) => call(resolved as pulumi.Unwrap<T>).catch(rethrowWithoutFrames));
}

function rethrowWithoutFrames(error: unknown): never {
  const plain = new Error(error instanceof Error ? error.message : String(error));
  plain.stack = `Error: ${plain.message}`;
  throw plain;
}
