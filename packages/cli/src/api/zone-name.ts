/**
 * A zone given by its name where an id is expected (`--zone example.com`): resolved through the zones list
 * (`GET zones?name=`), as the provider's tools do. Zone ids hold no dot, names always do.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE } from '../errors.js';
import { apiCall, makeClient, type ClientFlags } from './client.js';

export const isZoneName = (zone: string) => zone.includes('.');

export async function resolveZoneName(ctx: CliContext, flags: ClientFlags, name: string): Promise<string> {
  const client = makeClient(ctx, flags);
  const answer = await apiCall(`looking up zone ${name} failed`, () => client.request<{ id: string; name: string }[]>('GET', `/zones?name=${encodeURIComponent(name)}`));
  const found = Array.isArray(answer.result) ? answer.result.filter((z) => typeof z?.id === 'string') : [];
  if (found.length === 0) throw new CliError(`no zone named ${name}: the zones list has none (give the zone id, or check the name)`, EXIT_FAILURE);
  if (found.length > 1) throw new CliError(`${found.length} zones are named ${name} (${found.map((z) => z.id).join(', ')}): give the zone id`, EXIT_FAILURE);
  return found[0].id;
}

/** Before any action: a `--zone` holding a name becomes the zone's id (every command then uses the id). */
export function resolveZoneNamesBeforeActions(program: Command, ctx: CliContext): void {
  program.hook('preAction', async (_root, action) => {
    const flags = action.opts() as ClientFlags & { zone?: unknown };
    if (typeof flags.zone === 'string' && isZoneName(flags.zone)) action.setOptionValue('zone', await resolveZoneName(ctx, flags, flags.zone));
  });
}
