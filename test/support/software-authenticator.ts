import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in Node, for integration tests that need real registration and assertion
 * answers without a browser: ES256 keys from node:crypto, 'none' attestation, discoverable credentials kept
 * per RP ID, a signature counter per credential. It signs exactly what a platform authenticator signs
 * (authenticator data, then the SHA-256 of the client data), so the server's WebAuthn library checks it
 * like any other. The browser's part (the client data's origin) is what the test says it is: that is how
 * a test plays a page on another site.
 */

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;
const COSE_KEY_TYPE_EC2 = 2;
const COSE_ALG_ES256 = -7;
const COSE_CURVE_P256 = 1;

interface Credential {
  id: Buffer;
  rpId: string;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

/** The parts of PublicKeyCredentialCreationOptionsJSON this authenticator reads. */
export interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string };
}

/** The parts of PublicKeyCredentialRequestOptionsJSON this authenticator reads. */
export interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

const sha256 = (data: Buffer | string): Buffer => createHash('sha256').update(data).digest();
const b64url = (bytes: Buffer | Uint8Array): string => Buffer.from(bytes).toString('base64url');

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

export class SoftwareAuthenticator {
  private readonly credentials: Credential[] = [];

  constructor(
    private readonly options: {
      /** Whether it verifies the user (PIN, biometric); a plain security key does not. */
      userVerified?: boolean;
      /** How much each use moves the counter; 0 for an authenticator that keeps none (like synced passkeys). */
      counterStep?: number;
    } = {},
  ) {}

  private get flags(): number {
    return FLAG_USER_PRESENT | (this.options.userVerified === false ? 0 : FLAG_USER_VERIFIED);
  }

  /** `navigator.credentials.create()` on a page of `origin`: a new discoverable credential for the options' RP. */
  register(options: CreationOptions, origin: string): Record<string, unknown> {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, COSE_KEY_TYPE_EC2],
        [3, COSE_ALG_ES256],
        [-1, COSE_CURVE_P256],
        [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
      ]),
    );
    const credential: Credential = {
      id: randomBytes(32),
      rpId,
      privateKey,
      userHandle: options.user.id,
      counter: 0,
    };
    this.credentials.push(credential);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags | FLAG_ATTESTED_CREDENTIAL]),
      counterBytes(credential.counter),
      Buffer.alloc(16), // AAGUID: none, as with 'none' attestation
      credentialIdLength,
      credential.id,
      Buffer.from(cosePublicKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin,
      crossOrigin: false,
    });
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * `navigator.credentials.get()` on a page of `origin`: signs the challenge with the credential the options
   * allow, or with this RP's first discoverable one (or the one `credentialId` names).
   */
  assert(
    options: RequestOptions,
    origin: string,
    choice: { credentialId?: string; counter?: number } = {},
  ): Record<string, unknown> {
    const rpId = options.rpId ?? new URL(origin).hostname;
    const allowed = options.allowCredentials?.map((allow) => allow.id);
    const credential = this.credentials.find(
      (candidate) =>
        candidate.rpId === rpId &&
        (choice.credentialId === undefined || b64url(candidate.id) === choice.credentialId) &&
        (allowed === undefined || allowed.length === 0 || allowed.includes(b64url(candidate.id))),
    );
    if (!credential) throw new Error(`no credential for ${rpId} on this authenticator`);
    credential.counter = choice.counter ?? credential.counter + (this.options.counterStep ?? 1);
    const authenticatorData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags]),
      counterBytes(credential.counter),
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }),
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
