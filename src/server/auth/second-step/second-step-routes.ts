import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { messages } from '../../../common';
import {
  SecondStepCodeSchema,
  SecondStepFlowSchema,
  SecondStepPolicySchema,
  SecondStepProofSchema,
  TotpCodeSchema,
} from '../../../common/second-step';
import { AppError } from '../../core/app-error';
import { parseInput } from '../../core/validate';
import type { ViewerResolver } from '../../http/viewer-resolver';
import { perUserRateLimit } from '../../http/write-rate-limit';
import { signedInSender, userAgentOf } from '../auth-routes';
import type { SecondStepService } from './second-step-service';

export const MemberParamsSchema = z.object({ id: z.string().min(1).max(64) });

/**
 * Two-step sign-in (docs/decisions/064-two-step-sign-in.md): the second step of a login under
 * /api/auth/second-step (the flow id, no session yet), TOTP and recovery codes under /api/account/two-step,
 * and the team's policy under /api/admin/second-step-policy.
 */
export function registerSecondStepRoutes(
  app: FastifyInstance,
  deps: {
    viewers: ViewerResolver;
    secondStep: SecondStepService;
    rateLimitPerMinute: number;
    publicUrl: string | undefined;
  },
): void {
  const { viewers, secondStep } = deps;
  const sendSignedIn = signedInSender(deps.publicUrl);
  // Limited per client address like login; wrong codes also spend the account's login-failure budget.
  const rateLimit = { max: deps.rateLimitPerMinute, timeWindow: '1 minute' };
  // Checks of a password or a code by a signed-in member: login's budget per account, as a password change.
  const proofCheckLimit = perUserRateLimit(viewers, deps.rateLimitPerMinute, {
    refusal: () => new AppError('too-many-requests', messages.tooManyAttempts),
  });

  app.post('/api/auth/second-step', { config: { rateLimit } }, async (request, reply) => {
    const { flow, code } = parseInput(SecondStepCodeSchema, request.body);
    return sendSignedIn(request, reply, await secondStep.completeWithCode(flow, code, userAgentOf(request)));
  });

  app.post('/api/auth/second-step/enrol', { config: { rateLimit } }, async (request) => {
    const { flow } = parseInput(SecondStepFlowSchema, request.body);
    return secondStep.startEnrolmentInFlow(flow);
  });

  app.post('/api/auth/second-step/enrol/confirm', { config: { rateLimit } }, async (request, reply) => {
    const { flow, code } = parseInput(SecondStepCodeSchema, request.body);
    const { signedIn, recoveryCodes } = await secondStep.confirmEnrolmentInFlow(
      flow,
      code,
      userAgentOf(request),
    );
    return { ...sendSignedIn(request, reply, signedIn), recoveryCodes };
  });

  app.get('/api/account/two-step', async (request) => {
    const viewer = await viewers.requireViewer(request);
    return secondStep.status(viewer);
  });

  app.post('/api/account/two-step/totp', async (request) => {
    const viewer = await viewers.requireViewer(request);
    return secondStep.startEnrolment(viewer);
  });

  app.post(
    '/api/account/two-step/totp/confirm',
    { config: { rateLimit: proofCheckLimit } },
    async (request) => {
      const viewer = await viewers.requireViewer(request);
      const { code } = parseInput(TotpCodeSchema, request.body);
      return secondStep.confirmEnrolment(viewer, code);
    },
  );

  app.post(
    '/api/account/two-step/recovery-codes',
    { config: { rateLimit: proofCheckLimit } },
    async (request) => {
      const viewer = await viewers.requireViewer(request);
      const proof = parseInput(SecondStepProofSchema, request.body);
      return secondStep.regenerateRecoveryCodes(viewer, proof);
    },
  );

  app.post(
    '/api/account/two-step/off',
    { config: { rateLimit: proofCheckLimit } },
    async (request, reply) => {
      const viewer = await viewers.requireViewer(request);
      const proof = parseInput(SecondStepProofSchema, request.body);
      await secondStep.turnOff(viewer, proof);
      return reply.status(204).send();
    },
  );

  app.post('/api/admin/members/:id/second-step/reset', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(MemberParamsSchema, request.params);
    await secondStep.resetFor(viewer, id);
    return reply.status(204).send();
  });

  app.get('/api/admin/second-step-policy', async (request) => {
    const viewer = await viewers.requireViewer(request);
    return { policy: await secondStep.readPolicy(viewer) };
  });

  app.put('/api/admin/second-step-policy', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const { policy } = parseInput(SecondStepPolicySchema, request.body);
    return { policy: await secondStep.setPolicy(viewer, policy) };
  });
}
