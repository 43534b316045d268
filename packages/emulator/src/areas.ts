/** Every API area the emulator serves, in routing order. A new area is one module and one line here. */
import type { Area } from './routing.js';
import { rulesetsArea } from './rulesets-area.js';
import { jobsArea } from './jobs-area.js';
import { migrationArea } from './migration.js';
import { wafLegacyArea } from './waf-legacy.js';
import { pageGuardArea } from './page-guard.js';
import { withAliases } from './aliases.js';

// Each area is served in the description's neutral spelling and the provider's (aliases.ts).
export const AREAS: readonly Area[] = [rulesetsArea, jobsArea, migrationArea, wafLegacyArea, pageGuardArea].map(withAliases);
