import { z } from 'zod';
import { ENV_DESCRIPTIONS, EnvSchema } from './config';
import { OIDC_PROVIDER_ENV_DESCRIPTIONS } from './single-sign-on-config';

const HEADER = `# Every environment variable the server reads, set to its default (a blank value means unset).
# Generated from src/server/config/config.ts by \`npm run env:example\`; \`npm run lint\` fails when it is stale.
`;

/** A default as the environment would spell it; a non-textual default (TRUST_PROXY's \`false\`) is "unset". */
function defaultText(schema: z.ZodType): string {
  if (!(schema instanceof z.ZodDefault)) return '';
  const value: unknown = schema.def.defaultValue;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The text of `.env.example`: each variable of the config schema, its description and its default. */
export function renderEnvExample(): string {
  const entries = Object.entries(EnvSchema.shape) as [keyof typeof EnvSchema.shape, z.ZodType][];
  const sections = entries.map(
    ([name, schema]) => `# ${ENV_DESCRIPTIONS[name]}\n${name}=${defaultText(schema)}\n`,
  );
  const oidcSection = Object.entries(OIDC_PROVIDER_ENV_DESCRIPTIONS).map(
    ([suffix, description]) => `# OIDC_<ID>_${suffix}: ${description}\n# OIDC_CORP_${suffix}=\n`,
  );
  const oidcHeader = `# Per provider id in OIDC_PROVIDERS, in capitals (corp: OIDC_CORP_…); see docs/deploy.md#10-single-sign-on\n`;
  return [HEADER, ...sections, oidcHeader, ...oidcSection].join('\n');
}
