import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/**
 * A known device: a successful sign-in leaves a signed, HttpOnly cookie naming the account (and its token
 * version) and a device id. From that browser the right password still works while strangers' failures
 * have spent the account's ceiling: a lockout is no denial of service. "Sign out everywhere" and a new
 * password move the token version on, and the browsers known before are strangers again.
 */
export const DEVICE_COOKIE = 'mchanga_device';
const AUDIENCE = 'mchanga-device';
const ISSUER = 'mchanga';
const TTL_SECONDS = 180 * 24 * 3600;

export const DEVICE_COOKIE_OPTIONS = {
  path: '/',
  httpOnly: true,
  sameSite: 'strict',
  maxAge: TTL_SECONDS,
} as const;

export interface DeviceUser {
  id: number;
  tokenVersion: number;
}

/** The device id this cookie vouches for, when it was issued to this account at its current token version. */
export async function knownDevice(
  token: string | undefined,
  user: DeviceUser,
  secret: Uint8Array,
): Promise<string | undefined> {
  if (!token) return undefined;
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      typ: 'JWT',
      requiredClaims: ['exp', 'sub', 'jti'],
    });
    return payload.sub === String(user.id) && payload.ver === user.tokenVersion ? payload.jti : undefined;
  } catch {
    return undefined;
  }
}

/** The cookie value for a browser that just signed in (its device id kept when it had one). */
export function deviceToken(
  user: DeviceUser,
  secret: Uint8Array,
  deviceId: string = randomUUID(),
): Promise<string> {
  return new SignJWT({ ver: user.tokenVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(user.id))
    .setJti(deviceId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${TTL_SECONDS}s`)
    .sign(secret);
}
