/**
 * The log export jobs area's routes (README, "Paths": log export), in the neutral spelling (aliases.ts), at both
 * scopes (the provider's `<scope>/logpush/jobs`); instant logs (`edge`) are a zone's only.
 */
import { validateBody } from './validate.js';
import { checkBodyFields } from './body-fields.js';
import { paged, wholeList, type Area, type Route } from './routing.js';
import type { JobScope, Store } from './state.js';
import { badRequest, EmulatorError } from './errors.js';
import * as jobs from './jobs.js';
import { createEdgeJob, edgeJobs } from './edge-jobs.js';
import { challengeMatches, issueChallenge, needsChallenge } from './ownership.js';
import { checkChallengeToken } from './job-fields.js';
import { datasetFields, destinationExists, destinationString, validateOrigin } from './logexport-checks.js';


/**
 * The whole list, as the provider answers it (its SDK reads one page, so a list paged at 20 hid jobs); `page` and
 * `per_page` still page it when given.
 */
function jobList(list: unknown[], query: URLSearchParams) {
  if (query.has('page') || query.has('per_page')) return paged(list, query);
  return wholeList(list);
}

/**
 * The jobs of a zone or an account. A read of an account that never had a job sees none and changes nothing; a
 * change gives it its list (data files from before account jobs have none).
 */
function scopeOf(store: Store, params: Record<string, string>, change = false): JobScope {
  if (params.zone !== undefined) return store.zone(params.zone);
  const account = store.account(params.account);
  if (change) account.jobs ??= [];
  // An account without jobs is read through a copy with an empty list (its issued challenges included).
  return account.jobs ? (account as JobScope) : { ...account, jobs: [] };
}

function routesOf(store: Store, L: string[], options: { outbox?: string }): Route[] {
  const J = [...L, 'jobs'];
  const scope = (params: Record<string, string>) => scopeOf(store, params);
  const changing = (params: Record<string, string>) => scopeOf(store, params, true);
  return [
    {
      pattern: J,
      methods: {
        GET: (request, params) => jobList(scope(params).jobs, request.query),
        POST: (request, params) => ({ result: jobs.createJob(store.state, changing(params), validateBody('createJob', request.body, 'jobInvalid')), mutates: true }),
      },
    },
    {
      pattern: [...J, ':job'],
      methods: {
        GET: (_request, params) => ({ result: jobs.findJob(scope(params), params.job) }),
        PUT: (request, params) => {
          const zone = changing(params);
          return { result: jobs.updateJob(zone, jobs.findJob(zone, params.job), validateBody('updateJob', request.body, 'jobInvalid')), mutates: true };
        },
        DELETE: (_request, params) => {
          const zone = changing(params);
          const job = jobs.findJob(zone, params.job);
          jobs.deleteJob(zone, job);
          return { result: { id: job.id }, mutates: true };
        },
      },
    },
    {
      pattern: [...L, 'datasets', ':dataset', 'fields'],
      methods: { GET: (_request, params) => ({ result: datasetFields(params.dataset) }) },
    },
    {
      pattern: [...L, 'datasets', ':dataset', 'jobs'],
      methods: {
        GET: (_request, params) => {
          datasetFields(params.dataset); // an unknown dataset is an error, not an empty list
          return { result: scope(params).jobs.filter((j) => j.dataset === params.dataset) };
        },
      },
    },
    {
      pattern: [...L, 'ownership'],
      methods: {
        POST: (request, params) => {
          checkBodyFields('destination', request.body);
          const destination = destinationString(request.body);
          jobs.checkDestination(destination); // a destination no job could use gets no challenge
          if (!needsChallenge(destination)) return { result: { filename: '', message: 'this destination needs no ownership challenge', valid: true } };
          return { result: issueChallenge(changing(params), destination, options.outbox), mutates: true };
        },
      },
    },
    {
      pattern: [...L, 'ownership', 'validate'],
      methods: {
        POST: (request, params) => {
          checkBodyFields('ownershipValidate', request.body);
          const destination = destinationString(request.body);
          const challenge = (request.body as { ownership_challenge?: unknown }).ownership_challenge;
          if (typeof challenge !== 'string') throw badRequest('jobInvalid', 'ownership_challenge: required, the token written to the destination', '/ownership_challenge');
          checkChallengeToken(challenge);
          const zone = scope(params);
          const issued = !needsChallenge(destination) || (zone as { logexport_challenges?: Record<string, string> }).logexport_challenges?.[destination] !== undefined;
          return { result: { valid: issued && challengeMatches(zone, destination, challenge) } };
        },
      },
    },
    {
      pattern: [...L, 'validate', 'destination', 'exists'],
      methods: {
        POST: (request, params) => {
          checkBodyFields('destination', request.body);
          return { result: { exists: destinationExists(scope(params), destinationString(request.body)) } };
        },
      },
    },
    {
      // The SDK's `validate.destination`: whether a job could use the destination (the emulator cannot reach it).
      // A destination given but unusable is an answer, {valid: false, message}, as validate/origin answers; a
      // body without one is a bad request.
      pattern: [...L, 'validate', 'destination'],
      methods: {
        POST: (request) => {
          checkBodyFields('destination', request.body);
          const given = (request.body as { destination_conf?: unknown } | undefined)?.destination_conf;
          try {
            jobs.checkDestination(destinationString(request.body));
            return { result: { valid: true, message: '' } };
          } catch (e) {
            if (typeof given !== 'string' || given === '' || !(e instanceof EmulatorError) || e.status !== 400) throw e;
            return { result: { valid: false, message: e.message } };
          }
        },
      },
    },
    {
      pattern: [...L, 'validate', 'origin'],
      methods: {
        POST: (request) => {
          checkBodyFields('origin', request.body);
          return { result: validateOrigin(request.body) };
        },
      },
    },
  ];
}

/** Instant logs: the schema's path, and `edge/jobs`, where the provider's SDK sends the same calls (zones only). */
function edgeRoutes(store: Store, L: string[]): Route[] {
  return [[...L, 'edge'], [...L, 'edge', 'jobs']].map(
    (pattern): Route => ({
      pattern,
      methods: {
        GET: (_request, params) => ({ result: edgeJobs(store.zone(params.zone)) }),
        POST: (request, params) => ({ result: createEdgeJob(store.zone(params.zone), request.body), mutates: true }),
      },
    }),
  );
}

const ZONE = ['zones', ':zone', 'logexport'];
const ACCOUNT = ['accounts', ':account', 'logexport'];

export const jobsArea: Area = {
  name: 'jobs',
  routes: (store, options = {}): Route[] => [...routesOf(store, ZONE, options), ...edgeRoutes(store, ZONE), ...routesOf(store, ACCOUNT, options)],
};
