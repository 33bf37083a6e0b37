import { errors, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'mchanga';
const AUDIENCE = 'mchanga-app';
const ALGORITHM = 'HS256';
const CANONICAL_ID = /^[1-9]\d{0,15}$/;
/** Servers' clocks may differ a little; a token issued further in the future than this was not ours. */
const CLOCK_SKEW_SECONDS = 60;

export interface TokenClaims {
  userId: number;
  role: string;
  /** The user's token version when issued; bumping it in the database revokes the token. */
  version: number;
}

export async function signToken(
  claims: TokenClaims,
  secret: Uint8Array,
  ttl: string,
  audience = AUDIENCE,
): Promise<string> {
  return new SignJWT({ role: claims.role, ver: claims.version })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(ttl)
    .sign(secret);
}

export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyToken(
  token: string,
  secret: Uint8Array,
  audience = AUDIENCE,
): Promise<VerifyResult> {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, secret, {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience,
      typ: 'JWT',
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    if (protectedHeader.alg !== ALGORITHM) return { ok: false, reason: 'invalid' };
    // Only the form signToken writes: "1e0", " 1" or "01" are not user 1.
    const userId = CANONICAL_ID.test(payload.sub ?? '') ? Number(payload.sub) : Number.NaN;
    if (
      !Number.isSafeInteger(userId) ||
      typeof payload.iat !== 'number' ||
      payload.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS ||
      typeof payload.ver !== 'number' ||
      typeof payload.role !== 'string'
    ) {
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, claims: { userId, role: payload.role, version: payload.ver } };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}
