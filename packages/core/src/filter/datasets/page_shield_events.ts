/** The `page_shield_events` dataset: field names and types are facts of the API; descriptions are our own. */
import type { DatasetDefinition } from './types.js';

export const page_shield_events = (): DatasetDefinition => ({
  name: 'page_shield_events',
  description: 'One report from a visitor browser about a script or connection a page loaded, checked against a Page Shield policy.',
  fields: [
    { name: "Action", type: "string", values: ["log", "allow"], description: 'Action of the policy that produced the report (log or allow)' },
    { name: "CSPDirective", type: "string", description: 'Content Security Policy directive involved (e.g. script-src)' },
    { name: "Host", type: "string", description: 'Host of the page the resource was seen on' },
    { name: "PageURL", type: "string", description: 'URL of the page that loaded the resource' },
    { name: "PolicyID", type: "string", description: 'ID of the Page Shield policy that produced the report' },
    { name: "ResourceType", type: "string", values: ["script", "connection", "other"], description: 'Kind of resource reported (script, connection, other)' },
    { name: "Timestamp", type: "int or string", description: 'When the report was received (Unix nanoseconds or RFC3339)' },
    { name: "URL", type: "string", description: 'URL of the reported resource' },
    { name: "URLContainsCDNCGIPath", type: "bool", deprecated: true, description: 'Deprecated: true if the resource URL contains a /cdn-cgi/ path' },
    { name: "URLHost", type: "string", description: 'Host of the reported resource URL' },
  ],
});
