import type {
  RecoveryCodes,
  SecondStepPolicy,
  SecondStepProof,
  TotpEnrolment,
  TwoStepStatus,
} from '../common/second-step';
import type { AuthResult, AuthUser } from '../common';
import type { AuthClient } from './auth';
import type { Transport } from './transport';

/**
 * Two-step sign-in in settings and on the admin screen, and TOTP set-up within a login (docs/api.md
 * "Two-step sign-in"). Not part of `createDojoCoreClient`: only those screens use it, so it stays out of the
 * first page's bundle; build it on a client's transport, `new SecondStepClient(dojo.transport)`. Giving the
 * second step itself is `auth.beginLogIn` / `auth.completeSecondStep`.
 */
export class SecondStepClient {
  constructor(private readonly transport: Transport) {}

  status(): Promise<TwoStepStatus> {
    return this.transport.request<TwoStepStatus>('GET', '/api/account/two-step');
  }

  /** A new secret (QR code and text); TOTP stays off until `confirmTotp` gets a right code. */
  startTotp(): Promise<TotpEnrolment> {
    return this.transport.request<TotpEnrolment>('POST', '/api/account/two-step/totp');
  }

  /** Turns TOTP on; the recovery codes are in this answer only. */
  confirmTotp(code: string): Promise<RecoveryCodes> {
    return this.transport.request<RecoveryCodes>('POST', '/api/account/two-step/totp/confirm', { code });
  }

  regenerateRecoveryCodes(proof: SecondStepProof): Promise<RecoveryCodes> {
    return this.transport.request<RecoveryCodes>('POST', '/api/account/two-step/recovery-codes', proof);
  }

  async turnOff(proof: SecondStepProof): Promise<void> {
    await this.transport.request<void>('POST', '/api/account/two-step/off', proof);
  }

  /** Within a login whose answer said `enrol`: a secret for the flow (then `auth.confirmEnrolmentAtLogIn`). */
  startTotpAtLogIn(flow: string): Promise<TotpEnrolment> {
    return this.transport.request<TotpEnrolment>('POST', '/api/auth/second-step/enrol', { flow });
  }

  /**
   * Turns TOTP on within that login with the app's first code. The session exists at once; `auth` counts as
   * signed in when `signIn()` is called, so a screen can show the recovery codes before it moves on.
   */
  async confirmTotpAtLogIn(
    auth: AuthClient,
    input: { flow: string; code: string },
  ): Promise<{ recoveryCodes: string[]; signIn: () => AuthUser }> {
    const { recoveryCodes, ...result } = await this.transport.request<
      AuthResult & { recoveryCodes: string[] }
    >('POST', '/api/auth/second-step/enrol/confirm', input);
    return { recoveryCodes, signIn: () => auth.acceptAuthResult(result) };
  }

  /** An admin turns a member's TOTP off, for one who lost both the app and the recovery codes. */
  async resetMember(memberId: string): Promise<void> {
    await this.transport.request<void>(
      'POST',
      `/api/admin/members/${encodeURIComponent(memberId)}/second-step/reset`,
    );
  }

  async policy(): Promise<SecondStepPolicy> {
    return (
      await this.transport.request<{ policy: SecondStepPolicy }>('GET', '/api/admin/second-step-policy')
    ).policy;
  }

  async setPolicy(policy: SecondStepPolicy): Promise<SecondStepPolicy> {
    const body = { policy };
    return (
      await this.transport.request<{ policy: SecondStepPolicy }>('PUT', '/api/admin/second-step-policy', body)
    ).policy;
  }
}
