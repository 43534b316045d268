/** Ids the service assigns (rulesets, rules, overrides, …): 32 hexadecimal characters. */
import { randomBytes } from 'node:crypto';

export const newId = (): string => randomBytes(16).toString('hex');
