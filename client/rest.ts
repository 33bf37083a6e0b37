import { clearSession, getSession } from './session';

/** Error from a REST call: `message` is the server's `error` field; `body` keeps the rest (e.g. duplicates). */
export class RestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

/**
 * For the few calls that carry images as data URLs (over tRPC's body limit) and need the REST path.
 * Everything else uses tRPC (client/trpc.ts).
 */
export async function restCall<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  path: string,
  body?: unknown,
): Promise<T> {
  const token = getSession()?.token;
  const res = await fetch(path, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!res.ok) {
    if (res.status === 401 && token) clearSession();
    throw new RestError(
      typeof data.error === 'string' ? data.error : `Request failed (${res.status})`,
      res.status,
      data,
    );
  }
  return data as T;
}
