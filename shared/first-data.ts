/**
 * The first data request of a staff screen, started by the HTML before the app code (issue 28).
 *
 * Without it a cold load of /fuel downloads and runs the entry, the API layer and the screen's chunk, and
 * only then asks for its data: a round trip after everything else on a slow phone. The token is in
 * localStorage, so a `<link rel="preload">` cannot carry it (and no API call accepts a cookie, which would
 * be a credential for CSRF to worry about); instead a small inline script in the HTML the server sends
 * for the staff routes reads the stored session, starts the screen's first batch with `fetch()` and
 * leaves the promise on `window`. The app's tRPC client adopts the answer for the calls it asks for next
 * (client/first-data.ts) and fetches any others. The script is the same text on every page, so the
 * content security policy allows it by its hash (server/app.ts), not with 'unsafe-inline'.
 *
 * A page request that carries the screen cookie (shared/screen-cookie.ts) gets the screen drawn with
 * these same calls' answers instead (server/screen-html.ts), and no script: this is the way in for a
 * device whose cookie is missing (blocked, or a session kept before the cookie existed, until the app
 * has started once).
 */

import { OPS_WORKSPACE_TABS } from './roles';
import { ACTIVITY_PAGE } from './schemas/activity';
import { TRIP_PROFIT_PAGE } from './schemas/trip-profit';

/** One tRPC call: its procedure and input (none for most first calls). */
export interface FirstCall {
  path: string;
  input?: unknown;
}

/** A screen's first batch for one role, the way its first render asks for it. */
export interface FirstData {
  /** A regular expression source matched against `location.pathname`. */
  route: string;
  role: string;
  calls: FirstCall[];
}

/** Each workspace tab's first calls; ADMIN's also ask for the Telegram panel's notifications. */
const ADMIN_TABS: Record<string, FirstCall[]> = {
  orders: [
    { path: 'admin.payments.unreconciled' },
    { path: 'admin.orders.list' },
    { path: 'admin.trucks.list' },
    { path: 'admin.drivers.list' },
  ],
  trucks: [{ path: 'admin.trucks.list' }, { path: 'admin.drivers.list' }],
  drivers: [{ path: 'admin.users.list' }, { path: 'admin.drivers.list' }],
  stock: [{ path: 'admin.stock.get' }, { path: 'admin.stock.transactions' }, { path: 'admin.trucks.list' }],
  costs: [{ path: 'admin.trucks.list' }, { path: 'admin.costs.list' }],
  // Without dates: the last 30 days in the business time zone, as the tab first asks for them.
  finance: [
    { path: 'admin.finance.summary' },
    { path: 'admin.finance.timeseries' },
    { path: 'admin.finance.truckBreakdown' },
    { path: 'admin.finance.costMix' },
    { path: 'admin.finance.trips.list', input: { limit: TRIP_PROFIT_PAGE } },
    { path: 'admin.invoices.list' },
    { path: 'admin.accounts.receivables' },
  ],
  audit: [
    { path: 'fuel.anomalies.list', input: { status: 'open', limit: 400 } },
    { path: 'admin.audit.list', input: { limit: 400 } },
    { path: 'admin.trucks.list' },
  ],
  trips: [{ path: 'admin.trips.report', input: { days: 7, by: 'truck' } }],
  fleet: [{ path: 'telemetry.trucks' }, { path: 'telemetry.mapConfig' }, { path: 'admin.drivers.list' }],
  ai: [{ path: 'admin.backups.status' }, { path: 'admin.ai.insights' }],
  activity: [
    { path: 'admin.activity.list', input: { limit: ACTIVITY_PAGE } },
    { path: 'admin.activity.filters' },
  ],
};

/**
 * The first batch of each staff screen, in the order the screen's first render asks for it (checked
 * against the real screens in e2e/load-path.e2e.ts). A screen that asks for something else (a new
 * query) still works: the adopted calls come from here, the others from the network.
 */
