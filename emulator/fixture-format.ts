import type { EndpointConfig, EndpointType, OrgRole, Plan } from "./types";

/**
 * The form of a fixture file (--fixture, `EmulatorOptions.fixture`): the records of types.ts as a person writes them,
 * with the API's field names and most fields optional; fixture.ts turns it into a world.
 */

/** The starting world of a fixture file: accounts with their projects, branches and computes. */
export interface Fixture {
  accounts: FixtureAccount[];
}
export interface FixtureAccount {
  id?: string;
  name?: string;
  apiKey?: string; // for the first account, options.apiKey wins
  plan?: Plan; // "free": sizes up to 2 CU, autosuspend delay fixed; default paid
  organizations?: FixtureMembership[]; // organizations the account belongs to (created when first named)
  projects?: FixtureProject[];
}
/** The account's membership of an organization; a project's `org_id` makes its owner an admin member too. */
export interface FixtureMembership {
  id: string;
  name?: string;
  role?: OrgRole; // default admin
}
export interface FixtureProject {
  id?: string;
  name?: string;
  region_id?: string;
  pg_version?: number;
  org_id?: string;
  branches?: FixtureBranch[];
}
export interface FixtureBranch {
  id?: string;
  name: string;
  protected?: boolean;
  endpoints?: FixtureEndpoint[];
  /** Default: the first branch gets a new project's `neondb_owner` and `neondb`, the others copies of the first's. */
  roles?: FixtureRole[];
  databases?: FixtureDatabase[];
}
export interface FixtureRole {
  name: string;
  password?: string; // default: generated
  no_login?: boolean;
}
export interface FixtureDatabase {
  name: string;
  owner_name: string;
}
export interface FixtureEndpoint extends Partial<EndpointConfig> {
  id?: string;
  type?: EndpointType;
  current_state?: "active" | "idle";
}
