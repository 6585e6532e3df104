/** The key scenarios of api-key-kinds.ts for a personal key (`/api_keys`), as it was before organizations. */
import { describeKeyKind, PERSONAL } from "./api-key-kinds";

describeKeyKind(PERSONAL);
