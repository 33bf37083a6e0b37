import { describe, expect, it } from 'vitest';
import { homeForRole, isRouteAllowed } from './roles';

describe('homeForRole', () => {
  it.each([
    ['CUSTOMER', '/customer'],
    ['DRIVER', '/driver'],
    ['FUEL', '/fuel'],
    ['OPS', '/ops'],
    ['ADMIN', '/ops'],
    ['SOMETHING_ELSE', '/ops'],
  ])('%s lands on %s', (role, home) => expect(homeForRole(role)).toBe(home));
});

describe('isRouteAllowed', () => {
  it.each([
    ['/', null, 'ok'],
    ['/articles', null, 'ok'],
    ['/login', 'ADMIN', 'ok'],
    ['/order', null, 'login'],
    ['/order', 'CUSTOMER', 'ok'],
    ['/order', 'ADMIN', 'home'],
    ['/customer', 'CUSTOMER', 'ok'],
    ['/customer', 'OPS', 'home'],
    ['/ops', 'ADMIN', 'ok'],
    ['/ops', 'OPS', 'ok'],
    ['/ops', 'CUSTOMER', 'home'],
    ['/ops', null, 'login'],
    ['/driver', 'DRIVER', 'ok'],
    ['/driver', 'ADMIN', 'ok'],
    ['/driver', 'OPS', 'home'],
    ['/fuel', 'FUEL', 'ok'],
    ['/fuel', 'OPS', 'ok'],
    ['/fuel', 'ADMIN', 'ok'],
    ['/fuel', 'DRIVER', 'home'],
  ] as const)('%s for %s → %s', (route, role, expected) =>
    expect(isRouteAllowed(route, role)).toBe(expected),
  );
});
