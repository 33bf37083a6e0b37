import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../shared/roles';
import type { SignedIn, TestApp } from './helpers';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
/** A REST route (path filled in) and the roles it lets through. */
export type RoleRoute = [Method, string, Role[]];

/**
 * The role matrix of a feature's REST routes over HTTP: anonymous callers get 401 and every role outside
 * the route's list 403, before any input is looked at; the listed roles pass the gate (whatever their
 * empty body then earns).
 */
export function describeRoleMatrix(name: string, app: () => TestApp, routes: RoleRoute[]) {
  describe(`${name}: role matrix`, () => {
    const who = {} as Record<Role, SignedIn>;
    beforeAll(async () => {
      for (const role of ROLES) who[role] = await app().signIn(role);
    });
    const send = (method: Method, url: string, signedIn: SignedIn | null) =>
      app().call(method, url, signedIn, method === 'GET' ? undefined : {});

    it.each(routes)('%s %s refuses anonymous callers with 401', async (method, url) => {
      const res = await send(method, url, null);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toHaveProperty('error');
    });

    it.each(routes)('%s %s refuses roles outside %j with 403', async (method, url, allowed) => {
      for (const role of ROLES.filter((r) => !allowed.includes(r))) {
        const res = await send(method, url, who[role]);
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
        expect(res.json()).toHaveProperty('error');
      }
    });

    it.each(routes)('%s %s lets %j through the role gate', async (method, url, allowed) => {
      for (const role of allowed) {
        const res = await send(method, url, who[role]);
        expect([200, 201, 400, 404, 409], `${role} ${method} ${url}`).toContain(res.statusCode);
      }
    });
  });
}
