import { randomBytes, randomInt } from "node:crypto";

/**
 * Identifiers shaped like the real service's (`ep-cool-darkness-123456`, `br-...`, project ids matching
 * `^[a-z0-9-]{1,60}$`), so clients that check prefixes or patterns behave as against the real service.
 */
const ADJECTIVES = ["cool", "quiet", "bold", "calm", "dark", "misty", "proud", "shy", "young", "winter"];
const NOUNS = ["darkness", "sun", "river", "meadow", "thunder", "leaf", "boat", "wind", "paper", "smoke"];

function words(): string {
  const a = ADJECTIVES[randomInt(ADJECTIVES.length)];
  const n = NOUNS[randomInt(NOUNS.length)];
  return `${a}-${n}-${String(randomInt(100000, 1000000))}`;
}

export const newProjectId = (): string => words();
export const newBranchId = (): string => `br-${words()}`;
export const newEndpointId = (): string => `ep-${words()}`;
/** Like `org-morning-bread-81040908` (OpenAPI, listProjects example). */
export const newOrgId = (): string => `org-${words()}`;

/** The id of an emulator's world (world-identity.ts): a new one for each fresh world. */
export const newWorldId = (): string => `world-${randomBytes(6).toString("hex")}`;

const KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A 64-character secret from a cryptographic source (rejection sampling: no modulo bias). */
export function newApiKeySecret(): string {
  let out = "";
  while (out.length < 64) {
    for (const byte of randomBytes(96)) {
      if (byte < 252 && out.length < 64) out += KEY_ALPHABET[byte % 36];
    }
  }
  return out;
}

const PASSWORD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A role password: 12 letters and digits from a cryptographic source, the shape of the OpenAPI document's examples
 * (`createProjectBranchRole`: `Onf1AjayKwe0`).
 */
export function newRolePassword(): string {
  let out = "";
  for (let i = 0; i < 12; i++) out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

/** `aws-us-east-2` → platform `aws`, region `us-east-2`; hosts are `<id>.<region>.<platform>.neon.tech`. */
export function regionHosts(regionId: string): { platform: string; proxyHost: string } {
  const dash = regionId.indexOf("-");
  const platform = dash > 0 ? regionId.slice(0, dash) : "aws";
  const region = dash > 0 ? regionId.slice(dash + 1) : regionId;
  return { platform, proxyHost: `${region}.${platform}.neon.tech` };
}
