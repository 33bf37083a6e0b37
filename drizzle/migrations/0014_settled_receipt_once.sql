DROP INDEX "payments_unmatched_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "payments_settled_receipt_key" ON "payments" USING btree (upper("reference")) WHERE "payments"."status" = 'CONFIRMED' and "payments"."method" in ('MPESA', 'M-Pesa paybill');--> statement-breakpoint
CREATE INDEX "payments_unmatched_idx" ON "payments" USING btree ("id") WHERE "payments"."order_id" is null;