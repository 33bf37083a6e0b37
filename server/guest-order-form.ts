/**
 * The landing page's "Place order" without JavaScript (a phone whose browser is too old for the app's
 * script, or has it off): the pre-rendered form posts here (`method="post"`, never a GET that would put
 * the customer's name, phone and e-mail into the URL). The same procedure as the app's call
 * (`orders.createGuest`: validation, rate limits, the one placeOrder) places the order, and the answer is a
 * plain page: the order with its number, total, account number, tracking link and delivery code, or the
 * errors with the way back to the form.
 */
import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { mpesaOptions } from '../core/mpesa/mpesa.service';
import { formatMoney } from '../shared/domain/format';
import type { TGuestOrderResult } from '../shared/schemas/orders';
import type { AppDeps } from './context';
import { createRequestContext } from './context';
import { toHttpError } from './errors';
import { createCaller } from './router';

export const GUEST_ORDER_FORM_PATH = '/order/guest';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Mchanga</title>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`;
}

type Fields = Record<string, string | undefined>;

/** The form's fields as the call's input, as the app's form builds it (GuestOrderForm's toInput). */
export function guestInputOf(f: Fields) {
  const text = (k: string) => (f[k] ?? '').trim();
  const wantsLogin = f.wantsLogin !== undefined;
  return {
    site: text('site'),
    sandType: text('sandType') || 'coarse',
    trucks: Number(text('trucks') || '1'),
    distanceKm: text('distance') === '' ? undefined : text('distance'),
    name: text('name'),
    phone: text('phone'),
    email: text('email'),
    dateNeeded: text('dateNeeded'),
    ...(f.overnightPour !== undefined ? { overnightPour: true } : {}),
    account: wantsLogin ? { password: f.password ?? '', confirmPassword: f.confirm ?? '' } : undefined,
  };
}

function orderPage(order: TGuestOrderResult, paybill: string | null): string {
  const rows: Array<[string, string]> = [
    ['Total', formatMoney(order.total)],
    ['Trucks', `${order.truckCount} × 20 t, ${formatMoney(order.perTruck)} each`],
    ['Account number', order.accountRef],
  ];
  if (paybill) rows.push(['M-Pesa paybill', paybill]);
  if (order.deliveryCode)
    rows.push(['Delivery code', `${order.deliveryCode} (give it to the driver at your site)`]);
  const list = rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n');
  const tracking = order.trackingUrl
    ? `<p><a href="${escapeHtml(order.trackingUrl)}">Track this order</a> (keep this link: it shows your order and its trucks).</p>`
    : '';
  return page(
    `Order #${order.id} received`,
    `<p>Thank you! Your order is in. Status: Awaiting Payment.</p>
<dl>
${list}
</dl>
<p>Pay with the M-Pesa paybill or a bank, quoting the account number ${escapeHtml(order.accountRef)}.</p>
${tracking}
<p><a href="/">Back to the order page</a></p>`,
  );
}

function errorPage(message: string): string {
  return page(
    'Your order was not placed',
    `<p role="alert">${escapeHtml(message)}</p>
<p><a href="/">Back to the order form</a> (use your browser's back button to keep what you typed).</p>`,
  );
}

export function registerGuestOrderForm(app: FastifyInstance, deps: AppDeps) {
  app.register(async (scope) => {
    // Only this route takes a plain HTML form's body.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    scope.post(GUEST_ORDER_FORM_PATH, async (req, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const fields = (req.body && typeof req.body === 'object' ? req.body : {}) as Fields;
      const ctx = await createRequestContext(deps, req, reply);
      try {
        const order = await createCaller(ctx).orders.createGuest(guestInputOf(fields) as never);
        const { paybill } = mpesaOptions(deps.settings);
        return reply.code(201).send(orderPage(order, paybill));
      } catch (err) {
        const http = toHttpError(
          err instanceof ZodError ? new TRPCError({ code: 'BAD_REQUEST', cause: err }) : err,
        );
        for (const [k, v] of Object.entries(http.headers)) reply.header(k, v);
        return reply.code(http.status).send(errorPage(http.body.error));
      }
    });
  });
}
