CREATE TABLE "etims_branches" (
	"id" text PRIMARY KEY NOT NULL,
	"tin" text,
	"bhf_id" text,
	"device_serial" text,
	"enabled" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"vat_registered" boolean DEFAULT false NOT NULL,
	"next_invoice_no" integer DEFAULT 1 NOT NULL,
	"next_sar_no" integer DEFAULT 1 NOT NULL,
	"cmc_key" text,
	"sdc_id" text,
	"mrc_no" text,
	"dvc_id" text,
	"taxpayer_name" text,
	"kra_bhf_id" text,
	"kra_branch_name" text,
	"initialised_at" timestamp with time zone,
	"reference_fetched_at" timestamp with time zone,
	"item_class" text,
	"items_registered_at" timestamp with time zone,
	"status" text DEFAULT 'off' NOT NULL,
	"status_message" text,
	"status_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "etims_branches_status_check" CHECK ("etims_branches"."status" in ('off','ok','unreachable','credentials','device','blocked')),
	CONSTRAINT "etims_branches_counters_check" CHECK ("etims_branches"."next_invoice_no" >= 1 and "etims_branches"."next_sar_no" >= 1)
);
--> statement-breakpoint
CREATE TABLE "etims_reference" (
	"branch_id" text NOT NULL,
	"kind" text NOT NULL,
	"result_dt" text,
	"data" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "etims_reference_branch_id_kind_pk" PRIMARY KEY("branch_id","kind"),
	CONSTRAINT "etims_reference_kind_check" CHECK ("etims_reference"."kind" in ('codes','item_classes'))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"branch_id" text NOT NULL,
	"number" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"order_id" integer,
	"assignment_id" integer,
	"original_id" integer,
	"customer_id" integer,
	"customer_name" text NOT NULL,
	"customer_pin" text,
	"customer_phone" text,
	"payment_type" text NOT NULL,
	"reason_code" text,
	"note" text,
	"lines" jsonb NOT NULL,
	"tax_type" text NOT NULL,
	"total_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"tonnes" numeric(10, 2) NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"created_by_id" integer,
	"kra_result_code" text,
	"kra_result_message" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"receipt_no" text,
	"total_receipt_no" text,
	"internal_data" text,
	"receipt_signature" text,
	"sdc_date_time" text,
	"sdc_id" text,
	"mrc_no" text,
	"stock_status" text DEFAULT 'none' NOT NULL,
	"stock_tonnes" numeric(10, 2) DEFAULT 0 NOT NULL,
	"stock_sar_no" integer,
	"stock_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('S','R')),
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" in ('off','pending','sent','signed','failed')),
	CONSTRAINT "invoices_source_check" CHECK ("invoices"."source" in ('order','load')),
	CONSTRAINT "invoices_stock_status_check" CHECK ("invoices"."stock_status" in ('none','pending','done','failed')),
	CONSTRAINT "invoices_number_check" CHECK ("invoices"."number" >= 1),
	CONSTRAINT "invoices_total_check" CHECK ("invoices"."total_cents" > 0 and "invoices"."tax_cents" >= 0),
	CONSTRAINT "invoices_credit_original_check" CHECK (("invoices"."kind" = 'R') = ("invoices"."original_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_pin" text;--> statement-breakpoint
ALTER TABLE "etims_reference" ADD CONSTRAINT "etims_reference_branch_id_etims_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."etims_branches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_branch_id_etims_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."etims_branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_original_id_invoices_id_fk" FOREIGN KEY ("original_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "etims_branches_active_key" ON "etims_branches" USING btree ("active") WHERE "etims_branches"."active";--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_branch_number_key" ON "invoices" USING btree ("branch_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_sale_key" ON "invoices" USING btree ("order_id") WHERE "invoices"."kind" = 'S' and "invoices"."source" = 'order';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_load_sale_key" ON "invoices" USING btree ("assignment_id") WHERE "invoices"."kind" = 'S' and "invoices"."source" = 'load';--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoices_original_idx" ON "invoices" USING btree ("original_id");--> statement-breakpoint
CREATE INDEX "invoices_customer_idx" ON "invoices" USING btree ("customer_id","issued_at");--> statement-breakpoint
CREATE INDEX "invoices_unsigned_idx" ON "invoices" USING btree ("branch_id","number") WHERE "invoices"."status" in ('pending','sent','failed');--> statement-breakpoint
CREATE INDEX "invoices_status_idx" ON "invoices" USING btree ("status","issued_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_pin_check" CHECK ("orders"."customer_pin" ~ '^[AP][0-9]{9}[A-Z]$');