export const FIRST_DATA: FirstData[] = [
  {
    route: '^/ops(/overview)?/?$',
    role: 'ADMIN',
    calls: [{ path: 'admin.dashboard.get' }, { path: 'admin.notifications.list' }],
  },
  ...Object.entries(ADMIN_TABS).map(([tab, calls]) => ({
    route: `^/ops/${tab}/?$`,
    role: 'ADMIN',
    calls: [...calls, { path: 'admin.notifications.list' }],
  })),
  // OPS opens on its first tab (stock); its tabs have no Telegram panel.
  ...OPS_WORKSPACE_TABS.map((tab, i) => ({
    route: i === 0 ? `^/ops(/${tab})?/?$` : `^/ops/${tab}/?$`,
    role: 'OPS',
    calls: ADMIN_TABS[tab]!,
  })),
  {
    route: '^/driver/?$',
    role: 'DRIVER',
    calls: [{ path: 'driver.dashboard' }, { path: 'admin.trips.mine', input: { days: 7 } }],
  },
  {
    route: '^/fuel/?$',
    role: 'FUEL',
    calls: [
      { path: 'telemetry.trucks' },
      { path: 'telemetry.mapConfig' },
      { path: 'fuel.list', input: { limit: 50 } },
      { path: 'admin.trucks.list' },
    ],
  },
  // The order form: the price list for its quote, and the customer's orders (one still waiting for a
  // payment takes steps 2 and 3 after a reload) with the paybill.
  {
    route: '^/order/?$',
    role: 'CUSTOMER',
    calls: [{ path: 'pricing.get' }, { path: 'orders.my' }, { path: 'mpesa.options' }],
  },
  {
    route: '^/customer/?$',
    role: 'CUSTOMER',
    calls: [
      { path: 'customers.mine' },
      { path: 'orders.my' },
      { path: 'pricing.get' },
      { path: 'mpesa.options' },
    ],
  },
];

/** The first batch of the screen at `pathname` for `role`, as the inline script picks it; undefined for none. */
export function firstDataFor(
  role: string,
  pathname: string,
  table: readonly FirstData[] = FIRST_DATA,
): FirstData | undefined {
  return table.find((e) => e.role === role && new RegExp(e.route).test(pathname));
}

/** What the inline script leaves on `window.__mchangaFirstData`. */
export interface PrefetchedFirstData {
  url: string;
  /** The `authorization` header it was sent with: adopted only by a call carrying the same. */
  authorization: string;
  calls: FirstCall[];
  /** `performance.now()` when it started: an answer older than FIRST_DATA_MAX_AGE_MS is not adopted. */
  startedAt: number;
  /** The batch's JSON answer, or null when the request failed. */
  response: Promise<unknown>;
}

export const FIRST_DATA_MAX_AGE_MS = 10_000;

/** The URL of a tRPC GET batch (httpBatchLink's format: inputs by index, calls without one left out). */
export function batchUrl(calls: readonly FirstCall[]): string {
  const inputs: Record<number, unknown> = {};
  calls.forEach((c, i) => {
    if (c.input !== undefined) inputs[i] = c.input;
  });
  return `/trpc/${calls.map((c) => c.path).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
}

/**
 * The inline script (plain ES5, no dependencies; it runs before any module). Skips a device without a
 * session, one whose session may only open the password screen, and any screen or role not in the table.
 * A failed request leaves null: the app then asks again itself.
 */
export function firstDataScript(table: readonly FirstData[] = FIRST_DATA): string {
  return `(function(table){try{var s=window.localStorage,t=s.getItem('token'),r=s.getItem('role'),m=s.getItem('mustChangePassword');if(!t||!r||(m&&m!=='false')||!window.fetch)return;for(var i=0;i<table.length;i++){var e=table[i];if(e.role!==r||!new RegExp(e.route).test(location.pathname))continue;var q={};for(var j=0;j<e.calls.length;j++)if(e.calls[j].input!==undefined)q[j]=e.calls[j].input;var u='/trpc/'+e.calls.map(function(c){return c.path}).join(',')+'?batch=1&input='+encodeURIComponent(JSON.stringify(q)),a='Bearer '+t;window.__mchangaFirstData={url:u,authorization:a,calls:e.calls,startedAt:performance.now(),response:fetch(u,{headers:{authorization:a}}).then(function(x){return x.json()}).catch(function(){return null})};return}}catch(x){}})(${JSON.stringify(table)});`;
}
