/**
 * What to do after the API refused, keyed by the API's error code (packages/emulator/README.md lists the codes):
 * the same HTTP status means different things (a 403 is a bad token, a plan that lacks a feature, or a zone that
 * has migrated), so the status alone picks the wrong advice. A code with nothing useful to add (a validation
 * error whose message already names the field) has no entry: the API's message stands alone.
 */
import { ENV } from '@logfilter/api';

const credentials = `check the credentials in ${ENV.token} (or ${ENV.email} and ${ENV.key})`;

/** One table: API error code → the advice, in the command line's own words. */
export const HINTS_BY_CODE: Readonly<Record<number, string>> = {
  10000: `set ${ENV.token} (or ${ENV.email} and ${ENV.key})`,
  10001: credentials,
  7000: `check that ${ENV.baseUrl} ends with the API's version segment (e.g. /client/v4)`,
  7003: 'check the zone id (a zone name works too: it is looked up in the zones list)',
  1004: 'see the jobs with: logfilter jobs list --zone <zone>',
  10003: 'the phase has no entry point yet: create it with: logfilter rulesets entrypoint put --phase <phase> --zone <zone> --file <rules>',
  10004: 'see the rulesets with: logfilter rulesets list --zone <zone>',
  10006: 'see the rules with: logfilter rulesets get <ruleset-id> --zone <zone>',
  10007: 'see the versions with: logfilter rulesets versions <ruleset-id> --zone <zone>',
  10009: 'the only version cannot be deleted alone: delete the ruleset with: logfilter rulesets delete <ruleset-id> --zone <zone>',
  20025: 'an execute rule runs it: delete or change that rule first (see the phase\'s entry point with: logfilter rulesets entrypoint get --phase <phase> --zone <zone>)',
  20217: 'a phase has one entry point: change its rules with: logfilter rulesets entrypoint put --phase <phase> --zone <zone> --file <rules>',
  20024: 'managed rulesets are read-only: change what runs through the execute rule\'s overrides instead',
  20402: 'validation mode needs an Enterprise plan: use logfilter waf-migration finish --zone <zone> (after logfilter waf-migration plan --zone <zone>)',
  20403: 'the zone has already migrated; see its state with: logfilter waf-migration status --zone <zone>',
  20400: 'delete the URI-based overrides first: logfilter waf-migration check --zone <zone> lists the commands',
  20410: 'the zone has migrated, so the previous WAF\'s API stopped working: use logfilter rulesets entrypoint get --phase http_request_firewall_managed --zone <zone>',
  20411: 'see the packages with: logfilter waf-legacy packages --zone <zone>',
  12002: 'see the scripts with: logfilter page-guard scripts --zone <zone>',
  12003: 'see the connections with: logfilter page-guard connections --zone <zone>',
  12004: 'see the cookies with: logfilter page-guard cookies --zone <zone>',
  12005: 'see the policies with: logfilter page-guard policies list --zone <zone>',
};

/** Advice by status, only where the status says it all whatever the code (an unknown code of a known status). */
export function hintByStatus(status: number | undefined): string {
  if (status === 401) return credentials;
  if (status === 429) return 'the API is rate limiting; wait a minute and run the command again';
  if (status !== undefined && status >= 500) return 'the API failed; try again later';
  return '';
}

/** The advice for an API refusal, with `<zone>` filled in when the command knows it. */
export function hintFor(code: number | undefined, status: number | undefined, zone?: string): string {
  const text = (code !== undefined ? HINTS_BY_CODE[code] : undefined) ?? hintByStatus(status);
  return zone !== undefined ? text.replaceAll('<zone>', zone) : text;
}
