import type {
  AuthResult,
  AuthUser,
  IdTokenResult,
  LoginInput,
  LoginResult,
  SecondStepChallenge,
  SessionState,
} from '../common';
import { DojoError } from './errors';
import type { Transport } from './transport';

export type AuthListener = (user: AuthUser | null) => void;

export interface SignUpInput {
  email: string;
  password: string;
  displayName: string;
  /** The profile thumbnail; a File in browsers, any Blob elsewhere. */
  thumbnail: Blob;
  /** File name to store it under; defaults to the File's name. */
  fileName?: string;
  /** The token of an invitation link, when signing up through one. */
  invitation?: string;
  /** The token of the setup link the server logs for the first admin (`/signup?setup=`). */
  setup?: string;
  /** Called as the form (mostly the thumbnail) is sent: bytes sent and total. */
  onUploadProgress?: (sent: number, total: number) => void;
}

/** Refresh the id token this long before it expires. */
const TOKEN_REFRESH_MARGIN_MS = 30_000;

/**
 * Auth state that follows the server session for the client's whole life (docs/product-spec.md#flaw-7):
 * it becomes ready once the first state is known, and changes on login, logout, and whenever the
 * server says the session has ended.
 */
export class AuthClient {
  private user: AuthUser | null = null;
  private isReady = false;
  private readonly listeners = new Set<AuthListener>();
  private readonly readyPromise: Promise<void>;
  private idToken: { value: string; expiresAt: number } | null = null;

  constructor(private readonly transport: Transport) {
    this.readyPromise = this.loadSession();
  }

  get currentUser(): AuthUser | null {
    return this.user;
  }

  get ready(): boolean {
    return this.isReady;
  }

  /** Resolves once the first auth state is known. */
  whenReady(): Promise<void> {
    return this.readyPromise;
  }

  /** Calls `listener` with the current state once it is known, then on every change. */
  onAuthStateChanged(listener: AuthListener): () => void {
    this.listeners.add(listener);
    if (this.isReady) listener(this.user);
    return () => this.listeners.delete(listener);
  }

  async signUp(input: SignUpInput): Promise<AuthUser> {
    const form = new FormData();
    form.set('email', input.email);
    form.set('password', input.password);
    form.set('displayName', input.displayName);
    if (input.invitation) form.set('invitation', input.invitation);
    if (input.setup) form.set('setup', input.setup);
    const fileName = input.fileName ?? (input.thumbnail as Partial<File>).name ?? 'thumbnail';
    form.set('thumbnail', input.thumbnail, fileName);
    const result = input.onUploadProgress
      ? await this.transport.upload<AuthResult>('/api/auth/signup', form, input.onUploadProgress)
      : await this.transport.request<AuthResult>('POST', '/api/auth/signup', form);
    return this.acceptAuthResult(result);
  }

  /**
   * Logs in with a password. An account that signs in with a second step (TOTP, a recovery code, a passkey,
   * or one the team requires) is refused here: use `beginLogIn`, then `completeSecondStep`.
   */
  async logIn(input: LoginInput): Promise<AuthUser> {
    const result = await this.beginLogIn(input);
    if ('secondStep' in result) throw new DojoError('forbidden', 'This account needs a second step.', 403);
    return result.user;
  }

  /** Logs in with a password: signed in, or the second step the server asks for (no session until it is given). */
  async beginLogIn(input: LoginInput): Promise<{ user: AuthUser } | SecondStepChallenge> {
    const result = await this.transport.request<LoginResult>('POST', '/api/auth/login', input);
    return 'secondStep' in result ? result : { user: this.acceptAuthResult(result) };
  }

  /** Gives a login's second step: a TOTP code or a recovery code for `flow` (from `beginLogIn`). */
  async completeSecondStep(input: { flow: string; code: string }): Promise<AuthUser> {
    return this.acceptAuthResult(
      await this.transport.request<AuthResult>('POST', '/api/auth/second-step', input),
    );
  }

  async logOut(): Promise<void> {
    await this.transport.request<void>('POST', '/api/auth/logout');
    this.setUser(null);
  }

  /** A short-lived signed token for `Authorization: Bearer` clients (storage API, other tools). */
  async getIdToken(forceRefresh = false): Promise<string> {
    if (!this.user) throw new DojoError('unauthenticated', 'Not signed in.', 401);
    if (!forceRefresh && this.idToken && this.idToken.expiresAt - TOKEN_REFRESH_MARGIN_MS > Date.now()) {
      return this.idToken.value;
    }
    const result = await this.transport.request<IdTokenResult>('POST', '/api/auth/token');
    this.rememberToken(result);
    return result.idToken;
  }

  /**
   * The signed-in user's profile or role changed (their own edit, or a live update of their user doc):
   * listeners hear the new one; a change for anyone else is ignored.
   */
  handleProfileChanged(user: AuthUser): void {
    if (!this.user || this.user.uid !== user.uid) return;
    if (JSON.stringify(this.user) === JSON.stringify(user)) return;
    this.user = user;
    for (const listener of this.listeners) listener(user);
  }

  /** Called by the SDK when the server reports the session gone (socket message or a 401). */
  handleSessionEnded(): void {
    if (this.user) this.setUser(null);
  }

  private async loadSession(): Promise<void> {
    let user: AuthUser | null = null;
    try {
      user = (await this.transport.request<SessionState>('GET', '/api/auth/session')).user;
    } catch {
      // Unknown state is treated as signed out; the login screen then says why a call fails.
      user = null;
    }
    this.isReady = true;
    this.setUser(user, true);
  }

  /**
   * Takes a sign-in's answer (the session cookie is already set): the user is signed in from now on. For
   * proofs this client has no method of its own for, such as a passkey, whose ceremony runs in the page.
   */
  acceptAuthResult(result: AuthResult): AuthUser {
    this.rememberToken(result);
    this.setUser(result.user);
    return result.user;
  }

  private rememberToken({ idToken, expiresIn }: IdTokenResult): void {
    this.idToken = { value: idToken, expiresAt: Date.now() + expiresIn * 1000 };
  }

  private setUser(user: AuthUser | null, force = false): void {
    if (!force && this.user?.uid === user?.uid) {
      this.user = user;
      return;
    }
    this.user = user;
    if (!user) this.idToken = null;
    if (!this.isReady) return;
    for (const listener of this.listeners) listener(user);
  }
}
