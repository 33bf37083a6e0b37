CREATE TABLE "delivery_proofs" (
	"assignment_id" integer PRIMARY KEY NOT NULL,
	"photo_path" text NOT NULL,
	"method" text NOT NULL,
	"receiver_name" text,
	"flagged" boolean DEFAULT false NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"recorded_by_id" integer,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_proofs_method_check" CHECK ("delivery_proofs"."method" in ('code','receiver'))
);
--> statement-breakpoint
CREATE TABLE "geofence_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"truck_id" text NOT NULL,
	"kind" text NOT NULL,
	"order_id" integer,
	"assignment_id" integer,
	"at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "geofence_events_kind_check" CHECK ("geofence_events"."kind" in ('YARD_EXIT','SITE_ENTRY','SITE_EXIT','YARD_ENTRY'))
);
--> statement-breakpoint
CREATE TABLE "geofence_states" (
	"truck_id" text NOT NULL,
	"fence" text NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "geofence_states_truck_id_fence_pk" PRIMARY KEY("truck_id","fence")
);
--> statement-breakpoint
CREATE TABLE "load_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"assignment_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"by_user_id" integer,
	"reason" text,
	"geofence_event_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "load_events_source_check" CHECK ("load_events"."source" in ('geofence','manual','proof'))
);
--> statement-breakpoint
ALTER TABLE "assignments" DROP CONSTRAINT "assignments_status_check";--> statement-breakpoint
DROP INDEX "assignments_active_idx";--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "arrived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "site_lat" double precision;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "site_lng" double precision;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "site_radius_m" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "site_source" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "site_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tracking_token" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_code" text DEFAULT lpad(floor(random() * 10000)::int::text, 4, '0') NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_code_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "delivery_proofs" ADD CONSTRAINT "delivery_proofs_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_proofs" ADD CONSTRAINT "delivery_proofs_recorded_by_id_users_id_fk" FOREIGN KEY ("recorded_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofence_events" ADD CONSTRAINT "geofence_events_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofence_events" ADD CONSTRAINT "geofence_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofence_events" ADD CONSTRAINT "geofence_events_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofence_states" ADD CONSTRAINT "geofence_states_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "load_events" ADD CONSTRAINT "load_events_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "load_events" ADD CONSTRAINT "load_events_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "load_events" ADD CONSTRAINT "load_events_geofence_event_id_geofence_events_id_fk" FOREIGN KEY ("geofence_event_id") REFERENCES "public"."geofence_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_proofs_photo_key" ON "delivery_proofs" USING btree ("photo_path");--> statement-breakpoint
CREATE UNIQUE INDEX "geofence_events_truck_kind_at_key" ON "geofence_events" USING btree ("truck_id","kind","at");--> statement-breakpoint
CREATE INDEX "geofence_events_truck_at_idx" ON "geofence_events" USING btree ("truck_id","at");--> statement-breakpoint
CREATE INDEX "geofence_events_assignment_idx" ON "geofence_events" USING btree ("assignment_id");--> statement-breakpoint
CREATE INDEX "load_events_assignment_idx" ON "load_events" USING btree ("assignment_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_tracking_token_key" ON "orders" USING btree ("tracking_token");--> statement-breakpoint
CREATE INDEX "assignments_active_idx" ON "assignments" USING btree ("truck_id","id") WHERE "assignments"."status" in ('SCHEDULED','IN_TRANSIT','ARRIVED');--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_status_check" CHECK ("assignments"."status" in ('SCHEDULED','IN_TRANSIT','ARRIVED','DELIVERED','CANCELLED'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_code_check" CHECK ("orders"."delivery_code" ~ '^[0-9]{4}$');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_site_source_check" CHECK ("orders"."site_source" in ('geocoder','gazetteer','pin','link','driver'));