/** The value sets of the API: filter values, tiers, levels, refund reasons, events, formats. */

export const SENIORITIES = [
	'owner',
	'founder',
	'c_suite',
	'partner',
	'vp',
	'head',
	'director',
	'manager',
	'senior',
	'entry',
	'intern',
] as const;
export type Seniority = (typeof SENIORITIES)[number];

export const FUNDING_STAGES = [
	'pre_seed',
	'seed',
	'series_a',
	'series_b',
	'series_c',
	'series_d',
	'series_e',
	'series_f',
	'series_g',
	'series_h',
	'series_i',
	'series_j',
	'private_equity',
	'debt',
	'ipo',
	'acquired',
	'bootstrapped',
] as const;

/** Values of the free-text filters the service documents; any other value is still sent. */
export const KNOWN_DEPARTMENTS = [
	'engineering',
	'sales',
	'marketing',
	'product',
	'design',
	'data',
	'finance',
	'operations',
	'human_resources',
	'legal',
	'customer_success',
	'information_technology',
	'executive',
] as const;

export const KNOWN_INDUSTRIES = [
	'software',
	'information_technology',
	'financial_services',
	'healthcare',
	'biotechnology',
	'retail',
	'e_commerce',
	'manufacturing',
	'education',
	'media',
	'telecommunications',
	'real_estate',
	'logistics',
	'energy',
	'consulting',
	'insurance',
	'automotive',
	'hospitality',
	'marketing_and_advertising',
	'government',
	'nonprofit',
	'legal_services',
	'construction',
	'food_and_beverage',
	'gaming',
	'cybersecurity',
	'aerospace',
	'agriculture',
	'pharmaceuticals',
	'venture_capital',
] as const;

export const KNOWN_TECH_STACK = [
	'aws',
	'gcp',
	'azure',
	'snowflake',
	'databricks',
	'react',
	'angular',
	'vue',
	'node.js',
	'python',
	'java',
	'go',
	'ruby on rails',
	'kubernetes',
	'docker',
	'terraform',
	'postgresql',
	'mysql',
	'mongodb',
	'redis',
	'kafka',
	'salesforce',
	'hubspot',
	'marketo',
	'zendesk',
	'intercom',
	'segment',
	'stripe',
	'shopify',
	'slack',
	'jira',
	'datadog',
] as const;

/** Account tiers, low to high. Below `growth` every endpoint answers 403 `tier_required`. */
export const TIERS = ['free', 'starter', 'growth', 'scale', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];
export const MIN_API_TIER: Tier = 'growth';

export const UNLOCK_LEVELS = ['basic', 'premium'] as const;
export type UnlockLevel = (typeof UNLOCK_LEVELS)[number];

export const EMAIL_STATUSES = ['verified', 'guessed'] as const;

export const REFUND_REASONS = ['bounced_email', 'wrong_phone', 'wrong_title'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const REFUND_STATUSES = ['approved', 'pending', 'rejected'] as const;

export const EVENT_TYPES = ['job_change', 'role_change', 'intent'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_DELIVERIES = ['inline', 'url'] as const;

export const USAGE_OPERATIONS = ['unlock', 'enrich'] as const;
