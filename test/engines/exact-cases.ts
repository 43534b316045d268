/**
 * Pinned verdicts for the rules where a loose reading goes wrong: integers beyond 2^53 compare exactly, a
 * string is numeric only by the JSON number grammar, absent and null fields, empty strings, NUL. Each entry is
 * a filter condition, a log line and whether the line matches (docs/language.md, evaluation).
 */
export interface Pinned {
  filter: string;
  line: string;
  matches: boolean;
}

const c = (key: string, operator: string, value: string) => `{"where":{"key":"${key}","operator":"${operator}","value":${value}}}`;

export const PINNED: Pinned[] = [
  // integers one apart beyond 2^53 (nanosecond timestamps)
  { filter: c('EdgeResponseStatus', 'eq', '1700000000123456790'), line: '{"EdgeResponseStatus":1700000000123456789}', matches: false },
  { filter: c('EdgeResponseStatus', 'lt', '1700000000123456790'), line: '{"EdgeResponseStatus":1700000000123456789}', matches: true },
  { filter: c('EdgeResponseStatus', '!eq', '1700000000123456790'), line: '{"EdgeResponseStatus":1700000000123456789}', matches: true },
  { filter: c('BotDetectionIDs', 'contains', '9007199254740993'), line: '{"BotDetectionIDs":[9007199254740992]}', matches: false },
  { filter: c('BotDetectionIDs', 'in', '[9007199254740993]'), line: '{"BotDetectionIDs":[1,9007199254740993]}', matches: true },
  { filter: c('EdgeStartTimestamp', 'eq', '"1700000000123456789"'), line: '{"EdgeStartTimestamp":1700000000123456789}', matches: true },
  { filter: c('EdgeStartTimestamp', 'eq', '"1700000000123456789"'), line: '{"EdgeStartTimestamp":1700000000123456790}', matches: false },
  { filter: c('EdgeStartTimestamp', 'gt', '1700000000123456788'), line: '{"EdgeStartTimestamp":"1700000000123456789"}', matches: true },
  { filter: c('EdgeStartTimestamp', 'gt', '1700000000123456789'), line: '{"EdgeStartTimestamp":"1700000000123456789"}', matches: false },
  // numeric strings: the JSON number grammar, exactly
  { filter: c('ClientRequestBytes', 'eq', '"30"'), line: '{"ClientRequestBytes":30}', matches: true },
  { filter: c('ClientRequestBytes', 'geq', '"030"'), line: '{"ClientRequestBytes":30}', matches: false },
  { filter: c('ClientRequestBytes', '!eq', '"030"'), line: '{"ClientRequestBytes":30}', matches: true },
  { filter: c('ClientRequestBytes', 'eq', '"1e3"'), line: '{"ClientRequestBytes":1000}', matches: true },
  { filter: c('EdgeStartTimestamp', 'eq', '5'), line: '{"EdgeStartTimestamp":"5.0"}', matches: true },
  { filter: c('EdgeStartTimestamp', 'eq', '5'), line: '{"EdgeStartTimestamp":"05"}', matches: false },
  { filter: c('EdgeStartTimestamp', 'eq', '5'), line: '{"EdgeStartTimestamp":"+5"}', matches: false },
  { filter: c('EdgeStartTimestamp', 'eq', '5'), line: '{"EdgeStartTimestamp":" 5"}', matches: false },
  { filter: c('EdgeStartTimestamp', 'lt', '1'), line: '{"EdgeStartTimestamp":".5"}', matches: false },
  { filter: c('EdgeStartTimestamp', 'lt', '1'), line: '{"EdgeStartTimestamp":"-0.5e0"}', matches: true },
  // absent and null fields: positive operators false, negative ones true
  { filter: c('ClientRequestHost', '!eq', '"a"'), line: '{}', matches: true },
  { filter: c('ClientRequestHost', '!eq', '"a"'), line: '{"ClientRequestHost":null}', matches: true },
  { filter: c('ClientRequestHost', 'eq', '""'), line: '{"ClientRequestHost":""}', matches: true },
  { filter: c('ClientRequestHost', '!eq', '""'), line: '{"ClientRequestHost":""}', matches: false },
  { filter: c('ClientRequestHost', 'eq', '""'), line: '{}', matches: false },
  { filter: c('ClientRequestHost', 'contains', '""'), line: '{"ClientRequestHost":""}', matches: true },
  { filter: c('ClientRequestHost', '!startsWith', '""'), line: '{}', matches: true },
  { filter: c('BotTags', '!in', '["a","b"]'), line: '{"BotTags":null}', matches: true },
  { filter: c('BotTags', '!in', '["a","b"]'), line: '{"BotTags":[]}', matches: true },
  { filter: c('BotTags', 'in', '["a","b"]'), line: '{"BotTags":["c","b"]}', matches: true },
  { filter: c('CacheReserveUsed', '!eq', 'true'), line: '{"CacheReserveUsed":null}', matches: true },
  // escapes: quotes, backslashes, NUL, non-ASCII
  { filter: c('ClientRequestHost', 'eq', '"x\\u0000y"'), line: '{"ClientRequestHost":"x\\u0000y"}', matches: true },
  { filter: c('ClientRequestHost', 'eq', '"q\'\\"b\\\\"'), line: '{"ClientRequestHost":"q\'\\"b\\\\"}', matches: true },
  { filter: c('EdgeStartTimestamp', 'in', '["a\\\\",5]'), line: '{"EdgeStartTimestamp":"a\\\\"}', matches: true },
  { filter: c('EdgeStartTimestamp', 'in', '["a\\\\",5]'), line: '{}', matches: false },
  { filter: c('EdgeStartTimestamp', '!in', '["a\\\\",5]'), line: '{}', matches: true },
  { filter: c('ClientRequestHost', 'startsWith', '"日本"'), line: '{"ClientRequestHost":"日本🚀"}', matches: true },
  { filter: c('ClientRequestHost', 'endsWith', '"🚀"'), line: '{"ClientRequestHost":"\\ud83d\\ude80"}', matches: true },
  // keys the language source cannot spell: a backquote, a line break, quotes
  { filter: c('a`b', 'eq', '"x"'), line: '{"a`b":"x"}', matches: true },
  { filter: c('a\\nb', 'eq', '"x"'), line: '{"a\\nb":"x","a":"y"}', matches: true },
  { filter: c('a\\"b\'', '!eq', '"x"'), line: '{"a\\"b\'":"y"}', matches: true },
];

