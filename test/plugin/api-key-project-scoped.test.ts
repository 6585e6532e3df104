/** The key scenarios of api-key-kinds.ts for a project-scoped key (`orgId` and `projectId`): its project only, 403 elsewhere. */
import { describeKeyKind, PROJECT_SCOPED } from "./api-key-kinds";

describeKeyKind(PROJECT_SCOPED);
