import { jwtVerify, SignJWT } from 'jose';

// Whoever placed a guest order may pay it by M-Pesa prompt for a day, without an account: the order's
// answer carries this token. Its audience is not the app's, so it can never pass for a session.
const ISSUER = 'mchanga';
const AUDIENCE = 'mchanga-order-payment';
const ALGORITHM = 'HS256';
export const PAYMENT_TOKEN_TTL = '24h';

export function signPaymentToken(orderId: number, secret: Uint8Array, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(orderId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 24 * 3600)
    .sign(secret);
}

/** True when the token was issued for this order and has not expired. */
export async function paymentTokenAllows(
  token: string | undefined,
  orderId: number,
  secret: Uint8Array,
  now: Date,
): Promise<boolean> {
  if (!token) return false;
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      typ: 'JWT',
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: now,
    });
    return payload.sub === String(orderId);
  } catch {
    return false;
  }
}
