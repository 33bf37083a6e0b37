import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../shared/roles';
import { createTestApp, type TestApp } from '../test/helpers';
import type { CtxUser } from './context';
import { RAW_ROUTES } from './raw-routes';
import { resolveProcedure } from './rest';
import { appRouter } from './router';
import { type Meta, PUBLIC_PROCEDURES } from './trpc';

// Deny by default: every procedure must be role-gated or on the short public list — proved by calling
// each one, not by reading its metadata alone.
const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>,
);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (err) {
    return err instanceof TRPCError ? err.code : 'OTHER';
  }
}

function fakeUser(role: Role): CtxUser {
  return { id: 999_999, role, name: 'Nobody', email: 'nobody@example.co.ke', phone: null, driverId: null };
}

describe('procedure access', () => {
  it('every procedure is role-gated or explicitly public', () => {
    const offenders = procedures
      .filter(
        ([path, p]) =>
          !(PUBLIC_PROCEDURES as readonly string[]).includes(path) && !p._def.meta?.roles?.length,
      )
      .map(([path]) => path);
    expect(offenders).toEqual([]);
    // The list holds only real procedures: a stale name would hide a renamed one.
    const paths = procedures.map(([p]) => p);
    for (const name of PUBLIC_PROCEDURES) expect(paths, name).toContain(name);
  });

  it('public procedures carry no role gate', () => {
    for (const [path, p] of procedures) {
      if ((PUBLIC_PROCEDURES as readonly string[]).includes(path))
        expect(p._def.meta?.roles, path).toBeUndefined();
    }
  });

  it.each(procedures.filter(([path]) => !(PUBLIC_PROCEDURES as readonly string[]).includes(path)))(
    '%s refuses an anonymous caller with UNAUTHORIZED',
    async (path) => {
      const call = resolveProcedure(t.caller(null), path);
      expect(await codeOf(call(undefined))).toBe('UNAUTHORIZED');
    },
  );

  it.each(procedures.filter(([, p]) => p._def.meta?.roles && p._def.meta.roles.length < ROLES.length))(
    '%s refuses every role it does not list with FORBIDDEN',
    async (path, p) => {
      const denied = ROLES.filter((r) => !p._def.meta!.roles!.includes(r));
      for (const role of denied) {
        const call = resolveProcedure(t.caller(fakeUser(role)), path);
        expect(await codeOf(call(undefined))).toBe('FORBIDDEN');
      }
    },
  );
});

describe('raw /api routes (outside tRPC)', () => {
  const withRoles = RAW_ROUTES.filter((r) => Array.isArray(r.access));

  it.each(withRoles.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses an anonymous caller with 401',
    async (_name, route) => {
      const res = await t.app.inject({
        method: route.method,
        url: route.probe.path,
        payload: route.probe.body as object,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toEqual(expect.any(String));
    },
  );

  it.each(withRoles.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses every role it does not list',
    async (_name, route) => {
      const allowed = route.access as readonly Role[];
      for (const role of ROLES.filter((r) => !allowed.includes(r))) {
        const { headers } = await t.signIn(role);
        const res = await t.app.inject({ method: route.method, url: route.probe.path, headers });
        expect(res.statusCode, role).toBe(route.refusedWith ?? 403);
      }
    },
  );

  it('signed routes refuse a body without a valid signature with 401, never a 2xx', async () => {
    const signed = RAW_ROUTES.filter((r) => r.access === 'signature');
    expect(signed.length).toBeGreaterThan(0);
    for (const route of signed)
      for (const headers of [{}, { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` }]) {
        const res = await t.app.inject({
          method: route.method,
          url: route.probe.path,
          headers,
          payload: route.probe.body as object,
        });
        expect(res.statusCode, `${route.method} ${route.path}`).toBe(401);
      }
  });

  it('secret routes answer a wrong secret with 404, never a 2xx', async () => {
    for (const route of RAW_ROUTES.filter((r) => r.access === 'secret')) {
      const res = await t.app.inject({
        method: route.method,
        url: route.probe.path,
        ...(route.probe.body ? { payload: route.probe.body as object } : {}),
      });
      expect(res.statusCode, `${route.method} ${route.path}`).toBe(404);
    }
  });

  it('device routes answer an unknown device with 404, never a 2xx', async () => {
    for (const route of RAW_ROUTES.filter((r) => r.access === 'device')) {
      const res = await t.app.inject({
        method: route.method,
        url: route.probe.path,
        ...(route.probe.body ? { payload: route.probe.body as object } : {}),
      });
      expect(res.statusCode, `${route.method} ${route.path}`).toBe(404);
    }
  });
});
