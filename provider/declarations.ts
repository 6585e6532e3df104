/**
 * Every resource's declaration, in the order schema.json and the docs list them. `npm run generate` derives
 * schema.json's resources and the docs' property tables from these (scripts/generate.ts).
 */
import type { Declaration } from "./shared/declaration";
import { BRANCH } from "./branch/declaration";
import { DATABASE } from "./database/declaration";

export const DECLARATIONS: Declaration[] = [BRANCH, DATABASE];
