/** The `nel_reports` dataset: field names and types are facts of the API; descriptions are our own. */
import type { DatasetDefinition } from './types.js';

export const nel_reports = (): DatasetDefinition => ({
  name: 'nel_reports',
  description: 'One Network Error Logging report a browser sent about a request to the site that failed.',
  fields: [
    { name: "ClientIPASN", type: "int", description: 'Autonomous system number of the reporting client IP' },
    { name: "ClientIPASNDescription", type: "string", description: 'Name of the autonomous system of the reporting client IP' },
    { name: "ClientIPCountry", type: "string", description: 'Two-letter ISO country code of the reporting client IP' },
    { name: "LastKnownGoodColoCode", type: "string", description: 'IATA code of the last data center the client reached successfully' },
    { name: "Phase", type: "string", values: ["dns", "connection", "application", "unknown"], description: 'Phase of the request in which the error happened (dns, connection, application)' },
    { name: "Timestamp", type: "int or string", description: 'When the error was reported (Unix nanoseconds or RFC3339)' },
    { name: "Type", type: "string", description: 'NEL error type reported by the browser (e.g. tcp.timed_out)' },
  ],
});
