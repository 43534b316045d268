/** The `nel_reports` dataset: field names and types are facts of the API; descriptions are our own. */
import type { DatasetDefinition } from './types.js';

export const nel_reports: DatasetDefinition = {
  name: 'nel_reports',
  description: '',
  fields: [
    { name: "ClientIPASN", type: "int", description: '' },
    { name: "ClientIPASNDescription", type: "string", description: '' },
    { name: "ClientIPCountry", type: "string", description: '' },
    { name: "LastKnownGoodColoCode", type: "string", description: '' },
    { name: "Phase", type: "string", values: ["dns", "connection", "application", "unknown"], description: '' },
    { name: "Timestamp", type: "int or string", description: '' },
    { name: "Type", type: "string", description: '' },
  ],
};
