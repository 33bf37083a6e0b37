import type { RestRoute } from '../../rest-types';

export const authRest: RestRoute[] = [
  {
    method: 'POST',
    path: '/api/auth/register',
    procedure: 'auth.register',
    summary: 'Register a customer account',
    status: 201,
  },
  { method: 'POST', path: '/api/auth/login', procedure: 'auth.login', summary: 'Sign in' },
  { method: 'GET', path: '/api/auth/me', procedure: 'auth.me', summary: 'The signed-in user' },
  {
    method: 'POST',
    path: '/api/auth/logout-all',
    procedure: 'auth.logoutAll',
    summary: 'Sign out on every device',
  },
  {
    method: 'POST',
    path: '/api/auth/password',
    procedure: 'auth.changePassword',
    summary: 'Change password (revokes other sessions)',
  },
];
