/**
 * The functions the native plugin serves (Invoke), by token: the package's own (provider/functions/get-projects.ts,
 * provider/functions/get-role-password.ts), called with the plugin's configured client, so that a program in any language
 * gets the answer a TypeScript program gets. Bad arguments come back as the Invoke's failures, one per argument, naming
 * it and what it must be, and nothing is sent; a secret output (getRolePassword's `password`) goes back as a secret.
 */
import { CheckFailure, InvokeRequest, InvokeResponse } from "@pulumi/pulumi/proto/provider_pb";
import { listProjects } from "../provider/functions/get-projects";
import { argsProblem, GetRolePasswordArgs, revealRolePassword } from "../provider/functions/get-role-password";
import { client } from "../provider/shared/runtime";
import { currentSettings, keySetting } from "../provider/shared/hints";
import { Answered, unimplemented } from "./errors";
import { receive, send } from "./wire";

type Props = Record<string, unknown>;

/** A problem with one argument: its name and why. */
interface Failure {
  property: string;
  reason: string;
}

interface ServedFunction {
  /** The arguments' problems, each naming its argument; none: the call is made. */
  failures(args: Props): Failure[];
  call(args: Props): Promise<Props>;
  /** Outputs sent back as secrets. */
  secrets: string[];
}

/** `field must be …` as a failure of that field. */
const failureOf = (problem: string | undefined): Failure[] =>
  problem === undefined ? [] : [{ property: problem.split(" ")[0], reason: problem }];

/** Optional string arguments: anything else is named. */
const optionalStrings =
  (...names: string[]) =>
  (args: Props): Failure[] =>
    names
      .filter((name) => args[name] !== undefined && typeof args[name] !== "string")
      .map((name) => ({ property: name, reason: `${name} must be a string (got ${JSON.stringify(args[name])})` }));

const FUNCTIONS: Record<string, ServedFunction> = {
  "neon:index:getProjects": {
    failures: optionalStrings("search", "orgId"),
    call: async (args) => ({ ...(await listProjects(client(), args)) }),
    secrets: [],
  },
  "neon:index:getRolePassword": {
    failures: (args) => failureOf(argsProblem(args)),
    call: async (args) => ({
      ...(await revealRolePassword(client(), args as unknown as GetRolePasswordArgs, keySetting(currentSettings()))),
    }),
    secrets: ["password"],
  },
};

/** The tokens served, for GetSchema's checks and the docs. */
export const FUNCTION_TOKENS = Object.keys(FUNCTIONS);

export async function invoke(request: InvokeRequest): Promise<InvokeResponse> {
  const token = request.getTok();
  const served = FUNCTIONS[token];
  if (!served) {
    throw new Answered(
      unimplemented(`the neon plugin has no function ${token} (it serves ${FUNCTION_TOKENS.join(", ")})`),
    );
  }
  const args = receive(request.getArgs()).props;
  const failures = served.failures(args);
  if (failures.length > 0) {
    const list = failures.map((f) => new CheckFailure().setProperty(f.property).setReason(f.reason));
    return new InvokeResponse().setFailuresList(list);
  }
  return new InvokeResponse().setReturn(send(await served.call(args), served.secrets));
}
