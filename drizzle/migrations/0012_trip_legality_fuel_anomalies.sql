CREATE TABLE "fuel_anomalies" (
	"id" serial PRIMARY KEY NOT NULL,
	"fuel_log_id" integer NOT NULL,
	"truck_id" text NOT NULL,
	"kind" text NOT NULL,
	"detail" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"reason" text,
	"reviewed_by_id" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fuel_anomalies_kind_check" CHECK ("fuel_anomalies"."kind" in ('ODOMETER_BACKWARDS','OVER_TANK_CAPACITY','CONSUMPTION_OUTLIER','ODOMETER_GPS_MISMATCH','TRUCK_MOVING')),
	CONSTRAINT "fuel_anomalies_status_check" CHECK ("fuel_anomalies"."status" in ('open','reviewed','dismissed'))
);
--> statement-breakpoint
CREATE TABLE "gross_limits" (
	"axles" integer PRIMARY KEY NOT NULL,
	"gross_t" numeric(8, 2) NOT NULL,
	"updated_by_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gross_limits_axles_check" CHECK ("gross_limits"."axles" in (2, 3, 4)),
	CONSTRAINT "gross_limits_gross_check" CHECK ("gross_limits"."gross_t" > 0)
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "override_legal_limit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "override_reason" text;--> statement-breakpoint
ALTER TABLE "costs" ADD COLUMN "assignment_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "overnight_pour" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trucks" ADD COLUMN "axles" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "trucks" ADD COLUMN "tare_t" numeric(8, 2);--> statement-breakpoint
ALTER TABLE "trucks" ADD COLUMN "tank_capacity_l" numeric(8, 1);--> statement-breakpoint
ALTER TABLE "fuel_anomalies" ADD CONSTRAINT "fuel_anomalies_fuel_log_id_fuel_logs_id_fk" FOREIGN KEY ("fuel_log_id") REFERENCES "public"."fuel_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_anomalies" ADD CONSTRAINT "fuel_anomalies_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_anomalies" ADD CONSTRAINT "fuel_anomalies_reviewed_by_id_users_id_fk" FOREIGN KEY ("reviewed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gross_limits" ADD CONSTRAINT "gross_limits_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fuel_anomalies_log_kind_key" ON "fuel_anomalies" USING btree ("fuel_log_id","kind");--> statement-breakpoint
CREATE INDEX "fuel_anomalies_status_idx" ON "fuel_anomalies" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trucks" ADD CONSTRAINT "trucks_axles_check" CHECK ("trucks"."axles" in (2, 3, 4));--> statement-breakpoint
ALTER TABLE "trucks" ADD CONSTRAINT "trucks_tare_check" CHECK ("trucks"."tare_t" is null or "trucks"."tare_t" > 0);--> statement-breakpoint
ALTER TABLE "trucks" ADD CONSTRAINT "trucks_tank_check" CHECK ("trucks"."tank_capacity_l" is null or "trucks"."tank_capacity_l" > 0);--> statement-breakpoint
-- Gross vehicle weight limits (Traffic Act Cap 403, KeNHA weighbridge rules): 2-axle 18 t, 3-axle 26 t, 4-axle 30 t.
INSERT INTO "gross_limits" ("axles", "gross_t") VALUES (2, 18), (3, 26), (4, 30);
