/**
 * Every resource's declaration, in the order schema.json and the docs list them. `npm run generate` derives
 * schema.json's resources and the docs' property tables from these (scripts/generate.ts).
 */
import type { Declaration } from "./shared/declaration";
import { API_KEY } from "./api-key/declaration";
import { BRANCH } from "./branch/declaration";
import { COMPUTE } from "./compute/declaration";
import { DATABASE } from "./database/declaration";
import { PROJECT } from "./project/declaration";
import { ROLE } from "./role/declaration";

export const DECLARATIONS: Declaration[] = [COMPUTE, API_KEY, BRANCH, ROLE, DATABASE, PROJECT];
