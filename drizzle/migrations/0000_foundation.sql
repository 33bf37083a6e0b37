CREATE TABLE "assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"truck_id" text NOT NULL,
	"driver_id" text,
	"tonnes" numeric(8, 2) DEFAULT 20 NOT NULL,
	"scheduled_at" timestamp with time zone,
	"status" text DEFAULT 'SCHEDULED' NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assignments_tonnes_check" CHECK ("assignments"."tonnes" > 0),
	CONSTRAINT "assignments_status_check" CHECK ("assignments"."status" in ('SCHEDULED','IN_TRANSIT','DELIVERED','CANCELLED'))
);
--> statement-breakpoint
CREATE TABLE "drivers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"national_id_path" text,
	"photo_path" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer,
	"created_by_id" integer,
	"name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"site" text NOT NULL,
	"sand_type" text NOT NULL,
	"trucks" integer NOT NULL,
	"per_truck_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"distance_km" numeric(8, 2) NOT NULL,
	"distance_source" text NOT NULL,
	"date_needed" date,
	"status" text DEFAULT 'AWAITING_PAYMENT' NOT NULL,
	"payment_status" text DEFAULT 'PENDING' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_trucks_check" CHECK ("orders"."trucks" between 1 and 20),
	CONSTRAINT "orders_sand_type_check" CHECK ("orders"."sand_type" in ('coarse','smooth')),
	CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('AWAITING_PAYMENT','PAYMENT_REVIEW','RECEIVED','IN_TRANSIT','DELIVERED','CANCELLED')),
	CONSTRAINT "orders_payment_status_check" CHECK ("orders"."payment_status" in ('PENDING','SUBMITTED','CONFIRMED','REJECTED'))
);
--> statement-breakpoint
CREATE TABLE "trucks" (
	"id" text PRIMARY KEY NOT NULL,
	"plate" text NOT NULL,
	"capacity_t" numeric(8, 2) DEFAULT 20 NOT NULL,
	"primary_driver_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trucks_capacity_check" CHECK ("trucks"."capacity_t" >= 1)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"role" text NOT NULL,
	"driver_id" text,
	"password_hash" text NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('ADMIN','OPS','DRIVER','FUEL','CUSTOMER'))
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"transport" text NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trucks" ADD CONSTRAINT "trucks_primary_driver_id_drivers_id_fk" FOREIGN KEY ("primary_driver_id") REFERENCES "public"."drivers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assignments_order_idx" ON "assignments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "assignments_truck_idx" ON "assignments" USING btree ("truck_id");--> statement-breakpoint
CREATE INDEX "assignments_driver_idx" ON "assignments" USING btree ("driver_id");--> statement-breakpoint
CREATE INDEX "assignments_delivered_idx" ON "assignments" USING btree ("delivered_at") WHERE "assignments"."status" = 'DELIVERED';--> statement-breakpoint
CREATE INDEX "orders_customer_created_idx" ON "orders" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "trucks_primary_driver_idx" ON "trucks" USING btree ("primary_driver_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));