CREATE TABLE "account_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"cents" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "account_allocations_cents_check" CHECK ("account_allocations"."cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "customer_accounts" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"credit_limit_cents" bigint NOT NULL,
	"terms_days" integer NOT NULL,
	"kra_pin" text,
	"billing_email" text,
	"billing_phone" text,
	"overdue_notified_on" date,
	"updated_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_accounts_limit_check" CHECK ("customer_accounts"."credit_limit_cents" >= 0),
	CONSTRAINT "customer_accounts_terms_check" CHECK ("customer_accounts"."terms_days" between 0 and 365),
	CONSTRAINT "customer_accounts_pin_check" CHECK ("customer_accounts"."kra_pin" ~ '^[AP][0-9]{9}[A-Z]$')
);
--> statement-breakpoint
CREATE TABLE "receivables" (
	"invoice_id" integer PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"order_id" integer,
	"issued_at" timestamp with time zone NOT NULL,
	"due_date" date NOT NULL,
	"total_cents" bigint NOT NULL,
	"credited_cents" bigint DEFAULT 0 NOT NULL,
	"allocated_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receivables_total_check" CHECK ("receivables"."total_cents" > 0),
	CONSTRAINT "receivables_parts_check" CHECK ("receivables"."credited_cents" >= 0 and "receivables"."allocated_cents" >= 0 and "receivables"."credited_cents" + "receivables"."allocated_cents" <= "receivables"."total_cents")
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "override_credit_limit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "credit_override_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "on_terms" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "account_customer_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "unallocated_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "named_invoice_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reversed_by_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reverse_reason" text;--> statement-breakpoint
ALTER TABLE "account_allocations" ADD CONSTRAINT "account_allocations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_allocations" ADD CONSTRAINT "account_allocations_invoice_id_receivables_invoice_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."receivables"("invoice_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_accounts" ADD CONSTRAINT "customer_accounts_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_accounts" ADD CONSTRAINT "customer_accounts_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivables" ADD CONSTRAINT "receivables_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivables" ADD CONSTRAINT "receivables_customer_id_customer_accounts_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer_accounts"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivables" ADD CONSTRAINT "receivables_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_allocations_payment_idx" ON "account_allocations" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "account_allocations_invoice_idx" ON "account_allocations" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "receivables_customer_idx" ON "receivables" USING btree ("customer_id","issued_at");--> statement-breakpoint
CREATE INDEX "receivables_open_idx" ON "receivables" USING btree ("customer_id","due_date") WHERE "receivables"."total_cents" > "receivables"."credited_cents" + "receivables"."allocated_cents";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_customer_id_customer_accounts_customer_id_fk" FOREIGN KEY ("account_customer_id") REFERENCES "public"."customer_accounts"("customer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_named_invoice_id_invoices_id_fk" FOREIGN KEY ("named_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reversed_by_id_users_id_fk" FOREIGN KEY ("reversed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_account_idx" ON "payments" USING btree ("account_customer_id") WHERE "payments"."account_customer_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_account_reference_key" ON "payments" USING btree ("account_customer_id",lower("reference")) WHERE "payments"."account_customer_id" is not null and "payments"."order_id" is null;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_unallocated_check" CHECK ("payments"."unallocated_cents" >= 0);