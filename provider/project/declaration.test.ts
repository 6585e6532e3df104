/**
 * Project's rows and plan, without a request: what Check refuses (naming the field and what is allowed), what each
 * change does (kislerdm#218: a setting never replaces; kislerdm#179: what the service fills in is no change), the
 * refusal of the names set at creation, the preview's warnings, and the default of Pulumi's protect.
 */
import { checkInputs, planChange, secretOutputs } from "../shared/declaration";
import { computeBody, settingsBody, toOutputs } from "./changes";
import { PROJECT } from "./declaration";
import { withDeletionProtection } from "./resource";
import { branchChangeError, changeWarnings, checkProjectChange, sameFields } from "./refusal";

type Props = Record<string, unknown>;

/** The outputs an `up` leaves for a project made with the service's defaults. */
const made: Props = {
  projectId: "p-1",
  name: "app",
  regionId: "aws-us-east-2",
  pgVersion: 17,
  historyRetentionSeconds: 86400,
  defaultEndpointSettings: { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 0.25, suspendTimeoutSeconds: 0 },
  settings: { allowedIps: [], enableLogicalReplication: false },
  branch: { name: "main", roleName: "neondb_owner", databaseName: "neondb" },
  deletionProtection: true,
  defaultBranchId: "br-a-1",
  defaultComputeId: "ep-a-1",
  resourceName: "app",
};

describe("Project's Check", () => {
  const failures = (news: Props) => checkInputs(PROJECT, news).map((f) => `${f.property} ${f.reason}`);

  it("accepts a project declared with every input", () => {
    expect(
      failures({
        name: "app",
        regionId: "aws-eu-central-1",
        pgVersion: 16,
        orgId: "org-cool-123",
        historyRetentionSeconds: 3600,
        defaultEndpointSettings: { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 2, suspendTimeoutSeconds: 300 },
        settings: { allowedIps: ["10.0.0.0/8"], enableLogicalReplication: true },
        branch: { name: "prod", roleName: "app", databaseName: "appdb" },
        deletionProtection: false,
      }),
    ).toEqual([]);
  });

  it.each([
    [{ pgVersion: 13 }, "pgVersion must be an integer from 14 to 18, got 13"],
    [{ regionId: "mars-1" }, "regionId must be a region id such as aws-us-east-1"],
    [{ historyRetentionSeconds: 2592001 }, "historyRetentionSeconds must be an integer from 0 to 2592000"],
    [
      { defaultEndpointSettings: { autoscalingLimitMinCu: 0.3 } },
      "defaultEndpointSettings autoscalingLimitMinCu must be a compute size",
    ],
    [
      { defaultEndpointSettings: { min: 1 } },
      'defaultEndpointSettings has no field "min"; known: autoscalingLimitMinCu',
    ],
    [
      { defaultEndpointSettings: { autoscalingLimitMinCu: 1 } },
      "must set autoscalingLimitMinCu and autoscalingLimitMaxCu together",
    ],
    [
      { defaultEndpointSettings: { autoscalingLimitMinCu: 4, autoscalingLimitMaxCu: 1 } },
      "the minimum (4 CU) is larger",
    ],
    [{ settings: { allowedIps: "10.0.0.1" } }, "settings allowedIps must be"],
    [{ branch: { name: "" } }, "branch name must be"],
    [{ deletionProtection: "yes" }, "deletionProtection must be"],
    [{ project: "x" }, "project is not a Project property; known: name, regionId"],
  ])("refuses %j, naming the field", (news, reason) => {
    expect(failures(news).join("\n")).toContain(reason);
  });

  it("refuses a replacement while deletionProtection holds, and logical replication turned off", () => {
    const reasons = checkProjectChange({ regionId: "aws-us-east-2" }, { regionId: "aws-eu-central-1" }, ["regionId"]);
    expect(reasons.map((f) => f.property)).toEqual(["regionId"]);
    expect(reasons[0].reason).toContain("Set deletionProtection: false in an up of its own first");
    expect(checkProjectChange({ deletionProtection: false }, {}, ["regionId"])).toEqual([]);
    const off = checkProjectChange(
      { settings: { enableLogicalReplication: true } },
      { settings: { enableLogicalReplication: false } },
      [],
    );
    expect(off[0].reason).toContain("cannot be turned off");
  });
});

