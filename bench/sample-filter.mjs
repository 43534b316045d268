// The conditions of the realistic filter the benches share (its compiled JSON is about 1000 bytes).
export const SAMPLE_CONDITIONS = [
  'ClientRequestHost == "api.example.com"',
  'EdgeResponseStatus >= 500',
  'ClientCountry in ["us", "ca", "de", "fr", "gb"]',
  'ClientRequestPath not startsWith "/static/"',
  'not (BotScore < 30 or ClientRequestMethod == "OPTIONS")',
  'ClientRequestURI not contains ".css"',
  'ClientRequestURI not contains ".js"',
  'EdgeResponseContentType not in ["image/png", "image/jpeg"]',
  'CacheCacheStatus != "hit"',
  'ClientRequestUserAgent not contains "bot"',
  'SecurityAction in ["block", "challenge"]',
  'OriginResponseStatus >= 400',
];
