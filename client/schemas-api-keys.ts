/**
 * zod schemas of API keys: a personal key's create, list and revoke (openapi-subset.yaml), and an organization's
 * (`OrgApiKey*`, from the official full OpenAPI document), by schemas.ts's rules. A created key's `key` is a secret.
 */
import { z } from "zod";

const timestamp = z.string();

// ---- API keys -------------------------------------------------------------------------------------------------

export const ApiKeyCreateRequest = z.object({ key_name: z.string().min(1).max(64) });
export type ApiKeyCreateRequest = z.infer<typeof ApiKeyCreateRequest>;

export const ApiKeyCreated = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string().optional(),
  created_at: timestamp.optional(),
  created_by: z.string().optional(),
});
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

export const ApiKeyCreator = z.object({ id: z.string(), name: z.string(), image: z.string() });

export const ApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: timestamp,
  created_by: ApiKeyCreator.optional(),
  last_used_at: timestamp.nullable().optional(),
  last_used_from_addr: z.string().optional(),
});
export type ApiKey = z.infer<typeof ApiKey>;
export const ApiKeyList = z.array(ApiKey);

export const ApiKeyRevoked = z.object({
  id: z.number().int(),
  name: z.string().optional(),
  created_at: timestamp.optional(),
  created_by: z.string().optional(),
  last_used_at: timestamp.nullable().optional(),
  last_used_from_addr: z.string().optional(),
  revoked: z.boolean().optional(),
});
export type ApiKeyRevoked = z.infer<typeof ApiKeyRevoked>;

// ---- Organization API keys (the official full OpenAPI document: OrgApiKey*) ------------------------------------

/**
 * The project a key is limited to: present on a project-scoped key only. Null or absent means organization-wide
 * (the document lists it as optional; null is tolerated so that a service answering `null` cannot break a call).
 */
const scopedProject = z.string().nullable().optional();

/** POST /organizations/{org_id}/api_keys: `project_id` makes a project-scoped key. */
export const OrgApiKeyCreateRequest = ApiKeyCreateRequest.extend({
  project_id: z
    .string()
    .regex(/^[a-z0-9-]{1,60}$/)
    .optional(),
});
export type OrgApiKeyCreateRequest = z.infer<typeof OrgApiKeyCreateRequest>;

export const OrgApiKeyCreated = ApiKeyCreated.extend({ project_id: scopedProject });
export type OrgApiKeyCreated = z.infer<typeof OrgApiKeyCreated>;

export const OrgApiKey = ApiKey.extend({ project_id: scopedProject });
export type OrgApiKey = z.infer<typeof OrgApiKey>;
export const OrgApiKeyList = z.array(OrgApiKey);

export const OrgApiKeyRevoked = ApiKeyRevoked.extend({ project_id: scopedProject });
export type OrgApiKeyRevoked = z.infer<typeof OrgApiKeyRevoked>;
