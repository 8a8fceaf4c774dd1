/**
 * What services and repositories log through. Fastify's logger (pino) is one; keeping to this much lets
 * them stay free of the HTTP framework (lint-enforced in eslint.config.js).
 */
export interface Logger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}
