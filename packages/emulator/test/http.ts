/** Raw HTTP against a running emulator, for tests that check the wire: status, envelope, headers. */
export interface Raw {
  status: number;
  headers: Headers;
  body: any;
}

export function api(base: string, token = 'test-token') {
  return async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Raw> {
    const h: Record<string, string> = { authorization: `Bearer ${token}`, ...headers };
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(base + path, { method, headers: h, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    // 204 answers have no body at all.
    return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
  };
}

export const cfRule = (fields: { req?: string[]; res?: string[]; cookies?: string[] }, extra: Record<string, unknown> = {}) => ({
  action: 'log_custom_field',
  expression: 'true',
  description: 'custom fields',
  action_parameters: {
    ...(fields.req ? { request_fields: fields.req.map((name) => ({ name })) } : {}),
    ...(fields.res ? { response_fields: fields.res.map((name) => ({ name })) } : {}),
    ...(fields.cookies ? { cookie_fields: fields.cookies.map((name) => ({ name })) } : {}),
  },
  ...extra,
});

/**
 * The rulesets of a list answer that the scope owns: a list also shows the managed rulesets every scope can
 * execute (as the provider's does), so tests about what a scope created look at the others.
 */
export const own = (list: any[]): any[] => list.filter((r) => r.kind !== 'managed');

/** The managed rulesets, as each list shows them after the scope's own ones (ids and names are the provider's). */
export const MANAGED_LISTED = [
  { id: 'efb7b8c949ac4650a09736fc376e9aee', name: 'Cloudflare Managed Ruleset', kind: 'managed', phase: 'http_request_firewall_managed' },
  { id: '4814384a9e5d4991b9815dcfc25d2f1f', name: 'Cloudflare OWASP Core Ruleset', kind: 'managed', phase: 'http_request_firewall_managed' },
];
