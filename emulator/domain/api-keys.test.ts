import type { Account } from "../types";
import { createOrganizationKey, membership, revokeOrganizationKey, type Caller } from "./api-keys";
import { T0, testWorld } from "./test-world";

/** The organization key rules of domain/api-keys.ts, called directly: no server, no HTTP. */
describe("organization API keys", () => {
  function org() {
    const { svc, key, project } = testWorld();
    const { store } = svc;
    const admin: Caller = { key, account: store.accounts.get(key.accountId) as Account };
    const memberAccount = store.addAccount({ id: "member-1", name: "Member" });
    const member: Caller = {
      key: store.addKey(memberAccount.id, "console", "m".repeat(64), T0),
      account: memberAccount,
    };
    store.joinOrganization({ id: "org-a" }, admin.account.id, "admin", T0);
    store.joinOrganization({ id: "org-a" }, memberAccount.id, "member", T0);
    project.orgId = "org-a";
    return { store, admin, member, project };
  }

  it("a member creates a key scoped to a project of the organization, not an organization-wide one (403)", () => {
    const { store, member, project } = org();
    const as = { id: "org-a", role: membership(store, member, "org-a") };
    expect(as.role).toBe("member");
    expect(() => createOrganizationKey(store, member, as, { name: "wide" }, T0)).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    const scoped = createOrganizationKey(store, member, as, { name: "ci", projectId: project.id }, T0);
    expect(scoped.key).toMatchObject({ orgId: "org-a", projectId: project.id, accountId: "member-1" });
    expect(() => createOrganizationKey(store, member, as, { name: "x", projectId: "elsewhere" }, T0)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });

  it("a member revokes the keys it created, not another's (403); an admin any; a non-member gets 404", () => {
    const { store, admin, member } = org();
    const adminOrg = { id: "org-a", role: "admin" as const };
    const memberOrg = { id: "org-a", role: "member" as const };
    const adminKey = createOrganizationKey(store, admin, adminOrg, { name: "wide" }, T0).key;
    expect(() => revokeOrganizationKey(store, member, memberOrg, String(adminKey.id))).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    expect(revokeOrganizationKey(store, admin, adminOrg, String(adminKey.id)).revoked).toBe(true);
    expect(() => membership(store, member, "org-b")).toThrow(expect.objectContaining({ status: 404 }));
  });
});
