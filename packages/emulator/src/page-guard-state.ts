/** The state of page monitoring (area A) in a zone: plain JSON, persisted with the rest of the zone. */

export type Item = Record<string, unknown> & { id: string };

export interface PageGuardSettingsState {
  enabled: boolean;
  updated_at: string;
  use_service_reporting_endpoint?: boolean;
  use_connection_url_path?: boolean;
}

export interface PageGuardZone {
  settings: PageGuardSettingsState;
  scripts: Item[];
  connections: Item[];
  cookies: Item[];
  policies: Item[];
}

export function emptyPageGuard(now = new Date().toISOString()): PageGuardZone {
  return { settings: { enabled: false, updated_at: now }, scripts: [], connections: [], cookies: [], policies: [] };
}

/**
 * A policy `value` is sent as a header value: a line break or other control character would split that header
 * (the API's checker of @logfilter/api does not look for them). Undefined when the value is one clean line.
 */
export function policyValueProblem(value: unknown): string | undefined {
  return typeof value === 'string' && /[\u0000-\u001f\u007f]/.test(value) ? 'value: must be one line without control characters' : undefined;
}
