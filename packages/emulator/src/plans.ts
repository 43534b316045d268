/** The plans a zone can be on (fixture `plan`, migration rules). */
export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
