import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadConfig } from './config';
import { renderEnvExample } from './env-example';

describe('.env.example', () => {
  const text = renderEnvExample();
  const variables = parseEnv(text);

  it('lists every variable of the config schema, each with a description', () => {
    expect(Object.keys(variables).sort()).toEqual(Object.keys(EnvSchema.shape).sort());
    for (const name of Object.keys(EnvSchema.shape)) expect(text).toMatch(new RegExp(`# .+\\n${name}=`));
  });

  it('configures exactly the defaults', () => {
    expect(loadConfig(variables)).toEqual(loadConfig({}));
  });
});
