import { errors, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'mchanga';
const AUDIENCE = 'mchanga-app';
const ALGORITHM = 'HS256';

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
    const userId = Number(payload.sub);
    if (
      !Number.isSafeInteger(userId) ||
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
