/**
 * A condition's tests as closures (its plan node, plan.ts, holds them): the positive operator's test on a log
 * value, and the condition's test on the parsed log object. The operator table says which operators are
 * negative; a negative operator is the exact negation of its positive one on a present value, and true on an
 * absent or null field (docs/language.md#evaluation).
 */
import type { FilterCondition } from '../filter/filter.js';
import type { OperatorName } from '../filter/operators.js';
import { asList, asScalar, asText, equalsAny, equalsTo, toExact, type ValueTest } from './values.js';

/** A compiled test on the whole log object. */
export type ObjectTest = (o: Record<string, unknown>) => boolean;

/** The positive operator's test on a present, non-null log value. */
export function positiveTest(op: OperatorName, value: FilterCondition['value']): ValueTest {
  switch (op) {
    case 'eq':
    case '!eq':
      return equalsTo(asScalar(value));
    case 'lt':
    case 'leq':
    case 'gt':
    case 'geq': {
      const b = toExact(asScalar(value));
      // A non-numeric filter value makes every comparison false (NaN compares false with anything anyway).
      if (b !== b) return () => false;
      // `<` and `<=` between a bigint and a double compare exact values; a non-numeric log value is NaN: false.
      if (op === 'lt') return (a) => toExact(a) < b;
      if (op === 'leq') return (a) => toExact(a) <= b;
      if (op === 'gt') return (a) => toExact(a) > b;
      return (a) => toExact(a) >= b;
    }
    case 'startsWith':
    case '!startsWith': {
      const s = asText(value);
      return (a) => typeof a === 'string' && a.startsWith(s);
    }
    case 'endsWith':
    case '!endsWith': {
      const s = asText(value);
      return (a) => typeof a === 'string' && a.endsWith(s);
    }
    case 'contains':
    case '!contains': {
      const s = asText(value);
      const element = equalsTo(asScalar(value));
      return (a) => {
        if (typeof a === 'string') return a.includes(s);
        if (Array.isArray(a)) {
          for (let i = 0; i < a.length; i++) if (element(a[i])) return true;
        }
        return false;
      };
    }
    case 'in':
    case '!in': {
      const member = equalsAny(asList(value));
      return (a) => {
        if (Array.isArray(a)) {
          for (let i = 0; i < a.length; i++) if (member(a[i])) return true;
          return false;
        }
        // Objects never equal a filter scalar; equalsAny already returns false for them.
        return member(a);
      };
    }
  }
}

/** Keys that an ordinary object inherits: looking them up must not read the prototype. */
function inherited(key: string): boolean {
  return key in Object.prototype;
}

/**
 * A condition's test on the log object, from its key, whether its operator is negative and the positive
 * operator's test (positiveTest): absent and null fields hold for a negative operator only.
 */
export function objectTest(key: string, negative: boolean, test: ValueTest): ObjectTest {
  if (inherited(key)) {
    return (o) => {
      const v = Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
      if (v === undefined || v === null) return negative;
      return test(v) !== negative;
    };
  }
  if (negative) {
    return (o) => {
      const v = o[key];
      return v === undefined || v === null || !test(v);
    };
  }
  return (o) => {
    const v = o[key];
    return v !== undefined && v !== null && test(v);
  };
}
