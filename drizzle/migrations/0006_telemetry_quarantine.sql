CREATE TABLE "telemetry_discards" (
	"device_id" text NOT NULL,
	"reason" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sample" text,
	CONSTRAINT "telemetry_discards_device_id_reason_pk" PRIMARY KEY("device_id","reason")
);
--> statement-breakpoint
CREATE TABLE "telemetry_quarantine" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"fix_time" text NOT NULL,
	"truck_id" text,
	"raw" text NOT NULL,
	"error" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "truck_latest" ADD COLUMN "battery" double precision;--> statement-breakpoint
ALTER TABLE "truck_latest" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "telemetry_quarantine_fix_idx" ON "telemetry_quarantine" USING btree ("device_id","fix_time");