describe("Project's plan", () => {
  const plan = (news: Props) => planChange(PROJECT, made, news);

  it("the service's defaults and a subset of settings are no change (kislerdm#179)", () => {
    const p = plan({
      name: "app",
      defaultEndpointSettings: { suspendTimeoutSeconds: 300 },
      settings: { allowedIps: [] },
      branch: { name: "main" },
      resourceName: "app",
    });
    expect(p.changed).toEqual([]);
  });

  it("name, retention, settings and defaults are updates; a setting never replaces (kislerdm#218)", () => {
    const p = plan({
      name: "app-2",
      historyRetentionSeconds: 60,
      settings: { enableLogicalReplication: true },
      defaultEndpointSettings: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 1 },
    });
    expect(p.by.update.sort()).toEqual(["defaultEndpointSettings", "historyRetentionSeconds", "name", "settings"]);
    expect(p.by.replace).toEqual([]);
    expect(p.drops).toEqual(["defaultEndpointSettings"]);
  });

  it("region, version and organization replace; the default names are refused; protection is recorded", () => {
    expect(plan({ regionId: "aws-eu-central-1", pgVersion: 16, orgId: "org-1" }).by.replace).toEqual([
      "regionId",
      "pgVersion",
      "orgId",
    ]);
    expect(plan({ branch: { name: "prod" } }).by.refused).toEqual(["branch"]);
    expect(plan({ deletionProtection: false }).by.record).toEqual(["deletionProtection"]);
    expect(plan({ deletionProtection: true }).changed).toEqual([]);
  });

  it("a change of the default names is refused naming them and how to rename each", () => {
    const error = branchChangeError("p-1", made, { branch: { name: "prod", databaseName: "neondb" } });
    expect(error.message).toContain('Project "app" (p-1): branch: name "main" -> "prod": these names act only');
    expect(error.message).toContain("declare a Branch with adoptId");
  });

  it("warns of the default compute's restart for a new size, and of logical replication", () => {
    const news = {
      defaultEndpointSettings: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2 },
      settings: { enableLogicalReplication: true },
    };
    const [restart, replication] = changeWarnings("p-1", made, news, [], true);
    expect(restart).toContain("its default compute ep-a-1 will restart if it is running");
    expect(restart).toContain("autoscalingLimitMinCu 0.25 -> 1, autoscalingLimitMaxCu 0.25 -> 2");
    expect(replication).toContain("suspends every running compute");
    expect(changeWarnings("p-1", made, { regionId: "x" }, ["regionId"], false)[0]).toContain(
      "deleted with every branch, compute, role and database",
    );
  });

  it("sameFields compares only the fields the program sets", () => {
    expect(sameFields({ a: 1, b: 2 }, { a: 1 })).toBe(true);
    expect(sameFields({ a: 1, b: 2 }, { b: 3 })).toBe(false);
    expect(sameFields(undefined, { a: 1 })).toBe(false);
  });
});

describe("Project's bodies, outputs and protection", () => {
  it("sends only the settings and compute fields the program sets, as the API spells them", () => {
    expect(settingsBody({ allowedIps: ["1.2.3.4"] })).toEqual({ allowed_ips: { ips: ["1.2.3.4"] } });
    expect(computeBody({ defaultEndpointSettings: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2 } })).toEqual({
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 2,
    });
  });

  it("builds both connection strings from the default objects; the password and strings are secrets", () => {
    const project = { id: "p-1", name: "app", region_id: "aws-us-east-2", pg_version: 17 };
    const outs = toOutputs(
      project,
      {
        branchId: "br-a-1",
        compute: { id: "ep-a-1", host: "ep-a-1.us-east-2.aws.neon.tech" },
        names: { name: "main", roleName: "neondb_owner", databaseName: "neondb" },
        password: "pw",
      },
      { deletionProtection: true },
    );
    expect(outs.connectionUri).toBe(
      "postgresql://neondb_owner:pw@ep-a-1.us-east-2.aws.neon.tech/neondb?sslmode=require",
    );
    expect(outs.connectionUriPooled).toContain("@ep-a-1-pooler.us-east-2.aws.neon.tech/");
    expect(secretOutputs(PROJECT)).toEqual(["rolePassword", "connectionUri", "connectionUriPooled"]);
  });

  it("deletionProtection brings Pulumi's protect unless it is false or the program chose", () => {
    expect(withDeletionProtection({}, {}).protect).toBe(true);
    expect(withDeletionProtection({ deletionProtection: false }, {}).protect).toBeUndefined();
    expect(withDeletionProtection({}, { protect: false }).protect).toBe(false);
    expect(withDeletionProtection({}, { retainOnDelete: true }).protect).toBeUndefined();
  });
});
