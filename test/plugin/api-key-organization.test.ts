/** The key scenarios of api-key-kinds.ts for an organization-wide key (`orgId`): every project of its organization, no key routes. */
import { describeKeyKind, ORGANIZATION } from "./api-key-kinds";

describeKeyKind(ORGANIZATION);
