/**
 * The zones list (`GET zones`, with `?name=` to find a zone by its domain name): how clients turn a zone name into
 * the zone id the other paths take. A zone's name comes from the fixture (`zones.<id>.name`); a zone without one
 * is listed under its id.
 */
import { FixtureError } from './fixture.js';
import { paged, type Area, type Route } from './routing.js';
import type { ZoneState } from './state.js';

/** A domain name as zones have them: labels of letters, digits and hyphens, separated by dots. */
const HOSTNAME = /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

function zoneView(id: string, zone: ZoneState) {
  return { id, name: zone.name ?? id, status: 'active', account: zone.account ? { id: zone.account } : null, plan: { name: zone.plan } };
}

export const zonesArea: Area = {
  name: 'zones',
  routes: (store): Route[] => [
    {
      pattern: ['zones'],
      methods: {
        GET: (request) => {
          const name = request.query.get('name')?.toLowerCase();
          const all = Object.entries(store.state.zones).map(([id, zone]) => zoneView(id, zone));
          return paged(name === undefined ? all : all.filter((z) => z.name.toLowerCase() === name), request.query);
        },
      },
    },
  ],
  zoneFixture: {
    keys: ['name'],
    apply(raw, zone, at) {
      if (raw.name === undefined) return;
      if (typeof raw.name !== 'string' || !HOSTNAME.test(raw.name)) throw new FixtureError(`${at}.name: not a domain name (example.com)`);
      zone.name = raw.name;
    },
  },
};
