CREATE TABLE "mpesa_callbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"body" text NOT NULL,
	"source_ip" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"ref" text,
	"outcome" text,
	"error" text,
	CONSTRAINT "mpesa_callbacks_kind_check" CHECK ("mpesa_callbacks"."kind" in ('STK','C2B_VALIDATION','C2B_CONFIRMATION','STK_QUERY'))
);
--> statement-breakpoint
CREATE TABLE "mpesa_stk_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"checkout_request_id" text NOT NULL,
	"merchant_request_id" text,
	"amount_cents" bigint NOT NULL,
	"part" integer DEFAULT 1 NOT NULL,
	"parts" integer DEFAULT 1 NOT NULL,
	"phone_masked" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"result_code" text,
	"result_desc" text,
	"requested_by_id" integer,
	"resolved_at" timestamp with time zone,
	"queried_at" timestamp with time zone,
	"query_count" integer DEFAULT 0 NOT NULL,
	"query_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mpesa_stk_requests_status_check" CHECK ("mpesa_stk_requests"."status" in ('PENDING','PAID','FAILED')),
	CONSTRAINT "mpesa_stk_requests_amount_check" CHECK ("mpesa_stk_requests"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "source" text DEFAULT 'CUSTOMER' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_cents" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "mpesa_receipt" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checkout_request_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "account_ref" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payer_name" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payer_phone" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "credit_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "matched_by_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "matched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mpesa_stk_requests" ADD CONSTRAINT "mpesa_stk_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mpesa_stk_requests" ADD CONSTRAINT "mpesa_stk_requests_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mpesa_callbacks_pending_idx" ON "mpesa_callbacks" USING btree ("received_at") WHERE "mpesa_callbacks"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "mpesa_callbacks_ref_idx" ON "mpesa_callbacks" USING btree ("ref");--> statement-breakpoint
CREATE UNIQUE INDEX "mpesa_stk_requests_checkout_key" ON "mpesa_stk_requests" USING btree ("checkout_request_id");--> statement-breakpoint
CREATE INDEX "mpesa_stk_requests_order_idx" ON "mpesa_stk_requests" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "mpesa_stk_requests_pending_idx" ON "mpesa_stk_requests" USING btree ("created_at") WHERE "mpesa_stk_requests"."status" = 'PENDING';--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_matched_by_id_users_id_fk" FOREIGN KEY ("matched_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_mpesa_receipt_key" ON "payments" USING btree ("mpesa_receipt") WHERE "payments"."mpesa_receipt" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_checkout_request_key" ON "payments" USING btree ("checkout_request_id") WHERE "payments"."checkout_request_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_unmatched_idx" ON "payments" USING btree ("created_at") WHERE "payments"."order_id" is null;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_source_check" CHECK ("payments"."source" in ('CUSTOMER','OPS','MPESA_C2B','MPESA_STK'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_check" CHECK ("payments"."amount_cents" is null or "payments"."amount_cents" > 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_credit_check" CHECK ("payments"."credit_cents" >= 0);--> statement-breakpoint
UPDATE "payments" SET "source" = 'OPS' FROM "users" WHERE "users"."id" = "payments"."submitted_by_id" AND "users"."role" <> 'CUSTOMER';
