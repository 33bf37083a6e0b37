CREATE TABLE "ai_insights" (
	"id" serial PRIMARY KEY NOT NULL,
	"insights" text NOT NULL,
	"alerts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"generator" text NOT NULL,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_key" text NOT NULL,
	"recipient_id" integer NOT NULL,
	"chat_id" text,
	"text" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"topic" text,
	"summary" text,
	"body" text,
	"image_url" text,
	"for_date" date,
	"generator" text DEFAULT 'rules' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "costs" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"truck_id" text,
	"amount_cents" bigint NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"incurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"duplicate_of" integer,
	"source" text DEFAULT 'MANUAL' NOT NULL,
	"stock_tx_id" integer,
	"is_duplicate" boolean DEFAULT false NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmed_by_id" integer,
	"created_by_id" integer,
	"reviewed_by_id" integer,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"voided_by_id" integer,
	"voided_at" timestamp with time zone,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "costs_amount_check" CHECK ("costs"."amount_cents" > 0),
	CONSTRAINT "costs_type_check" CHECK ("costs"."type" in ('FUEL','SALARY','REPAIR','MAINTENANCE','LOADING','OFFLOADING','STOCK_PURCHASE','OTHER'))
);
--> statement-breakpoint
CREATE TABLE "finance_daily" (
	"day" date NOT NULL,
	"truck_id" text DEFAULT '' NOT NULL,
	"loads" integer DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "finance_daily_day_truck_id_pk" PRIMARY KEY("day","truck_id")
);
--> statement-breakpoint
CREATE TABLE "fuel_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"truck_id" text NOT NULL,
	"litres" numeric(10, 2),
	"odometer" numeric(12, 1),
	"cost_cents" bigint NOT NULL,
	"note" text,
	"captured_at" timestamp with time zone NOT NULL,
	"photo_path" text,
	"driver_id" text,
	"duplicate_of" integer,
	"cost_id" integer,
	"is_duplicate" boolean DEFAULT false NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmed_by_id" integer,
	"created_by_id" integer,
	"reviewed_by_id" integer,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"voided_by_id" integer,
	"voided_at" timestamp with time zone,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fuel_logs_litres_check" CHECK ("fuel_logs"."litres" is null or "fuel_logs"."litres" >= 0),
	CONSTRAINT "fuel_logs_odometer_check" CHECK ("fuel_logs"."odometer" is null or "fuel_logs"."odometer" >= 0),
	CONSTRAINT "fuel_logs_cost_check" CHECK ("fuel_logs"."cost_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"method" text NOT NULL,
	"reference" text NOT NULL,
	"message" text,
	"status" text DEFAULT 'SUBMITTED' NOT NULL,
	"submitted_by_id" integer,
	"reviewed_by_id" integer,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pricing_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"base_price_cents" bigint DEFAULT 3200000 NOT NULL,
	"base_distance_km" numeric(8, 2) DEFAULT 15 NOT NULL,
	"increment_km" numeric(8, 2) DEFAULT 5 NOT NULL,
	"increment_amount_cents" bigint DEFAULT 100000 NOT NULL,
	"updated_by_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pricing_settings_singleton" CHECK ("pricing_settings"."id" = 1),
	CONSTRAINT "pricing_settings_positive" CHECK ("pricing_settings"."base_price_cents" > 0 and "pricing_settings"."increment_km" > 0 and "pricing_settings"."increment_amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"trucks" numeric(10, 2) NOT NULL,
	"tonnes" numeric(12, 2) NOT NULL,
	"category" text NOT NULL,
	"truck_id" text,
	"reason" text,
	"cost_per_tonne_cents" bigint,
	"assignment_id" integer,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_tx_kind_check" CHECK ("stock_transactions"."kind" in ('RECEIPT','DELIVERY','ADJUSTMENT')),
	CONSTRAINT "stock_tx_category_check" CHECK ("stock_transactions"."category" in ('coarse','smooth'))
);
--> statement-breakpoint
CREATE TABLE "truck_latest" (
	"truck_id" text PRIMARY KEY NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"speed_kmh" double precision,
	"heading" double precision,
	"address" text,
	"status" text,
	"fix_time" timestamp with time zone NOT NULL,
	"last_moved_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "truck_positions" (
	"device_id" text NOT NULL,
	"fix_time" timestamp with time zone NOT NULL,
	"truck_id" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"speed_kmh" double precision,
	"heading" double precision,
	"altitude" double precision,
	"accuracy" double precision,
	"battery" double precision,
	"attributes" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "truck_positions_device_id_fix_time_pk" PRIMARY KEY("device_id","fix_time")
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "in_transit_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "created_by_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "price_overridden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trucks" ADD COLUMN "device_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "telegram_chat_id" text;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_stock_tx_id_stock_transactions_id_fk" FOREIGN KEY ("stock_tx_id") REFERENCES "public"."stock_transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_confirmed_by_id_users_id_fk" FOREIGN KEY ("confirmed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_reviewed_by_id_users_id_fk" FOREIGN KEY ("reviewed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_voided_by_id_users_id_fk" FOREIGN KEY ("voided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_logs" ADD CONSTRAINT "fuel_logs_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_logs" ADD CONSTRAINT "fuel_logs_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_logs" ADD CONSTRAINT "fuel_logs_cost_id_costs_id_fk" FOREIGN KEY ("cost_id") REFERENCES "public"."costs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_logs" ADD CONSTRAINT "fuel_logs_confirmed_by_id_users_id_fk" FOREIGN KEY ("confirmed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_logs" ADD CONSTRAINT "fuel_logs_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_logs" ADD CONSTRAINT "fuel_logs_reviewed_by_id_users_id_fk" FOREIGN KEY ("reviewed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_logs" ADD CONSTRAINT "fuel_logs_voided_by_id_users_id_fk" FOREIGN KEY ("voided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_submitted_by_id_users_id_fk" FOREIGN KEY ("submitted_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reviewed_by_id_users_id_fk" FOREIGN KEY ("reviewed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pricing_settings" ADD CONSTRAINT "pricing_settings_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transactions" ADD CONSTRAINT "stock_transactions_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transactions" ADD CONSTRAINT "stock_transactions_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transactions" ADD CONSTRAINT "stock_transactions_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "truck_latest" ADD CONSTRAINT "truck_latest_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "truck_positions" ADD CONSTRAINT "truck_positions_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_event_recipient_key" ON "alert_deliveries" USING btree ("event_key","recipient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "articles_for_date_key" ON "articles" USING btree ("for_date");--> statement-breakpoint
CREATE INDEX "articles_created_idx" ON "articles" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "costs_incurred_idx" ON "costs" USING btree ("incurred_at");--> statement-breakpoint
CREATE INDEX "costs_truck_incurred_idx" ON "costs" USING btree ("truck_id","incurred_at");--> statement-breakpoint
CREATE INDEX "costs_duplicate_idx" ON "costs" USING btree ("is_duplicate") WHERE "costs"."is_duplicate";--> statement-breakpoint
CREATE INDEX "fuel_logs_truck_captured_idx" ON "fuel_logs" USING btree ("truck_id","captured_at");--> statement-breakpoint
CREATE INDEX "fuel_logs_captured_idx" ON "fuel_logs" USING btree ("captured_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_order_reference_key" ON "payments" USING btree ("order_id",lower("reference"));--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_tx_assignment_key" ON "stock_transactions" USING btree ("assignment_id");--> statement-breakpoint
CREATE INDEX "stock_tx_created_idx" ON "stock_transactions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "truck_positions_truck_fix_idx" ON "truck_positions" USING btree ("truck_id","fix_time");--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trucks_device_key" ON "trucks" USING btree ("device_id");--> statement-breakpoint
INSERT INTO "pricing_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