/**
 * Keys that differ only in case: the language looks a field up by its exact name, so a line whose key is
 * `clientip` has no `ClientIP` (and `{"a":"x","A":"y"}` has `A` = "y"), whatever order the keys come in.
 */
export const CASE_KEYS: Pinned[] = [
  { filter: c('ClientIP', 'eq', '"1.2.3.4"'), line: '{"clientip":"1.2.3.4"}', matches: false },
  { filter: c('ClientIP', '!eq', '"1.2.3.4"'), line: '{"clientip":"1.2.3.4"}', matches: true },
  { filter: c('ClientIP', 'eq', '"1.2.3.4"'), line: '{"CLIENTIP":"9.9.9.9","ClientIP":"1.2.3.4"}', matches: true },
  { filter: c('ClientIP', 'eq', '"9.9.9.9"'), line: '{"clientip":"9.9.9.9","ClientIP":"1.2.3.4"}', matches: false },
  { filter: c('EdgeResponseStatus', 'eq', '500'), line: '{"edgeresponsestatus":500}', matches: false },
  { filter: c('EdgeResponseStatus', '!eq', '500'), line: '{"edgeresponsestatus":500}', matches: true },
  { filter: c('BotTags', 'contains', '"api"'), line: '{"bottags":["api"]}', matches: false },
  { filter: c('A', 'eq', '"y"'), line: '{"a":"x","A":"y"}', matches: true },
  { filter: c('A', 'eq', '"x"'), line: '{"a":"x","A":"y"}', matches: false },
  { filter: c('A', '!eq', '"x"'), line: '{"a":"x"}', matches: true },
];
