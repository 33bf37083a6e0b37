import type { DbOrTx } from '../../drizzle/db';
import { toCents } from '../../shared/domain/money';
import {
  ACCOUNT_MESSAGES,
  type TAccountPayment,
  type TAccountPaymentInput,
} from '../../shared/schemas/accounts';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { appError } from '../errors';
import * as pq from '../payments/payments.queries';
import { settleAccountPayment } from '../payments/settlement';
import * as q from './accounts.queries';
import { describePayment, lockExistingAccount, requireCustomer } from './accounts.service';

/**
 * A payment ops confirm by hand on an account (a bank transfer seen on the statement, an M-Pesa receipt
 * checked): recorded once per reference, confirmed and allocated through the one settlement.
 */
export async function recordAccountPayment(
  db: DbOrTx,
  admin: CtxUser,
  input: TAccountPaymentInput,
  now: Date,
): Promise<TAccountPayment> {
  await requireCustomer(db, input.id);
  const id = await db.transaction(async (tx) => {
    await lockExistingAccount(tx, input.id);
    if (await q.paymentByAccountReference(tx, input.id, input.reference))
      throw appError('CONFLICT', ACCOUNT_MESSAGES.referenceUsed);
    if (input.invoiceId !== undefined) {
      const r = await q.lockReceivable(tx, input.invoiceId);
      if (!r || r.customerId !== input.id) throw appError('BAD_REQUEST', ACCOUNT_MESSAGES.invoiceNotFound);
    }
    const payment = await pq.insertPaymentOnce(tx, {
      orderId: null,
      accountCustomerId: input.id,
      method: input.method,
      reference: input.reference,
      message: input.note ?? null,
      status: 'SUBMITTED',
      source: 'OPS',
      amountCents: toCents(input.amount),
      paidAt: input.paidAt ? new Date(input.paidAt) : now,
      submittedById: admin.id,
      namedInvoiceId: input.invoiceId ?? null,
      createdAt: now,
      updatedAt: now,
    });
    // Another payment holds this M-Pesa receipt (or this reference) already.
    if (!payment) throw appError('CONFLICT', ACCOUNT_MESSAGES.referenceUsed);
    await settleAccountPayment(tx, input.id, payment, now, {
      reviewedById: admin.id,
      reviewedAt: now,
      reviewNote: input.note ?? null,
    });
    await recordChange(tx, {
      entity: 'payment',
      entityId: payment.id,
      after: {
        customerId: input.id,
        method: input.method,
        reference: input.reference,
        amount: input.amount,
        invoiceId: input.invoiceId ?? null,
      },
    });
    return payment.id;
  });
  return describePayment(db, id);
}
