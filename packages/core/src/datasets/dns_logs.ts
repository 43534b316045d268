/** The `dns_logs` dataset: field names and types are facts of the API; descriptions are our own. */
import type { DatasetDefinition } from './types.js';

export const dns_logs: DatasetDefinition = {
  name: 'dns_logs',
  description: '',
  fields: [
    { name: "ColoCode", type: "string", description: '' },
    { name: "EDNSSubnet", type: "string", description: '' },
    { name: "EDNSSubnetLength", type: "int", description: '' },
    { name: "QueryName", type: "string", description: '' },
    { name: "QueryType", type: "int", description: '' },
    { name: "ResponseCached", type: "bool", description: '' },
    { name: "ResponseCode", type: "int", description: '' },
    { name: "SourceIP", type: "string", description: '' },
    { name: "Timestamp", type: "int or string", description: '' },
  ],
};
