/** Now as the ISO 8601 UTC string every timestamp column holds (docs/decisions/002-data-model.md). */
export const nowIso = (): string => new Date().toISOString();
