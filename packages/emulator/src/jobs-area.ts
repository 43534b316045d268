/** The log export jobs area's routes (README, "Paths": log export), in the neutral spelling (aliases.ts). */
import { validateBody } from './validate.js';
import { paged, type Area, type Route } from './routing.js';
import { badRequest } from './errors.js';
import * as jobs from './jobs.js';
import { createEdgeJob, edgeJobs } from './edge-jobs.js';
import { challengeMatches, issueChallenge, needsChallenge } from './ownership.js';
import { datasetFields, destinationExists, destinationString, validateOrigin } from './logexport-checks.js';

const L = ['zones', ':zone', 'logexport'];
const J = [...L, 'jobs'];

/**
 * The whole list, as the provider answers it (its SDK reads one page, so a list paged at 20 hid jobs); `page` and
 * `per_page` still page it when given.
 */
function jobList(list: unknown[], query: URLSearchParams) {
  if (query.has('page') || query.has('per_page')) return paged(list, query);
  const n = list.length;
  return { result: list, resultInfo: { page: 1, per_page: n, count: n, total_count: n, total_pages: n === 0 ? 0 : 1 } };
}

export const jobsArea: Area = {
  name: 'jobs',
  routes: (store, options = {}): Route[] => [
    {
      pattern: J,
      methods: {
        GET: (request, params) => jobList(store.zone(params.zone).jobs, request.query),
        POST: (request, params) => ({ result: jobs.createJob(store.state, store.zone(params.zone), validateBody('createJob', request.body, 'jobInvalid')), mutates: true }),
      },
    },
    {
      pattern: [...J, ':job'],
      methods: {
        GET: (_request, params) => ({ result: jobs.findJob(store.zone(params.zone), params.job) }),
        PUT: (request, params) => {
          const zone = store.zone(params.zone);
          return { result: jobs.updateJob(zone, jobs.findJob(zone, params.job), validateBody('updateJob', request.body, 'jobInvalid')), mutates: true };
        },
        DELETE: (_request, params) => {
          const zone = store.zone(params.zone);
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
          return { result: store.zone(params.zone).jobs.filter((j) => j.dataset === params.dataset) };
        },
      },
    },
    {
      pattern: [...L, 'ownership'],
      methods: {
        POST: (request, params) => {
          const destination = destinationString(request.body);
          jobs.checkDestination(destination); // a destination no job could use gets no challenge
          if (!needsChallenge(destination)) return { result: { filename: '', message: 'this destination needs no ownership challenge', valid: true } };
          return { result: issueChallenge(store.zone(params.zone), destination, options.outbox), mutates: true };
        },
      },
    },
    {
      pattern: [...L, 'ownership', 'validate'],
      methods: {
        POST: (request, params) => {
          const destination = destinationString(request.body);
          const challenge = (request.body as { ownership_challenge?: unknown }).ownership_challenge;
          if (typeof challenge !== 'string') throw badRequest('jobInvalid', 'ownership_challenge: required, the token written to the destination', '/ownership_challenge');
          const zone = store.zone(params.zone);
          const issued = !needsChallenge(destination) || (zone as { logexport_challenges?: Record<string, string> }).logexport_challenges?.[destination] !== undefined;
          return { result: { valid: issued && challengeMatches(zone, destination, challenge) } };
        },
      },
    },
    {
      pattern: [...L, 'validate', 'destination', 'exists'],
      methods: { POST: (request, params) => ({ result: { exists: destinationExists(store.zone(params.zone), destinationString(request.body)) } }) },
    },
    {
      // The SDK's `validate.destination`: the destination is well formed (the emulator cannot reach it).
      pattern: [...L, 'validate', 'destination'],
      methods: { POST: (request) => ({ result: { valid: destinationString(request.body) !== '', message: '' } }) },
    },
    {
      pattern: [...L, 'validate', 'origin'],
      methods: { POST: (request) => ({ result: validateOrigin(request.body) }) },
    },
    // Instant logs: the schema's path, and `edge/jobs`, where the provider's SDK sends the same calls.
    ...[[...L, 'edge'], [...L, 'edge', 'jobs']].map(
      (pattern): Route => ({
        pattern,
        methods: {
          GET: (_request, params) => ({ result: edgeJobs(store.zone(params.zone)) }),
          POST: (request, params) => ({ result: createEdgeJob(store.zone(params.zone), (request.body ?? {}) as Record<string, unknown>), mutates: true }),
        },
      }),
    ),
  ],
};
