/**
 * Shapes of page monitoring resources (README, "Page monitoring (area A)"). Every field other than `id` is
 * optional (description 2.3 rule 1: fields depend on the plan); unknown extra fields are kept as they come.
 */
import type { ItemStatus, PolicyAction } from './tables.js';

export interface PageGuardSettings {
  enabled?: boolean;
  updated_at?: string;
  use_service_reporting_endpoint?: boolean;
  use_connection_url_path?: boolean;
  [extra: string]: unknown;
}

export type PageGuardSettingsInput = Partial<Pick<PageGuardSettings, 'enabled' | 'use_service_reporting_endpoint' | 'use_connection_url_path'>>;

/** Fields scripts and connections share. */
export interface ObservedItem {
  id: string;
  url?: string;
  host?: string;
  added_at?: string;
  first_seen_at?: string;
  last_seen_at?: string;
  first_page_url?: string;
  page_urls?: string[];
  status?: ItemStatus | string;
  url_contains_cdn_cgi_path?: boolean;
  domain_reported_malicious?: boolean;
  url_reported_malicious?: boolean;
  malicious_domain_categories?: string[] | null;
  malicious_url_categories?: string[] | null;
  [extra: string]: unknown;
}

export interface ScriptVersion {
  hash?: string;
  js_integrity_score?: number | null;
  fetched_at?: string;
  [extra: string]: unknown;
}

export interface Script extends ObservedItem {
  hash?: string;
  js_integrity_score?: number | null;
  malware_score?: number | null;
  magecart_score?: number | null;
  cryptomining_score?: number | null;
  /** Deprecated by the API (README, "Page monitoring (area A)"). */
  obfuscation_score?: number | null;
  /** Deprecated by the API (README, "Page monitoring (area A)"). */
  dataflow_score?: number | null;
  fetched_at?: string;
  versions?: ScriptVersion[];
}

export type Connection = ObservedItem;

export interface Cookie {
  id: string;
  name?: string;
  host?: string;
  type?: string;
  first_seen_at?: string;
  last_seen_at?: string;
  domain_attribute?: string;
  path_attribute?: string;
  expires_attribute?: string;
  max_age_attribute?: number;
  http_only_attribute?: boolean;
  secure_attribute?: boolean;
  same_site_attribute?: string;
  page_urls?: string[];
  first_page_url?: string;
  [extra: string]: unknown;
}

/** What the client adds to every script and connection it returns: derived here, never sent to the API. */
export interface Derived {
  /** Scripts: by `js_integrity_score` and the malicious rule; connections: by the reported-malicious flags. */
  malicious: boolean;
  /** The union of malicious_domain_categories and malicious_url_categories, each once, in first-seen order. */
  categories: string[];
}

export type ScriptView = Script & Derived;
export type ConnectionView = Connection & Derived;

export interface Policy {
  id: string;
  description?: string;
  action?: PolicyAction | string;
  expression?: string;
  /** Always a boolean here: the API may answer with the text "true"/"false" (README, "Page monitoring (area A)"), which is read as one. */
  enabled?: boolean;
  value?: string;
  [extra: string]: unknown;
}

export interface PolicyInput {
  /** Read-only: a policy read back may be sent whole; its id is not sent (the provider ignores it). */
  id?: string;
  description?: string;
  action: PolicyAction;
  expression: string;
  enabled?: boolean;
  value: string;
}

export type PolicyUpdate = Partial<PolicyInput>;
