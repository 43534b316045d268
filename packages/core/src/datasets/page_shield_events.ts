/** The `page_shield_events` dataset: field names and types are facts of the API; descriptions are our own. */
import type { DatasetDefinition } from './types.js';

export const page_shield_events: DatasetDefinition = {
  name: 'page_shield_events',
  description: '',
  fields: [
    { name: "Action", type: "string", values: ["log", "allow"], description: '' },
    { name: "CSPDirective", type: "string", description: '' },
    { name: "Host", type: "string", description: '' },
    { name: "PageURL", type: "string", description: '' },
    { name: "PolicyID", type: "string", description: '' },
    { name: "ResourceType", type: "string", values: ["script", "connection", "other"], description: '' },
    { name: "Timestamp", type: "int or string", description: '' },
    { name: "URL", type: "string", description: '' },
    { name: "URLContainsCDNCGIPath", type: "bool", deprecated: true, description: '' },
    { name: "URLHost", type: "string", description: '' },
  ],
};
