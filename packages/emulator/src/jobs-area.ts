/** The log export jobs area's routes (API description 2.7, 4.4). */
import { validateBody } from './validate.js';
import { paged, type Area, type Route } from './routing.js';
import * as jobs from './jobs.js';

const J = ['zones', ':zone', 'logexport', 'jobs'];

export const jobsArea: Area = {
  name: 'jobs',
  routes: (store): Route[] => [
    {
      pattern: J,
      methods: {
        GET: (request, params) => paged(store.zone(params.zone).jobs, request.query),
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
  ],
};
