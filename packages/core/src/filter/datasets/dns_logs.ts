/** The `dns_logs` dataset: field names and types are facts of the API; descriptions are our own. */
import type { DatasetDefinition } from './types.js';

export const dns_logs = (): DatasetDefinition => ({
  name: 'dns_logs',
  description: 'One DNS query answered by the authoritative DNS service: the question, who asked, and the response.',
  fields: [
    { name: "ColoCode", type: "string", description: 'IATA code of the data center that answered the query' },
    { name: "EDNSSubnet", type: "string", description: 'Client subnet the resolver passed in the EDNS Client Subnet option' },
    { name: "EDNSSubnetLength", type: "int", description: 'Prefix length in bits of the EDNS client subnet' },
    { name: "QueryName", type: "string", description: 'Domain name that was queried' },
    { name: "QueryType", type: "int", description: 'Numeric DNS record type asked for (1 = A, 28 = AAAA, etc.)' },
    { name: "ResponseCached", type: "bool", description: 'True if the answer was served from cache' },
    { name: "ResponseCode", type: "int", description: 'Numeric DNS response code (0 = NOERROR, 3 = NXDOMAIN, etc.)' },
    { name: "SourceIP", type: "string", description: 'IP address of the resolver that sent the query' },
    { name: "Timestamp", type: "int or string", description: 'When the query was received (Unix nanoseconds or RFC3339)' },
  ],
});
