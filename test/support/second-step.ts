import { Secret, TOTP } from 'otpauth';
import type { DojoCoreClient } from '../../src/sdk';
import { SecondStepClient } from '../../src/sdk/second-step';

/** Two-step sign-in through the SDK on a client's transport: settings, the admin policy, set-up at login. */
export const twoStepOf = (client: DojoCoreClient): SecondStepClient => new SecondStepClient(client.transport);

const STEP_MS = 30_000;

/**
 * The code an authenticator app shows for `secret`, `steps` 30-second steps from now. The server takes each
 * step once, so a test that has just used this step's code gives the next one (`steps` 1).
 */
export const totpCodeOf = (secret: string, steps = 0): string =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * STEP_MS });
