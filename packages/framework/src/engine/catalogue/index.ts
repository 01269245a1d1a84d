/**
 * The catalogue part: what the platform's catalogue decides (catalogue-checks.ts: a region, a package,
 * a permission) and whether the objects arguments name exist (reference-checks.ts), judged at plan and
 * again before a create or update is sent, on listings read once per process.
 */
export { CatalogueChecks } from './catalogue-checks.js';
