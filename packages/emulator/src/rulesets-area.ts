/**
 * The rulesets area's routes (README, "Paths"), at both scopes: `zones/<zone>/rulesets/…` and
 * `accounts/<account>/rulesets/…`. The entry point PUT with `waf_migration` is the migration's (migration.ts).
 */
import { fail } from './errors.js';
import { validateBody } from './validate.js';
import { cursorPaged, type Area, type Route } from './routing.js';
import type { RulesetScope, Store } from './state.js';
import type { RuleInput, RulesetInput } from './ruleset-input.js';
import * as rs from './rulesets.js';
import { MIGRATION_PHASE, migrateWithEntrypoint } from './migration.js';

const SCOPES: { prefix: string[]; kind: rs.ScopeKind }[] = [
  { prefix: ['zones', ':zone'], kind: 'zone' },
  { prefix: ['accounts', ':account'], kind: 'account' },
];

function routesOf(store: Store, prefix: string[], kind: rs.ScopeKind): Route[] {
  const scope = (params: Record<string, string>): RulesetScope => (kind === 'zone' ? store.zone(params.zone) : store.account(params.account));
  const runs = (params: Record<string, string>) => rs.executeLookup(store.state, scope(params));
  const R = [...prefix, 'rulesets'];
  const E = [...R, 'phases', ':phase', 'entrypoint'];
  const entrypoint = (params: Record<string, string>) => {
    rs.checkPhase(params.phase);
    const found = rs.findEntrypoint(scope(params), kind, params.phase);
    if (!found) throw fail(404, 'entrypointNotFound', `could not find entrypoint ruleset in the ${params.phase} phase`);
    return found;
  };
  const noContent = { status: 204, mutates: true };
  return [
    {
      pattern: E,
      methods: {
        GET: (_request, params) => ({ result: rs.full(entrypoint(params)) }),
        PUT: (request, params) => {
          const body = validateBody<RulesetInput & { rules: RuleInput[] }>('updateRuleset', request.body);
          // waf_migration only means something on the managed-rules phase of a zone; elsewhere it is ignored.
          if (kind === 'zone' && params.phase === MIGRATION_PHASE && request.query.has('waf_migration')) {
            return { result: rs.full(migrateWithEntrypoint(store, params.zone, params.phase, request.query, body)), mutates: true };
          }
          return { result: rs.full(rs.putEntrypoint(scope(params), kind, params.phase, body, runs(params))), mutates: true };
        },
      },
    },
    {
      pattern: [...E, 'versions'],
      methods: {
        // No entry point yet: an empty list rather than 404 (README, "Paths").
        GET: (_request, params) => {
          rs.checkPhase(params.phase); // a typo is not "no entry point yet"
          const found = rs.findEntrypoint(scope(params), kind, params.phase);
          return { result: found ? [...found.versions].reverse().map((v) => rs.summary(found, v)) : [] };
        },
      },
    },
    {
      pattern: [...E, 'versions', ':version'],
      methods: {
        GET: (_request, params) => {
          const found = entrypoint(params);
          return { result: rs.full(found, rs.findVersion(found, params.version)) };
        },
      },
    },
    {
      pattern: R,
      methods: {
        // The scope's own rulesets, then the managed ones it can execute, as the provider lists them (README).
        GET: (request, params) => {
          const { items, places } = rs.listed(scope(params));
          return cursorPaged(items.map((r) => rs.summary(r)), request.query, places);
        },
        POST: (request, params) => ({ result: rs.full(rs.createRuleset(scope(params), kind, validateBody('createRuleset', request.body), runs(params))), mutates: true }),
      },
    },
    {
      pattern: [...R, ':id'],
      methods: {
        GET: (_request, params) => ({ result: rs.full(rs.findRuleset(scope(params), params.id)) }),
        PUT: (request, params) => {
          const body = validateBody<RulesetInput & { rules: RuleInput[] }>('updateRuleset', request.body);
          return { result: rs.full(rs.updateRuleset(scope(params), rs.findRuleset(scope(params), params.id), body, runs(params))), mutates: true };
        },
        DELETE: (_request, params) => {
          rs.deleteRuleset(store.state, scope(params), rs.findRuleset(scope(params), params.id));
          return noContent;
        },
      },
    },
    {
      pattern: [...R, ':id', 'versions'],
      methods: {
        // Not paged (README, "Paths"); newest first.
        GET: (_request, params) => {
          const found = rs.findRuleset(scope(params), params.id);
          return { result: [...found.versions].reverse().map((v) => rs.summary(found, v)) };
        },
      },
    },
    {
      pattern: [...R, ':id', 'versions', ':version'],
      methods: {
        GET: (_request, params) => {
          const found = rs.findRuleset(scope(params), params.id);
          return { result: rs.full(found, rs.findVersion(found, params.version)) };
        },
        DELETE: (_request, params) => {
          rs.deleteVersion(store.state, scope(params), rs.findRuleset(scope(params), params.id), params.version);
          return noContent;
        },
      },
    },
    {
      pattern: [...R, ':id', 'versions', ':version', 'by_tag', ':tag'],
      methods: {
        GET: (_request, params) => ({ result: rs.byTag(rs.findRuleset(scope(params), params.id), params.version, params.tag) }),
      },
    },
    {
      pattern: [...R, ':id', 'rules'],
      methods: {
        POST: (request, params) => {
          const body = validateBody<RuleInput & { position?: unknown }>('addRule', request.body);
          return { result: rs.full(rs.addRule(scope(params), rs.findRuleset(scope(params), params.id), body, runs(params))), mutates: true };
        },
      },
    },
    {
      pattern: [...R, ':id', 'rules', ':rule'],
      methods: {
        PATCH: (request, params) => {
          const body = validateBody<Partial<RuleInput> & { position?: unknown }>('patchRule', request.body);
          return { result: rs.full(rs.patchRule(scope(params), rs.findRuleset(scope(params), params.id), params.rule, body, runs(params))), mutates: true };
        },
        DELETE: (_request, params) => ({ result: rs.full(rs.deleteRule(scope(params), rs.findRuleset(scope(params), params.id), params.rule)), mutates: true }),
      },
    },
  ];
}

export const rulesetsArea: Area = {
  name: 'rulesets',
  routes: (store) => SCOPES.flatMap(({ prefix, kind }) => routesOf(store, prefix, kind)),
};
