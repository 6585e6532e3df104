/**
 * The functions the native plugin serves (Invoke), by token: the package's own (provider/functions/: getProjects,
 * getRolePassword and the lookups getProject, getBranch, getBranches, getComputes, getRoles, getDatabases), called with the plugin's configured client, so that a program in any language
 * gets the answer a TypeScript program gets. Bad arguments come back as the Invoke's failures, one per argument, naming
 * it and what it must be, and nothing is sent; a secret output (getRolePassword's `password`) goes back as a secret.
 */
import { CheckFailure, InvokeRequest, InvokeResponse } from "@pulumi/pulumi/proto/provider_pb";
import { listProjects } from "../provider/functions/get-projects";
import { lookUpProject, GetProjectArgs } from "../provider/functions/get-project";
import {
  branchArgsProblem,
  GetBranchArgs,
  GetBranchesArgs,
  listBranches,
  lookUpBranch,
} from "../provider/functions/get-branch";
import { computesArgsProblem, GetComputesArgs, listComputes } from "../provider/functions/get-computes";
import { branchListArgsProblem, GetRolesArgs, listRoles } from "../provider/functions/get-roles";
import { GetDatabasesArgs, listDatabases } from "../provider/functions/get-databases";
import { projectIdProblem } from "../provider/functions/lookup";
import { argsProblem, GetRolePasswordArgs, revealRolePassword } from "../provider/functions/get-role-password";
import type { NeonClient } from "../client";
import { client } from "../provider/shared/runtime";
import { currentSettings, keySetting } from "../provider/shared/settings-advice";
import { Answered, unimplemented } from "./errors";
import { receive, redactSecrets, send } from "./wire";

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

/** A lookup (provider/functions/lookup.ts): its arguments checked, then called with the plugin's client and key. */
function lookup<A>(
  problem: (args: Props) => string | undefined,
  call: (neon: NeonClient, args: A, key: string) => Promise<object>,
): ServedFunction {
  return {
    failures: (args) => failureOf(problem(args)),
    call: async (args) => ({ ...(await call(client(), args as unknown as A, keySetting(currentSettings()))) }),
    secrets: [],
  };
}

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
  "neon:index:getProject": lookup<GetProjectArgs>(projectIdProblem, lookUpProject),
  "neon:index:getBranch": lookup<GetBranchArgs>(branchArgsProblem, lookUpBranch),
  "neon:index:getBranches": lookup<GetBranchesArgs>(projectIdProblem, listBranches),
  "neon:index:getComputes": lookup<GetComputesArgs>(computesArgsProblem, listComputes),
  "neon:index:getRoles": lookup<GetRolesArgs>(branchListArgsProblem, listRoles),
  "neon:index:getDatabases": lookup<GetDatabasesArgs>(branchListArgsProblem, listDatabases),
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
  const received = receive(request.getArgs());
  const args = received.props;
  const failures = served.failures(args);
  if (failures.length > 0) {
    const list = failures.map((f) =>
      new CheckFailure().setProperty(f.property).setReason(redactSecrets(f.reason, received)),
    );
    return new InvokeResponse().setFailuresList(list);
  }
  return new InvokeResponse().setReturn(send(await served.call(args), served.secrets));
}
