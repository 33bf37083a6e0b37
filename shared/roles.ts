export const ROLES = ['ADMIN', 'OPS', 'DRIVER', 'FUEL', 'CUSTOMER'] as const;
export type Role = (typeof ROLES)[number];

/** Roles an ADMIN may create through POST /api/admin/users. Registration only ever creates CUSTOMER. */
export const STAFF_ROLES = ['OPS', 'DRIVER', 'FUEL'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Everyone who works in the business (the staff workspace, the device outbox): every role but CUSTOMER. */
export const EMPLOYEE_ROLES = ['ADMIN', 'OPS', 'DRIVER', 'FUEL'] as const satisfies readonly Role[];
export const isEmployee = (role: string | null | undefined) =>
  (EMPLOYEE_ROLES as readonly (string | null | undefined)[]).includes(role);

/** Who receives operational alerts (Telegram and the recorded list): active ADMIN and OPS users. */
export const ALERT_RECIPIENT_ROLES = ['ADMIN', 'OPS'] as const satisfies readonly Role[];

/**
 * The workspace tabs OPS has: stock, costs and fleet (spec section 2, Workspace); ADMIN has every tab.
 * OPS's workspace opens on the first. The screen (client/features/ops/tabs.ts), the first data its HTML
 * starts (shared/first-data.ts) and the build's page for a bare /ops (scripts/route-modules.ts) read it here.
 */
export const OPS_WORKSPACE_TABS = ['stock', 'costs', 'fleet'] as const;

/** Client routes and the roles allowed on each (spec section 2). `null` means public. */
export const ROUTE_ROLES = {
  '/': null,
  '/articles': null,
  '/login': null,
  '/register': null,
  '/order': ['CUSTOMER'],
  '/customer': ['CUSTOMER'],
  '/ops': ['ADMIN', 'OPS'],
  '/driver': ['DRIVER', 'ADMIN'],
  '/fuel': ['FUEL', 'ADMIN', 'OPS'],
  '/account/password': ROLES,
  '/forgot-password': null,
  '/reset-password': null,
} as const satisfies Record<string, readonly Role[] | null>;

export type AppRoute = keyof typeof ROUTE_ROLES;

/** Where a user lands after signing in (spec section 2, Login). */
export function homeForRole(role: string): '/customer' | '/driver' | '/fuel' | '/ops' {
  switch (role) {
    case 'CUSTOMER':
      return '/customer';
    case 'DRIVER':
      return '/driver';
    case 'FUEL':
      return '/fuel';
    default:
      return '/ops';
  }
}

export function isRouteAllowed(route: AppRoute, role: string | null): 'ok' | 'login' | 'home' {
  const allowed: readonly Role[] | null = ROUTE_ROLES[route];
  if (allowed === null) return 'ok';
  if (!role) return 'login';
  return (allowed as readonly string[]).includes(role) ? 'ok' : 'home';
}
