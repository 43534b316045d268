/** Fixtures of page monitoring tests: the shop zone of test/fixtures/page-guard/shop.json and generated zones. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './paths.js';

export const SHOP_FIXTURE_FILE = path.join(REPO, 'test/fixtures/page-guard/shop.json');
export const SHOP_FIXTURE = JSON.parse(readFileSync(SHOP_FIXTURE_FILE, 'utf8')) as { zones: Record<string, { page_guard: Record<string, unknown[]> }> };

/** 32 hex characters, distinct per prefix digit and number. */
export const hexId = (prefix: number, n: number) => `${prefix.toString(16)}${n.toString(16).padStart(31, '0')}`;

/** `n` active scripts on www.big.test, first seen one minute apart (script i at minute i). */
export function manyScripts(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: hexId(9, i),
    url: `https://cdn.big.test/s${i}.js`,
    host: 'www.big.test',
    first_seen_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
  }));
}

/** A fixture document with one zone per entry: `{zone: page_guard section}`. */
export function fixture(zones: Record<string, Record<string, unknown>>) {
  return { accounts: { a1: {} }, zones: Object.fromEntries(Object.entries(zones).map(([z, page_guard]) => [z, { account: 'a1', plan: 'enterprise', page_guard }])) };
}
